"""The candidate expert ``choose_expert_v2`` (not a released bot version): the strong
bot's play, with a discard the next player is less likely to take or to go out with;
legal in every seat and preset, deterministic, blind to what its seat cannot see, within
its counted budget; the released expert (version 1) is untouched."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.dealing import Stream
from engine.jokeren import (
    BOT_VERSION,
    BOT_VERSIONS,
    PRESETS,
    JokerenState,
    bot_action,
    bots,
    expert,
    new_round,
)
from engine.jokeren.actions import DRAW_OPEN, Action, Discard
from engine.jokeren.expert import (
    FEED_CANDIDATES,
    FEED_WORLDS,
    _known_in_hands,
    _unseen,
    _world,
    choose_expert,
    choose_expert_v2,
)
from engine.native import is_compiled

#: actions made per round in the legality test
MOVES = 90


def _candidate(state: JokerenState) -> Action:
    """The candidate's action for the seat to move, from its observation and its stream
    (as ``bot_action`` makes a released expert's)."""
    seat = state.current_player
    assert seat is not None
    rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
    return choose_expert_v2(state.observe(seat), rng=rng)


def _positions(preset: str, rounds: int, seats: set[int]) -> Iterator[JokerenState]:
    """States where a bot is to move, the candidate in ``seats`` and the strong bot in
    the others, over the first ``MOVES`` actions of some rounds."""
    variant = PRESETS[preset]
    for r in range(rounds):
        state = new_round(variant, secret=b"expert2" + bytes([r]), round_index=r)
        for _ in range(MOVES):
            if state.is_terminal:
                break
            yield state
            if state.current_player in seats:
                state = state.apply(_candidate(state))
            else:
                state = state.apply(bot_action(state, level="strong"))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_candidate_makes_only_legal_moves_in_every_seat(preset: str) -> None:
    """``apply`` raises on an illegal action: two rounds with the candidate in every
    seat."""
    n = PRESETS[preset].num_players
    seen = {s.current_player for s in _positions(preset, 2, set(range(n)))}
    assert seen == set(range(n))


def test_the_released_expert_still_plays_version_1() -> None:
    """``bot_action`` (version 1, the current one) answers with ``choose_expert``, never
    the candidate's choice (on these positions the two differ)."""
    assert BOT_VERSION == 1 and BOT_VERSIONS == (1,)
    differ = 0
    for state in _positions("jokeren13", 2, {0, 2}):
        seat = state.current_player
        assert seat is not None
        rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
        first = choose_expert(state.observe(seat), rng=rng)
        assert bot_action(state, level="expert") == first
        differ += _candidate(state) != first
    assert differ > 0


@pytest.mark.parametrize("preset", ["jokeren13", "klassiek", "vijf-rondes"])
def test_a_decision_stays_within_its_counted_budget(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The discard search samples ``FEED_WORLDS`` worlds and predicts the next player's
    draw at most ``FEED_CANDIDATES`` times in each, never with the exact going-out
    search (``_search_out``): only the decision's own strong-bot play may run it.

    Compiled, ``bots`` calls its own ``_search_out`` directly, past the counting stand-in
    set here: the test then runs again in a process on the pure-Python engine."""
    if is_compiled(bots):
        _run_on_the_pure_engine(f"test_a_decision_stays_within_its_counted_budget[{preset}]")
        return
    counts = {"worlds": 0, "predictions": 0, "searches": 0}
    real_world, real_next, real_search = expert._world, expert._next_draw, bots._search_out

    def world(*args: Any) -> JokerenState:
        counts["worlds"] += 1
        return real_world(*args)

    def next_draw(state: JokerenState, seat: int) -> tuple[bool, bool]:
        counts["predictions"] += 1
        return real_next(state, seat)

    def search(*args: Any) -> Any:
        counts["searches"] += 1
        return real_search(*args)

    monkeypatch.setattr(expert, "_world", world)
    monkeypatch.setattr(expert, "_next_draw", next_draw)
    monkeypatch.setattr(bots, "_search_out", search)
    searched = 0
    for state in _positions(preset, 2, set()):
        seat = state.current_player
        assert seat is not None
        obs = state.observe(seat)
        if obs.phase == "draw":
            continue
        part = bots.hand_partition(obs.hand, obs.variant.scoring == "cards")
        kinds = list(dict.fromkeys(part.loose))[: FEED_CANDIDATES + 2]
        if len(kinds) < 2:
            continue
        counts.update(worlds=0, predictions=0, searches=0)
        rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
        expert._feed_chances(obs, obs.hand, kinds[:FEED_CANDIDATES], rng)
        assert counts["worlds"] == FEED_WORLDS
        assert 0 < counts["predictions"] <= FEED_WORLDS * FEED_CANDIDATES
        assert counts["searches"] == 0
        searched += 1
    assert searched > 5


def test_the_candidate_is_a_function_of_the_observation_and_the_stream() -> None:
    """The same observation in worlds whose hidden cards (other hands, stock) differ gives
    the same choice for the same stream; and the same choice twice."""
    checked = 0
    for i, state in enumerate(_positions("jokeren7", 2, {0, 2})):
        if state.phase == "draw" or i % 3:
            continue
        seat = state.current_player
        assert seat is not None
        obs = state.observe(seat)
        other = _world(obs, _known_in_hands(obs), _unseen(obs), Stream(b"other", "w"))
        assert other.hands != state.hands
        choices = [
            choose_expert_v2(s.observe(seat), rng=Stream(b"seed", f"bot:{seat}", start=3))
            for s in (state, other, state)
        ]
        assert len(set(choices)) == 1
        checked += 1
    assert checked > 5


def test_the_candidate_keeps_the_card_the_next_player_would_take() -> None:
    """Jokeren 7, deal 0 of the duplicate benchmark (secret ``00000000`` x 8, round 0),
    four strong bots, the fifth action: North discards. The strong bot's card is one the
    next player (East, a strong bot) takes from the open pile; the candidate discards
    another card, which East does not take."""
    state = new_round(PRESETS["jokeren7"], secret=bytes(32), round_index=0)
    while state.move_count < 4:
        state = state.apply(bot_action(state, level="strong"))
    assert state.current_player == 2 and state.phase != "draw"
    strong = bot_action(state, level="strong")
    candidate = _candidate(state)
    assert isinstance(strong, Discard) and isinstance(candidate, Discard)
    assert candidate != strong
    assert bot_action(state.apply(strong), level="strong") == DRAW_OPEN
    assert bot_action(state.apply(candidate), level="strong") != DRAW_OPEN


def _run_on_the_pure_engine(test: str) -> None:
    """Run ``test`` (of this file) with pytest in a new process on the pure-Python engine
    (``tests/pure_engine.py``); fails unless it ran and passed."""
    root = Path(__file__).resolve().parents[3]
    node = f"{Path(__file__).relative_to(root)}::{test}"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.pure_engine", "-q", node],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
