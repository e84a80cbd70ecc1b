"""Loading a stored Klaverjas round (``state_from_json``): a state the rules can reach
loads; anything else is refused with the engine's ``InvalidState``, never another
exception, and what loads plays legally (issue 12, item 5)."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from json_mutation import json_values, mutate

from engine.errors import InvalidState
from engine.klaverjas import (
    BOT_LEVELS,
    PRESETS,
    KlaverjasState,
    bot_action,
    new_round,
    state_from_json,
)

SECRET = bytes(range(32))


def played(preset: str, moves: int, *, seed: int) -> KlaverjasState:
    rng = random.Random(seed)
    state = new_round(PRESETS[preset], secret=SECRET, round_index=seed % 8)
    for _ in range(moves):
        if state.is_terminal:
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("moves", [0, 1, 5, 20, 40])
def test_every_reachable_state_loads(preset: str, moves: int) -> None:
    state = played(preset, moves, seed=moves)
    assert state_from_json(json.loads(json.dumps(state.to_json()))) == state


@pytest.mark.parametrize(
    "change",
    [
        {"hands": "not a list"},
        {"round_seed": "zz"},
        {"current_player": 7},
        {"variant": 3},
        {"tricks": [{"leader": 0, "cards": [0, 1]}]},
    ],
)
def test_a_broken_state_is_refused_with_invalid_state(change: dict[str, Any]) -> None:
    data = played("rotterdams", 12, seed=3).to_json()
    data.update(change)
    with pytest.raises(InvalidState):
        state_from_json(data)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    moves=st.integers(0, 40),
    seed=st.integers(0, 2**32),
    new_value=json_values,
)
def test_mutated_json_is_refused_or_plays_legally(
    preset: str, moves: int, seed: int, new_value: Any
) -> None:
    rng = random.Random(seed)
    data = copy.deepcopy(played(preset, moves, seed=seed).to_json())
    mutate(data, rng, new_value)
    try:
        state = state_from_json(data)
    except InvalidState:
        return
    if not state.is_terminal:
        for level in BOT_LEVELS:
            state.apply(bot_action(state, level=level))
    for _ in range(60):
        if state.is_terminal:
            return
        actions = state.legal_actions()
        assert actions, "a player to move always has a legal action"
        state = state.apply(rng.choice(actions))
