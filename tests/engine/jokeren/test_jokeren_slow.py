"""The slow tier: 10,000 random-play rounds per preset without an error
(``pytest -m slow tests/engine/jokeren/test_jokeren_slow.py``)."""

from __future__ import annotations

import random

import pytest

from engine.jokeren import PRESETS, JokerenState, new_round

ROUNDS = 10_000


def play_random_round(state: JokerenState, rng: random.Random) -> JokerenState:
    while not state.is_terminal:
        actions = state.legal_actions()
        state = state.apply(actions[rng.randrange(len(actions))])
    return state


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_ten_thousand_random_rounds(preset: str) -> None:
    variant = PRESETS[preset]
    rng = random.Random(preset)
    ends = {"out": 0, "stock": 0, "turn_limit": 0}
    for r in range(ROUNDS):
        secret = r.to_bytes(4, "big")
        end = play_random_round(new_round(variant, secret=secret, round_index=r % 8), rng)
        assert end.end_reason is not None
        ends[end.end_reason] += 1
        scores = end.scores()
        if end.winner is not None:
            assert scores[end.winner] == 0
        cards = sum(len(h) for h in end.hands) + len(end.stock) + len(end.open_pile)
        cards += len(end.removed) + sum(len(m.cards) for m in end.table)
        assert cards == variant.pack_size
    assert sum(ends.values()) == ROUNDS
    assert ends["out"] > 0
