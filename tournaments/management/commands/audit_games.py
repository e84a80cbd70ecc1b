"""``python manage.py audit_games [--tournament N]``: rebuild every finished game (or a
tournament's) from its secret and move log through the engine and compare it with what
is stored. Prints each mismatch and a summary; exits with status 1 when any game
mismatches (a flagged entry is kept out of its tournament's ranking until resolved).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.models import Tournament
from tournaments.services import audit as audit_services


class Command(BaseCommand):
    help = "Audit finished games by replaying them; exit status 1 on a mismatch."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", type=int, default=None, help="a tournament's id")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament_id = options["tournament"]
        if tournament_id is not None and not Tournament.objects.filter(pk=tournament_id).exists():
            raise CommandError(f"no tournament {tournament_id}")
        audits = audit_services.games_audit(tournament_id=tournament_id)
        bad = [a for a in audits if not a.ok]
        for audit in bad:
            entry = f" (entry {audit.entry_id})" if audit.entry_id is not None else ""
            self.stdout.write(f"game {audit.game_id}{entry}: MISMATCH")
            for problem in audit.problems:
                self.stdout.write(f"  {problem}")
        self.stdout.write(f"{len(audits)} game(s) audited, {len(bad)} mismatch(es)")
        if bad:
            raise CommandError(f"{len(bad)} game(s) do not match their replay", returncode=1)
