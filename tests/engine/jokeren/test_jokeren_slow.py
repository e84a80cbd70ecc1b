"""The slow tier: 10,000 random-play rounds per preset without an error
(``pytest -m slow tests/engine/jokeren/test_jokeren_slow.py``).

Every round has its own secret and its own random choices, so the rounds are split over
the machine's cores and the result does not depend on how they are split.
"""

from __future__ import annotations

import os
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

from engine.jokeren import PRESETS, new_round

ROUNDS = 10_000
CHUNK = 500


def play_rounds(preset: str, first: int, count: int) -> dict[str, int]:
    """Play rounds ``first .. first+count-1`` choosing uniformly among the legal actions;
    check each end; count the ways the rounds ended."""
    variant = PRESETS[preset]
    ends = {"out": 0, "stock": 0, "turn_limit": 0}
    for r in range(first, first + count):
        rng = random.Random(f"{preset}:{r}")
        state = new_round(variant, secret=r.to_bytes(4, "big"), round_index=r % 8)
        while not state.is_terminal:
            actions = state.legal_actions()
            state = state.apply(actions[rng.randrange(len(actions))])
        assert state.end_reason is not None
        ends[state.end_reason] += 1
        scores = state.scores()
        if state.winner is not None:
            assert scores[state.winner] == 0
            assert state.hands[state.winner] == ()
        cards = sum(len(h) for h in state.hands) + len(state.stock) + len(state.open_pile)
        cards += len(state.removed) + sum(len(m.cards) for m in state.table)
        assert cards == variant.pack_size
    return ends


@pytest.mark.slow
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_ten_thousand_random_rounds(preset: str) -> None:
    starts = range(0, ROUNDS, CHUNK)
    workers = max(1, min(os.cpu_count() or 1, 8))
    totals = {"out": 0, "stock": 0, "turn_limit": 0}
    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = [pool.submit(play_rounds, preset, s, min(CHUNK, ROUNDS - s)) for s in starts]
        for future in futures:
            for reason, n in future.result().items():
                totals[reason] += n
    assert sum(totals.values()) == ROUNDS
    assert totals["out"] > 0


def test_play_rounds_counts_each_end() -> None:
    ends = play_rounds("jokeren7", 0, 3)
    assert sum(ends.values()) == 3
