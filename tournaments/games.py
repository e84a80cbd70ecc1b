"""The game modules the site plays (``engine.registry``) and their dealt rounds. Seat 0
(South) is the player; the other seats are bots.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine import record
from engine.errors import IllegalMove
from engine.match import bot_move
from engine.protocol import GameModule
from engine.registry import GAMES, game_module
from tournaments.errors import InvalidSettings
from tournaments.models import Game

PLAYER_SEAT = 0

#: Keys of a finished round's observation that say who ended it and how (Jokeren).
ROUND_END_KEYS = ("winner", "end_reason")


def module_of(game: str) -> GameModule:
    """The engine module of a game name (raises ``InvalidSettings`` for an unknown one)."""
    if game not in GAMES:
        raise InvalidSettings.of(_("Unknown game: %(game)s."), game=game)
    return game_module(game)


@functools.lru_cache(maxsize=512)
def dealt_round(game: str, variant: Any, secret: bytes, round_index: int) -> Any:
    """The dealt state of a round of ``game`` (its module's ``new_round``), kept: the
    engine's states are immutable (frozen, ``apply`` returns a new one) and a duplicate
    tournament deals the same rounds to every entrant, so a process deals each round of a
    tournament once instead of on every move (the shuffle and the deal were about 3 % of
    a move's CPU)."""
    return module_of(game).new_round(variant, secret=secret, round_index=round_index)


def available_games() -> dict[str, GameModule]:
    """The game modules that import (a game whose engine is not installed is left out)."""
    out: dict[str, GameModule] = {}
    for name in GAMES:
        try:
            out[name] = game_module(name)
        except ImportError:
            continue
    return out


def result_sign(module: GameModule) -> int:
    """Results times this sort ascending from the best."""
    return 1 if module.LOWER_IS_BETTER else -1


@dataclass(frozen=True)
class PlayedRound:
    """A round a bot finish dealt and played to its end: every action with its seat, and
    the state at its end."""

    actions: list[record.RecordedAction]
    final_state: Any


def current_round(g: Game, module: GameModule, variant: Any) -> tuple[Any, list[Any], list[Any]]:
    """The current round's state (``Game.current_state``: dealt and its actions applied),
    its actions and the entrant's among them (a game being played: every seat-0 action is
    the entrant's); ``module`` and ``variant`` are the game's (its callers have them)."""
    actions = json.loads(g.round_actions)
    state = dealt_round(g.game, variant, g.deal_secret(g.round_index), g.round_index)
    own = []
    for action in actions:
        if state.current_player == PLAYER_SEAT:
            own.append(action)
        state = state.apply(module.action_from_json(action))
    return state, actions, own


@dataclass(frozen=True)
class BotRound:
    """A round played from its deal to its end by bots of one level and version in every
    seat, South's too: each action's seat and JSON, the state at its end, and where the
    engine refused a bot's choice (the action's index, the choice's JSON, the refusal and
    the state it was refused in: ``engine.match.bot_move`` made the simplest legal action
    instead)."""

    seats: tuple[int, ...]
    actions: tuple[dict[str, Any], ...]
    final_state: Any
    refused: tuple[tuple[int, dict[str, Any], IllegalMove, Any], ...]


@functools.lru_cache(maxsize=64)
def bot_round(
    game: str, variant: Any, secret: bytes, round_index: int, level: str, version: int
) -> BotRound:
    """Round ``round_index`` of ``secret`` played from its deal by bots of ``level`` and
    ``version`` in every seat (each move ``bot_move``, as the site makes it), kept: the
    bots are a function of the state, and a duplicate tournament deals every entrant the
    same rounds, so every round the bot plays from its deal in the entrant's seat (the
    close's finish of a game) is this one; a process plays it once per tournament."""
    module = module_of(game)
    state = dealt_round(game, variant, secret, round_index)
    seats: list[int] = []
    actions: list[dict[str, Any]] = []
    refused: list[tuple[int, dict[str, Any], IllegalMove, Any]] = []
    while not state.is_terminal:
        seat = state.current_player
        move = bot_move(module, state, level=level, version=version)
        if move.refused is not None:
            refused.append((len(actions), move.choice.to_json(), move.refused, state))
        seats.append(seat)
        actions.append(move.action.to_json())
        state = move.state
    return BotRound(tuple(seats), tuple(actions), state, tuple(refused))
