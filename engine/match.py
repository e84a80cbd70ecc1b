"""A game of several rounds: the dealer rotating, totals per seat, duplicate results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalMove
from engine.protocol import GameModule


@dataclass(frozen=True)
class BotMove:
    """A bot's move: the action it makes and the state after it. ``refused`` is the
    engine's refusal of the bot's own choice when there was one: then the action is the
    bot's simplest legal action (``simplest_action``) instead, so a bot bug never stops a
    game, and a replay of the game makes the same move."""

    action: Any
    state: Any
    refused: IllegalMove | None = None
    #: The bot's own choice (the action, unless the engine refused it).
    choice: Any = None


def bot_move(game: GameModule, state: Any, *, level: str, version: int) -> BotMove:
    """The move of the bot of ``level`` and ``version`` (the game's ``BOT_VERSIONS``) for
    ``state.current_player``: its choice, or, if the engine refuses that, its simplest
    legal action. The one way the site, the replay audit and game records make a bot's
    move; ``version`` is the stored game's (never silently the current one)."""
    action = game.bot_action(state, level=level, version=version)
    played, after, refused = _apply_or_simplest(game, state, action)
    return BotMove(played, after, refused, choice=action)


def _apply_or_simplest(
    game: GameModule, state: Any, action: Any
) -> tuple[Any, Any, IllegalMove | None]:
    """``bot_move``'s move for the bot's choice ``action``: the action made, the state
    after it, and the engine's refusal of the choice (``None`` when it was legal)."""
    try:
        return action, state.apply(action), None
    except IllegalMove as exc:
        fallback = game.simplest_action(state)
        return fallback, state.apply(fallback), exc


@dataclass(frozen=True)
class MatchResult:
    rounds: list[list[int]]
    totals: list[int]
    results: list[float]

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "totals": self.totals, "results": self.results}


def play_round(
    game: GameModule,
    variant: Any,
    *,
    secret: bytes,
    round_index: int,
    levels: Sequence[str],
    version: int | None = None,
) -> tuple[Any, list[Any]]:
    """Play one round with a bot of ``levels[seat]`` in every seat, all of bot version
    ``version`` (default: the game's current ``BOT_VERSION``); return the final state and
    the actions in order."""
    v = game.BOT_VERSION if version is None else version
    state = game.new_round(variant, secret=secret, round_index=round_index)
    actions: list[Any] = []
    # ``bot_move``'s moves, without a ``BotMove`` for each (this loop is the benchmarks')
    bot_action = game.bot_action
    while not state.is_terminal:
        choice = bot_action(state, level=levels[state.current_player], version=v)
        action, state, _ = _apply_or_simplest(game, state, choice)
        actions.append(action)
    return state, actions


def play_match(
    game: GameModule,
    variant: Any,
    *,
    secret: bytes,
    rounds: int | None = None,
    levels: Sequence[str],
    version: int | None = None,
) -> MatchResult:
    """Play ``rounds`` rounds (default: the variant's) with bots of version ``version``
    (default: the game's current) in every seat."""
    n = variant.rounds if rounds is None else rounds
    per_round: list[list[int]] = []
    totals = [0] * variant.num_players
    for r in range(n):
        state, _ = play_round(
            game, variant, secret=secret, round_index=r, levels=levels, version=version
        )
        scores = state.scores()
        per_round.append(scores)
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
    return MatchResult(per_round, totals, game.results(totals))
