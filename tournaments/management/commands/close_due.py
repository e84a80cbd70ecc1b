"""``python manage.py close_due``: close every tournament whose closing time has passed.

The same as the Celery beat task, for a machine without Celery (cron, or by hand).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from tournaments.services import closing as closing_services


class Command(BaseCommand):
    help = "Close every tournament whose closing time has passed (bots finish open games)."

    def handle(self, *args: Any, **options: Any) -> None:
        due = closing_services.tournaments_due()
        for tournament_id in due:
            closing_services.tournament_close(tournament_id=tournament_id)
            self.stdout.write(f"closed tournament {tournament_id}")
        self.stdout.write(f"{len(due)} tournament(s) closed")
