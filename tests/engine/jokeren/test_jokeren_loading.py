"""Loading a stored round state (``state_from_json``): only states the rules can reach are
loaded; anything else is refused with the engine's ``InvalidState``, never a later crash in
the middle of a move (issue 12, item 5). And ``apply`` takes action objects only."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_mutation import json_values, mutate

from engine.errors import IllegalMove, InvalidState, MalformedAction
from engine.jokeren import BOT_LEVELS, PRESETS, JokerenState, bot_action, new_round, state_from_json

J7 = PRESETS["jokeren7"]
J13 = PRESETS["jokeren13"]
SECRET = bytes(range(32))


def played(preset: str, moves: int, *, seed: int = 1) -> JokerenState:
    """A round of ``preset`` after ``moves`` random legal actions (or its end)."""
    rng = random.Random(seed)
    state = new_round(PRESETS[preset], secret=SECRET, round_index=0)
    for _ in range(moves):
        if state.is_terminal:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


def at_play_phase(preset: str = "jokeren13", *, source: str = "stock") -> JokerenState:
    """The first player of round 0 right after drawing from ``source``."""
    from engine.jokeren import Draw

    return new_round(PRESETS[preset], secret=SECRET, round_index=0).apply(Draw(source))


# --- the four states of the issue ------------------------------------------------------


def test_an_empty_stock_at_a_draw_is_refused() -> None:
    # docs/rules.md §2: when the turn passes and the stock is empty, the open pile is reshuffled
    # into a new stock (or the round ends): a player to draw always finds a card there
    data = new_round(J13, secret=SECRET, round_index=0).to_json()
    data["open_pile"] = data["open_pile"] + data["stock"]
    data["stock"] = []
    with pytest.raises(InvalidState, match="stock"):
        state_from_json(data)


@pytest.mark.parametrize("seat", [7, 4, -1, True, 1.0, "1"])
def test_a_seat_that_does_not_exist_is_refused(seat: Any) -> None:
    data = new_round(J13, secret=SECRET, round_index=0).to_json()
    data["current_player"] = seat
    with pytest.raises(InvalidState, match="current_player"):
        state_from_json(data)


def test_a_taken_open_card_that_is_not_in_the_hand_is_refused() -> None:
    state = at_play_phase(source="open")
    taken = state.taken_from_open
    assert taken is not None and taken in state.hands[state.current_player]
    data = state.to_json()
    seat = data["current_player"]
    other = data["hands"][(seat + 1) % 4][0]
    data["taken_from_open"] = other  # a card another seat holds
    with pytest.raises(InvalidState, match="taken"):
        state_from_json(data)


@pytest.mark.parametrize("field", ["turn", "move_count", "reshuffles", "round_index"])
def test_a_negative_counter_is_refused(field: str) -> None:
    data = played("jokeren7", 9).to_json()
    data[field] = -1
    with pytest.raises(InvalidState, match=field):
        state_from_json(data)


def test_a_raw_dict_passed_to_apply_is_a_malformed_action_in_every_phase() -> None:
    draw_phase = new_round(J13, secret=SECRET, round_index=0)
    play_phase = at_play_phase()
    raw = {"type": "discard", "card": play_phase.hands[play_phase.current_player][0]}
    for state in (draw_phase, play_phase):
        with pytest.raises(MalformedAction) as caught:
            state.apply(raw)  # type: ignore[arg-type]
        assert caught.value.nl and caught.value.en


# --- what the rules can reach still loads ----------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("moves", [0, 1, 2, 7, 40, 400])
def test_every_reachable_state_loads(preset: str, moves: int) -> None:
    state = played(preset, moves, seed=moves)
    again = state_from_json(json.loads(json.dumps(state.to_json())))
    assert again == state


def test_a_taken_card_laid_in_a_meld_this_turn_still_loads() -> None:
    # docs/rules.md §2: a card taken from the open pile may be laid at once; it stays "taken"
    # (no copy of it may be discarded this turn) though it is no longer in the hand
    rng = random.Random(5)
    for attempt in range(4000):
        state = new_round(J7, secret=bytes([attempt % 256]) * 32, round_index=attempt % 8)
        while not state.is_terminal:
            actions = state.legal_actions()
            taken = state.taken_from_open
            if (
                taken is not None
                and state.phase == "play"
                and taken not in state.hands[state.current_player]
            ):
                assert state_from_json(state.to_json()) == state
                return
            from engine.jokeren import Draw

            state = state.apply(Draw("open") if Draw("open") in actions else rng.choice(actions))
    raise AssertionError("no position where the taken card was laid at once")


# --- mutated JSON: refused with InvalidState, or a state that plays legally -------------


def _plays_legally(state: JokerenState, rng: random.Random) -> None:
    """Every bot level chooses an action the engine accepts, and random legal play goes on
    for a while (to the end, or 300 actions) without any error."""
    if not state.is_terminal:
        for level in BOT_LEVELS:
            state.apply(bot_action(state, level=level))
    for _ in range(300):
        if state.is_terminal:
            assert state.scores() is not None
            return
        actions = state.legal_actions()
        assert actions, "a player to move always has a legal action"
        state = state.apply(rng.choice(actions))


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    moves=st.integers(0, 120),
    seed=st.integers(0, 2**32),
    changes=st.integers(1, 3),
    new_value=json_values,
)
def test_mutated_json_is_refused_or_plays_legally(
    preset: str, moves: int, seed: int, changes: int, new_value: Any
) -> None:
    rng = random.Random(seed)
    data = copy.deepcopy(played(preset, moves, seed=seed).to_json())
    for _ in range(changes):
        mutate(data, rng, copy.deepcopy(new_value))
    try:
        state = state_from_json(data)
    except InvalidState as exc:
        assert str(exc).startswith("state")
        return
    try:
        _plays_legally(state, rng)
    except IllegalMove as exc:  # pragma: no cover - the failure report
        raise AssertionError(f"a loaded state refused its own legal action: {exc}") from exc
