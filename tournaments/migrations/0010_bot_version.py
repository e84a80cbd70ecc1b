"""Bot versions: the bots' version a tournament, a game and a par row were made with.

Stored games keep only the entrant's own actions; the bots' moves are replayed, so every
game replays with the bots of its own version (the game module's ``BOT_VERSIONS``). Every
row that exists already was played with the bots of version 1, the only version before
this migration. New rows get the game module's current ``BOT_VERSION`` from the services
(the fields have no default: no row can be created without saying its version)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0009_lean_storage"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="bot_version",
            field=models.PositiveSmallIntegerField(default=1, verbose_name="bot version"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="game",
            name="bot_version",
            field=models.PositiveSmallIntegerField(default=1),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="parround",
            name="bot_version",
            field=models.PositiveSmallIntegerField(default=1),
            preserve_default=False,
        ),
    ]
