"""Tournaments from before the results were kept per entry get their result rows once
(the standings' reads wrote them on first sight before; a read no longer writes).

It runs the site's own ``results_backfill`` (the rows are replayed from the games by the
engine, which no historical model can do); on a new database there is nothing to write.
"""

from typing import Any

from django.db import migrations

from tournaments.services.results import results_backfill


def backfill(apps: Any, schema_editor: Any) -> None:
    results_backfill()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0011_series_max_entrants_validator")]

    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
