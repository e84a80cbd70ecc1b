"""``python manage.py demo``: a demo organizer, a demo player and an open demo tournament of
every preset of every game whose engine imports. Running it again changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.utils import timezone

from tournaments.games import available_games
from tournaments.models import Tournament
from tournaments.permissions import ORGANIZERS_GROUP
from tournaments.services import tournaments as tournament_services

DEMO_PASSWORD = "jokeren-demo"
ORGANIZER = "demo-organizer"
PLAYER = "demo-player"


class Command(BaseCommand):
    help = "Create demo users and an open demo tournament of each preset (idempotent)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--days", type=int, default=30, help="how long the tournaments stay open"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        group, _ = Group.objects.get_or_create(name=ORGANIZERS_GROUP)
        users = {}
        for username in (ORGANIZER, PLAYER):
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[username] = user
        users[ORGANIZER].groups.add(group)

        now = timezone.now()
        made = 0
        for game, module in available_games().items():
            for preset, variant in module.PRESETS.items():
                name = f"Demo {game} · {preset}"
                exists = Tournament.objects.filter(
                    name=name,
                    created_by=users[ORGANIZER],
                    closed_at__isnull=True,
                    closes_at__gt=now,
                ).exists()
                if exists:
                    continue
                tournament_services.tournament_create(
                    created_by=users[ORGANIZER],
                    name=name,
                    game=game,
                    preset=preset,
                    rounds=variant.rounds,
                    max_entrants=10,
                    opens_at=now,
                    closes_at=now + timedelta(days=options["days"]),
                )
                made += 1
        self.stdout.write(f"Demo tournaments created: {made}")
        self.stdout.write(f"Organizer log-in: {ORGANIZER} / {DEMO_PASSWORD}")
        self.stdout.write(f"Player log-in:    {PLAYER} / {DEMO_PASSWORD}")
