"""Bots: legal, deterministic, fair (no hidden cards), quick, and strong beats basic."""

from __future__ import annotations

import dataclasses
import math
import statistics
import time

import pytest

import engine.klaverjas as klaverjas
from engine.klaverjas import (
    AMSTERDAMS,
    BOT_LEVELS,
    PRESETS,
    ROTTERDAMS,
    KlaverjasState,
    Variant,
    bot_action,
    new_round,
    simplest_action,
)
from engine.match import play_round

SECRET = b"b" * 32

ODD = Variant(
    name="odd",
    bidding="two_rounds",
    must_trump=False,
    must_overtrump=False,
    undertrump="no_undertrump_while_other_suit",
    four_jacks=200,
)
VARIANTS = [*PRESETS.values(), ODD, dataclasses.replace(ROTTERDAMS, bidding="no_passing")]


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name + v.bidding)
@pytest.mark.parametrize("level", BOT_LEVELS)
def test_bots_play_only_legal_moves(variant: Variant, level: str) -> None:
    for r in range(12):
        state = new_round(variant, secret=SECRET, round_index=r)
        while not state.is_terminal:
            action = bot_action(state, level=level)
            assert action in state.legal_actions()
            state = state.apply(action)
        assert len(state.tricks) == 8


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name + v.bidding)
def test_simplest_action_is_the_first_legal_action(variant: Variant) -> None:
    """The site's fallback when the engine refuses a bot's action: the first legal action,
    which the engine accepts in every position."""
    state = new_round(variant, secret=SECRET, round_index=3)
    while not state.is_terminal:
        action = simplest_action(state)
        assert action == state.legal_actions()[0]
        state = state.apply(action)
    assert len(state.tricks) == 8


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_bots_are_deterministic(level: str) -> None:
    for r in range(4):
        a = play_round(klaverjas, AMSTERDAMS, secret=SECRET, round_index=r, levels=[level] * 4)
        b = play_round(klaverjas, AMSTERDAMS, secret=SECRET, round_index=r, levels=[level] * 4)
        assert a[1] == b[1] and a[0].state_hash() == b[0].state_hash()


def _shuffle_hidden(state: KlaverjasState, seat: int) -> KlaverjasState:
    """The same state for ``seat`` with the other hands dealt differently (same counts)."""
    others = [s for s in range(4) if s != seat]
    pool = sorted(c for s in others for c in state.hands[s])
    pool = pool[::-1]  # a different assignment of the unseen cards
    hands = list(state.hands)
    for s in others:
        n = len(hands[s])
        hands[s], pool = tuple(sorted(pool[:n])), pool[n:]
    return dataclasses.replace(state, hands=tuple(hands))


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_bots_never_read_hidden_cards(level: str) -> None:
    """Dealing the unseen cards differently over the other seats changes no decision."""
    checked = 0
    for r in range(6):
        state = new_round(AMSTERDAMS, secret=SECRET, round_index=r)
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            action = bot_action(state, level=level)
            other = _shuffle_hidden(state, seat)
            if other.hands != state.hands:
                assert other.observe(seat) == state.observe(seat)
                assert bot_action(other, level=level) == action
                checked += 1
            state = state.apply(action)
    assert checked > 100


def _duplicate(n: int, variant: Variant) -> list[int]:
    """Strong in seats 0 and 2 against basic, then the same deals with the seats swapped;
    the strong team's margin per deal (both tables)."""
    margins = []
    for r in range(n):
        s1, _ = play_round(
            klaverjas, variant, secret=SECRET, round_index=r, levels=["strong", "basic"] * 2
        )
        s2, _ = play_round(
            klaverjas, variant, secret=SECRET, round_index=r, levels=["basic", "strong"] * 2
        )
        a, b = s1.scores(), s2.scores()
        margins.append((a[0] - a[1]) + (b[1] - b[0]))
    return margins


@pytest.mark.parametrize("variant", [ROTTERDAMS, AMSTERDAMS], ids=lambda v: v.name)
def test_strong_beats_basic_in_duplicate(variant: Variant) -> None:
    # 400 deals, each played twice with the seats swapped: the strong team's average
    # margin must be large (a round holds 162 points plus roem) and far outside the noise
    margins = _duplicate(400, variant)
    mean = statistics.mean(margins)
    standard_error = statistics.stdev(margins) / math.sqrt(len(margins))
    assert mean > 20
    assert mean > 3 * standard_error


def test_strong_decisions_are_quick() -> None:
    times: list[float] = []
    for r in range(8):
        state = new_round(ROTTERDAMS, secret=SECRET, round_index=r)
        while not state.is_terminal:
            start = time.perf_counter()
            action = bot_action(state, level="strong")
            times.append(time.perf_counter() - start)
            state = state.apply(action)
    times.sort()
    assert times[int(len(times) * 0.95)] < 0.010
