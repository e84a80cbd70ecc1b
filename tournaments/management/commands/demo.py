"""``python manage.py demo``: a demo organizer, a demo player and an open demo tournament of
every preset of every game whose engine imports, in the default club; a second club
("De Vrolijke Kaartschudders", owned by the demo organizer, the demo player a member) with
a members-only tournament; and a few rated players: a closed Jokeren tournament that the
demo player and three more demo players played (South's choices by the strong bot, the
basic bot and two seeded random players), its ratings applied (docs/rules.md, "Ratings").
Every demo account has a verified demo address (``<name>@example.org``).
Running it again changes nothing."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.utils import timezone

from accounts import services as account_services
from tournaments.games import PLAYER_SEAT, available_games, module_of
from tournaments.models import Access, Club, Game, Membership, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import clubs as club_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import ratings as rating_services
from tournaments.services import tournaments as tournament_services

DEMO_PASSWORD = "jokeren-demo"
#: The demo organizer's second factor (base32 TOTP secret), printed with the log-ins.
DEMO_TOTP_SECRET = "JOKERENDEMOJOKERENDEMOJOKERENDEM"
ORGANIZER = "demo-organizer"
PLAYER = "demo-player"
SECOND_CLUB = "vrolijke-kaartschudders"
SECOND_CLUB_NAME = "De Vrolijke Kaartschudders"
MEMBERS_ONLY = "Clubavond (alleen leden)"
#: The closed, rated demo tournament and how each of its entrants chooses South's moves:
#: a bot level, or an integer (the seed of a player who picks a legal move at random).
RATED_NAME = "Demo Jokeren 7 · gespeeld"
#: The names the demo data had before it had readable ones: a database made then is
#: recognised, so running the command again adds nothing twice.
OLD_RATED_NAME = "Demo jokeren · gespeeld"
RATED_PLAYERS: dict[str, str | int] = {
    PLAYER: "strong",
    "demo-anna": "basic",
    "demo-bert": 1,
    "demo-cor": 2,
}
RATED_ROUNDS = 2


def demo_name(module: Any, preset: str, variant: dict[str, Any]) -> str:
    """A demo tournament's readable name, in Dutch: "Demo Jokeren 7", "Demo Jokeren
    Veertigen", "Demo Klaverjassen Rotterdams" (the game's title before a variant's title
    that does not already start with it)."""
    game_title = module.TITLE[0]
    title = str(variant.get("title_nl") or preset.replace("-", " ").capitalize())
    if not title.lower().startswith(game_title.lower()):
        title = f"{game_title} {title}"
    return f"Demo {title}"


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
            account_services.address_verified_set(user=user, email=demo_address(username))
            users[username] = user
        # an organizer acts only with a second factor (docs/rules.md, "Accounts", rule 6)
        account_services.second_factor_add(user=users[ORGANIZER], secret=DEMO_TOTP_SECRET)
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
                name = demo_name(module, preset, variant.to_json())
                exists = Tournament.objects.filter(
                    name__in=[name, f"Demo {game} · {preset}"],
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
        if self._rated_demo(users[ORGANIZER], users[PLAYER]):
            self.stdout.write(f"Rated demo tournament played and closed: {RATED_NAME}")
        self.stdout.write(f"Organizer log-in: {ORGANIZER} / {DEMO_PASSWORD}")
        bypass = getattr(settings, "MFA_TOTP_INSECURE_BYPASS_CODE", None)
        self.stdout.write(
            "  then a code of the TOTP secret "
            f"{DEMO_TOTP_SECRET} (any authenticator app)"
            + (f", or {bypass} (scripts/run.sh: DEBUG only)" if bypass else "")
        )
        self.stdout.write(f"Player log-in:    {PLAYER} / {DEMO_PASSWORD}")

    def _rated_demo(self, organizer: Any, player: Any) -> bool:
        """The closed demo tournament with its ratings applied, unless it exists."""
        if Tournament.objects.filter(
            name__in=[RATED_NAME, OLD_RATED_NAME], created_by=organizer
        ).exists():
            return False
        User = get_user_model()
        now = timezone.now()
        t = tournament_services.tournament_create(
            created_by=organizer,
            club=club_services.club_default(),
            name=RATED_NAME,
            game="jokeren",
            preset="jokeren7",
            rounds=RATED_ROUNDS,
            max_entrants=10,
            opens_at=now - timedelta(hours=2),
            closes_at=now + timedelta(hours=1),
        )
        for username, chooser in RATED_PLAYERS.items():
            user = player if username == PLAYER else User.objects.filter(username=username).first()
            if user is None:
                user = User.objects.create_user(username=username, password=DEMO_PASSWORD)
                account_services.address_verified_set(user=user, email=demo_address(username))
            game = entry_services.entry_join(tournament_id=t.pk, user=user).game
            _play_out(game, user, chooser)
        closing_services.tournament_close(tournament_id=t.pk)
        rating_services.ratings_apply_tournament(tournament_id=t.pk)
        return True


def demo_address(username: str) -> str:
    """A demo account's verified mail address (docs/rules.md, "Accounts": only such an
    account gets mail and is rated; ``example.org`` reaches no one)."""
    return f"{username}@example.org"


def _play_out(game: Game, user: Any, chooser: str | int) -> None:
    """Play ``game`` to its end as South: the bot of level ``chooser``, or a player who
    picks a legal move at random (seeded by ``chooser``)."""
    module = module_of(game.game)
    rng = random.Random(chooser) if isinstance(chooser, int) else None
    while game.status == Game.Status.PLAYING:
        state = game.current_state()
        assert state.current_player == PLAYER_SEAT
        if rng is not None:
            action = rng.choice(list(state.legal_actions()))
        else:
            action = module.bot_action(state, level=str(chooser), version=game.bot_version)
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=action.to_json()
        ).game
