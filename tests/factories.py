"""Plain factory functions for the site's tests (no factory library needed)."""

from __future__ import annotations

import itertools
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from tournaments import services
from tournaments.models import Tournament
from tournaments.permissions import ORGANIZERS_GROUP

PASSWORD = "kaarten-schudden-42"
_counter = itertools.count(1)


def make_user(username: str | None = None, *, organizer: bool = False, **extra: Any) -> Any:
    User = get_user_model()
    name = username or f"user{next(_counter)}"
    user = User.objects.create_user(username=name, password=PASSWORD, **extra)
    if organizer:
        group, _ = Group.objects.get_or_create(name=ORGANIZERS_GROUP)
        user.groups.add(group)
    return user


def make_tournament(
    *,
    created_by: Any = None,
    name: str = "Toernooi",
    game: str = "jokeren",
    preset: str = "jokeren7",
    rounds: int = 2,
    max_entrants: int = 10,
    bot_level: str = "basic",
    opens_at: datetime | None = None,
    closes_at: datetime | None = None,
    variant: dict[str, Any] | None = None,
) -> Tournament:
    now = timezone.now()
    return services.tournament_create(
        created_by=created_by or make_user(organizer=True),
        name=name,
        game=game,
        preset=preset,
        variant=variant,
        rounds=rounds,
        max_entrants=max_entrants,
        bot_level=bot_level,
        opens_at=opens_at or now - timedelta(hours=1),
        closes_at=closes_at or now + timedelta(days=1),
    )


def south_action(game: Any) -> dict[str, Any]:
    """A legal action for South in ``game``'s current state: the basic bot's choice."""
    module = services.module_of(game.game)
    state = module.state_from_json(game.state)
    assert state.current_player == services.PLAYER_SEAT
    return dict(module.bot_action(state, level="basic").to_json())


def play_to_end(game: Any, user: Any) -> tuple[Any, list[dict[str, Any]]]:
    """Play ``game`` to its end through the service, South choosing like the basic bot.
    Returns the finished game and every event of every move."""
    events: list[dict[str, Any]] = []
    game.refresh_from_db()
    while game.status == "playing":
        outcome = services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=south_action(game)
        )
        events.extend(outcome.events)
        game = outcome.game
    return game, events
