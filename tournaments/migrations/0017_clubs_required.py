"""Every tournament and series belongs to a club (0016 moved each to the default club)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0016_clubs"),
    ]

    operations = [
        migrations.AlterField(
            model_name="series",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="series",
                to="tournaments.club",
            ),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="club",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="tournaments",
                to="tournaments.club",
            ),
        ),
    ]
