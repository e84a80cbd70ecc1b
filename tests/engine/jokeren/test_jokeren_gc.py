"""The Jokeren bots' caches hold nothing the cyclic garbage collector walks: a full
collection visits every tracked object of the process, and the decision that triggers
one pays for all of them (benchmarks/README.md at 566f5bf, "Jokeren expert decision time: the
garbage collector"). What the caches hold is facts about hands, never choices, so this
changes no choice (tests/engine/test_bot_fingerprints.py)."""

from __future__ import annotations

import gc

from engine.jokeren import PRESETS, bot_action, bots, new_round
from engine.jokeren.bots import HandMeld, Partition, going_out, hand, hand_partition, opening
from engine.untracked import untrack


def _play(preset: str, rounds: int) -> None:
    variant = PRESETS[preset]
    for r in range(rounds):
        state = new_round(variant, secret=b"gc" * 16, round_index=r)
        while not state.is_terminal:
            assert state.current_player is not None
            level = "expert" if state.current_player % 2 == 0 else "strong"
            state = state.apply(bot_action(state, level=level))


def _tracked() -> int:
    gc.collect()
    gc.collect()  # a tuple is untracked once what it holds is
    return len(gc.get_objects())


def test_untrack_keeps_the_object_and_its_value() -> None:
    meld = HandMeld(True, (1, 2, 3), ((5, 0),))
    assert gc.is_tracked(meld)
    assert untrack(meld) is meld
    assert not gc.is_tracked(meld)
    assert meld == (True, (1, 2, 3), ((5, 0),), False)
    assert meld.size == 4


def test_a_cached_partition_and_its_melds_are_untracked() -> None:
    bots.clear_caches()
    # 3-4-5 of clubs, 7s of three suits, a joker (id 52), two loose cards
    part = hand_partition([2, 3, 4, 6, 19, 32, 52, 11, 24])
    assert isinstance(part, Partition)
    assert part.melds
    assert not gc.is_tracked(part)
    assert not gc.is_tracked(part.melds)
    assert not any(gc.is_tracked(m) for m in part.melds)
    assert hand_partition([2, 3, 4, 6, 19, 32, 52, 11, 24]) is part


def test_the_caches_leave_few_tracked_objects_however_full() -> None:
    bots.clear_caches()
    _play("jokeren13", 2)
    _play("klassiek", 1)
    _tracked()
    caches = [
        hand._partition_live,
        opening._opening_melds,
        opening._points_split,
        going_out._relaxed_left,
    ]
    entries = sum(len(c.cache) for c in caches) + len(hand._CANDIDATES)
    assert entries > 2_500
    # the keys and values the collector tracks (before the caches were untracked: about
    # two per entry; the rest of the process holds tracked objects of its own, which the
    # bots' other caches of tables and melds keep for a while)
    tracked = sum(
        gc.is_tracked(key) + gc.is_tracked(value) for c in caches for key, value in c.cache.items()
    )
    tracked += sum(gc.is_tracked(value) for value in hand._CANDIDATES.values())
    assert tracked < entries // 10
    assert not any(isinstance(o, Partition) for o in gc.get_objects())
    # an untracked dict is skipped by every collection, whatever its size
    assert not gc.is_tracked(hand._CANDIDATES)
    assert not any(gc.is_tracked(c.cache) for c in caches)
