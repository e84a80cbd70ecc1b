"""``python manage.py compute_par [--tournament N]``: compute and store par for every round
of every tournament (or one) that has none yet for its current deals, variant and bot
level: tournaments created before par existed, or whose task was lost. Idempotent."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.services import par as par_services


class Command(BaseCommand):
    help = "Compute the missing par rounds of tournaments (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, default=None, help="a tournament's id")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament_id = options["tournament"]
        ids = Tournament.objects.order_by("pk").values_list("pk", flat=True)
        if tournament_id is not None:
            ids = ids.filter(pk=tournament_id)
            if not ids.exists():
                raise CommandError(f"no tournament {tournament_id}")
        computed = sum(par_services.tournament_par_compute(tournament_id=pk) for pk in ids)
        self.stdout.write(f"{computed} par round(s) computed")
