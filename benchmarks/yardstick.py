"""The benchmarks' yardstick: one game of OpenSpiel's ``gin_rummy`` with random legal
actions (``pyspiel.load_game("gin_rummy")``). No engine import, so a benchmark's child
process can load it before choosing the pure or the compiled engine."""

from __future__ import annotations

from typing import Any


def gin_rummy_game(game: Any, rng: Any) -> None:
    """Play one game of ``game`` (gin_rummy) to its end: chance outcomes and legal actions
    drawn uniformly from ``rng`` (a ``random.Random``)."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = outcomes[rng.randrange(len(outcomes))][0]
        else:
            legal = state.legal_actions()
            action = legal[rng.randrange(len(legal))]
        state.apply_action(action)
