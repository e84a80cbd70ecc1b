"""Any JSON value given as an action (issue 8, item 7): each game's ``action_from_json``
reads it or raises ``MalformedAction``, and applying what it read raises nothing but an
``IllegalMove``: the site answers 400 ``malformed_action`` or the rule's own code, never a
500 (huge numbers, floats, nested lists, wrong types)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMove, MalformedAction
from engine.registry import game_module

GAMES = ("jokeren", "klaverjas")
KEYS = ("type", "source", "card", "meld", "melds", "cards", "stands_for", "play", "suit")
TYPES = ("draw", "lay_melds", "lay_off", "swap_joker", "discard", "bid", "choose_trump", "play")

scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**4000), max_value=10**4000)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.sampled_from(["stock", "open", "7h", "**", "h", "Td", "", "\x00"])
)
values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=12,
)
actions = st.one_of(
    values,
    st.fixed_dictionaries(
        {"type": st.sampled_from(TYPES)}, optional=dict.fromkeys(KEYS[1:], values)
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("lay_melds"),
            "melds": st.lists(
                st.fixed_dictionaries(
                    {"cards": st.lists(values, max_size=4)}, optional={"stands_for": values}
                ),
                max_size=3,
            ),
        }
    ),
)


def _states(game: str) -> list[Any]:
    """The state at the first turn of a few deals, and the one after a draw (Jokeren)."""
    module = game_module(game)
    variant = next(iter(module.PRESETS.values()))
    out = []
    for r in range(2):
        state = module.new_round(variant, secret=bytes(range(32)), round_index=r)
        out.append(state)
        out.append(state.apply(module.bot_action(state, level="basic")))
    return out


STATES = {game: _states(game) for game in GAMES}


@settings(max_examples=400, deadline=None)
@given(game=st.sampled_from(GAMES), obj=actions, which=st.integers(0, 3))
def test_any_json_is_an_action_or_malformed(game: str, obj: Any, which: int) -> None:
    module = game_module(game)
    try:
        action = module.action_from_json(obj)
    except MalformedAction as exc:
        assert exc.code == "malformed_action" and exc.nl and exc.en
        return
    assert module.action_from_json(action.to_json()) == action
    try:
        STATES[game][which].apply(action)
    except IllegalMove as exc:
        assert exc.code and exc.nl and exc.en
