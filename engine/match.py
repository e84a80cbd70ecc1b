"""A game of several rounds: the dealer rotating, totals per seat, duplicate results."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.protocol import GameModule


@dataclass(frozen=True)
class MatchResult:
    rounds: list[list[int]]
    totals: list[int]
    results: list[float]

    def to_json(self) -> dict[str, Any]:
        return {"rounds": self.rounds, "totals": self.totals, "results": self.results}


def play_round(
    game: GameModule, variant: Any, *, secret: bytes, round_index: int, levels: Sequence[str]
) -> tuple[Any, list[Any]]:
    """Play one round with a bot of ``levels[seat]`` in every seat; return the final state
    and the actions in order."""
    state = game.new_round(variant, secret=secret, round_index=round_index)
    actions: list[Any] = []
    while not state.is_terminal:
        action = game.bot_action(state, level=levels[state.current_player])
        actions.append(action)
        state = state.apply(action)
    return state, actions


def play_match(
    game: GameModule,
    variant: Any,
    *,
    secret: bytes,
    rounds: int | None = None,
    levels: Sequence[str],
) -> MatchResult:
    """Play ``rounds`` rounds (default: the variant's) with bots in every seat."""
    n = variant.rounds if rounds is None else rounds
    per_round: list[list[int]] = []
    totals = [0] * variant.num_players
    for r in range(n):
        state, _ = play_round(game, variant, secret=secret, round_index=r, levels=levels)
        scores = state.scores()
        per_round.append(scores)
        totals = [t + s for t, s in zip(totals, scores, strict=True)]
    return MatchResult(per_round, totals, game.results(totals))
