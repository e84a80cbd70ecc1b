"""Game.round_results: how each finished round went. Games with rounds finished before
this field existed get a ``null`` entry for each of them, so that entry ``r`` always
belongs to round ``r`` (the table then shows those rounds' scores only)."""

from django.db import migrations, models


def pad_finished_rounds(apps, schema_editor):
    Game = apps.get_model("tournaments", "Game")
    for pk, round_scores in Game.objects.values_list("pk", "round_scores").iterator():
        if round_scores:
            Game.objects.filter(pk=pk).update(round_results=[None] * len(round_scores))


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_organizers_group"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="round_results",
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.RunPython(pad_finished_rounds, migrations.RunPython.noop),
    ]
