"""``python manage.py demo``: a demo organizer, a demo player and an open demo tournament of
every preset of every game whose engine imports, in the default club; a second club
("De Vrolijke Kaartschudders", owned by the demo organizer, the demo player a member) with
a members-only tournament. Running it again changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone

from tournaments.games import available_games
from tournaments.models import Access, Club, Membership, Tournament
from tournaments.services import clubs as club_services
from tournaments.services import tournaments as tournament_services

DEMO_PASSWORD = "jokeren-demo"
ORGANIZER = "demo-organizer"
PLAYER = "demo-player"
SECOND_CLUB = "vrolijke-kaartschudders"
SECOND_CLUB_NAME = "De Vrolijke Kaartschudders"
MEMBERS_ONLY = "Clubavond (alleen leden)"


class Command(BaseCommand):
    help = "Create demo users and an open demo tournament of each preset (idempotent)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--days", type=int, default=30, help="how long the tournaments stay open"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        users = {}
        for username in (ORGANIZER, PLAYER):
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            users[username] = user
        default = club_services.club_default()
        club_services.membership_add(
            club=default, user=users[ORGANIZER], role=Membership.Role.ORGANIZER
        )
        second = Club.objects.filter(slug=SECOND_CLUB).first() or club_services.club_create(
            name=SECOND_CLUB_NAME,
            slug=SECOND_CLUB,
            description="Elke donderdag jokeren en klaverjassen.",
            owner=users[ORGANIZER],
        )
        if not Membership.objects.filter(club=second, user=users[PLAYER]).exists():
            club_services.membership_add(club=second, user=users[PLAYER])

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
                    club=default,
                    name=name,
                    game=game,
                    preset=preset,
                    rounds=variant.rounds,
                    max_entrants=10,
                    opens_at=now,
                    closes_at=now + timedelta(days=options["days"]),
                )
                made += 1
        if not Tournament.objects.filter(
            name=MEMBERS_ONLY, club=second, closed_at__isnull=True, closes_at__gt=now
        ).exists():
            tournament_services.tournament_create(
                created_by=users[ORGANIZER],
                club=second,
                access=Access.MEMBERS,
                name=MEMBERS_ONLY,
                game="jokeren",
                preset="jokeren7",
                rounds=4,
                max_entrants=20,
                opens_at=now,
                closes_at=now + timedelta(days=options["days"]),
            )
            made += 1
        self.stdout.write(f"Demo tournaments created: {made}")
        self.stdout.write(f"Organizer log-in: {ORGANIZER} / {DEMO_PASSWORD}")
        self.stdout.write(f"Player log-in:    {PLAYER} / {DEMO_PASSWORD}")
