"""``python manage.py recompute_ratings [--game jokeren]``: delete the ratings and apply
every closed tournament again, in the order they closed (docs/rules.md, "Ratings"): the
same numbers as the updates at each close. Also catches up a close whose ratings' task was
lost."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from engine.registry import GAMES
from tournaments.services import ratings as rating_services


class Command(BaseCommand):
    help = "Recompute every rating from the closed tournaments, in the order they closed."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=GAMES, default=None, help="one game only")

    def handle(self, *args: Any, **options: Any) -> None:
        game = options["game"]
        if game is not None:
            counted = {game: rating_services.ratings_recompute_game(game=game)}
        else:
            counted = rating_services.ratings_recompute_all()
        for name, count in counted.items():
            self.stdout.write(f"{name}: {count} tournament(s) counted")
