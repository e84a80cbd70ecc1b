"""The Klaverjas expert (version 2) bounds its work by counts: the decision that took
424 ms on a quiet machine (``bench_expert.py --rounds 20``, Amsterdams, round 5, move
19: benchmarks/README.md at 566f5bf, "Klaverjas expert decision time: the garbage collector")
stays within its sample, draw and node caps, and the search's shared caches hold
nothing the garbage collector has to walk (that decision's time was a full collection
of the process's objects: the Jokeren bots' caches and this move cache's lists, which
grew to hundreds of thousands)."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from engine.cli import BENCH_SECRET
from engine.klaverjas import PRESETS, KlaverjasState, new_round
from engine.klaverjas.bots import bot_action, dd, expert_v2

#: the slow decision: bench_expert's round ``70 * 100_000 + 5`` of Amsterdams, move 19
SLOW_ROUND = 70 * 100_000 + 5
SLOW_MOVE = 19


def _slow_position() -> KlaverjasState:
    """The position of the slow decision, reached as bench_expert reaches it (the expert
    in seats 0 and 2, the strong bot in 1 and 3)."""
    state = new_round(PRESETS["amsterdams"], secret=BENCH_SECRET, round_index=SLOW_ROUND)
    for _ in range(SLOW_MOVE):
        seat = state.current_player
        assert seat is not None
        state = state.apply(
            bot_action(state, level="expert" if seat % 2 == 0 else "strong", version=2)
        )
    assert state.current_player in (0, 2)
    return state


class _Counts:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.searches: list[dd.DoubleDummy] = []
        self.draws = 0
        self.samples = 0


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> _Counts:
    """The expert's searches, draws and samples of one decision, counted."""
    counts = _Counts()

    class Counted(dd.DoubleDummy):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            counts.searches.append(self)

    draw = expert_v2._draw
    samples = expert_v2._samples

    def counted_draw(*args: Any, **kwargs: Any) -> list[int] | None:
        counts.draws += 1
        return draw(*args, **kwargs)

    def counted_samples(*args: Any, **kwargs: Any) -> list[list[int]]:
        out = samples(*args, **kwargs)
        counts.samples = len(out)
        return out

    monkeypatch.setattr(expert_v2, "DoubleDummy", Counted)
    monkeypatch.setattr(expert_v2, "_draw", counted_draw)
    monkeypatch.setattr(expert_v2, "_samples", counted_samples)
    return counts


def test_the_slow_decision_stays_within_its_count_caps(counted: _Counts) -> None:
    state = _slow_position()
    counted.reset()  # count the slow decision only
    tricks_left = 8 - len(state.tricks)
    bot_action(state, level="expert", version=2)
    assert len(counted.searches) == 1
    nodes = counted.searches[0].nodes
    assert nodes > 0
    if tricks_left > expert_v2.SEARCH_TRICKS:
        # no new rollout sample past ROLLOUT_NODES cards; a sample plays at most 8
        # candidate cards out, each to the end of the round (32 cards)
        assert nodes <= expert_v2.ROLLOUT_NODES + 8 * 32
    else:
        assert nodes <= expert_v2.NODE_LIMIT
    assert 1 <= counted.samples <= expert_v2.SAMPLES
    # a sample draws with the trump caps, then without; a bid miss draws once more
    assert counted.draws <= 2 * expert_v2.SAMPLES + expert_v2.BID_TRIES


def test_the_move_cache_holds_nothing_the_garbage_collector_walks() -> None:
    state = _slow_position()
    bot_action(state, level="expert", version=2)
    gc.collect()
    caches = [c for c in dd._MOVES.values() if c]
    assert caches
    for cache in caches:
        # an untracked dict is skipped by every collection, whatever its size
        assert not gc.is_tracked(cache)
    assert not any(gc.is_tracked(roem) for roem in dd._ROEM.values())


def test_the_slow_decision_is_the_same_with_cold_and_warm_caches() -> None:
    state = _slow_position()
    dd._MOVES.clear()
    dd._ROEM.clear()
    cold = bot_action(state, level="expert", version=2)
    assert bot_action(state, level="expert", version=2) == cold
    assert bot_action(state, level="expert", version=2) == cold
