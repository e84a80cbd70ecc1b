"""The one delta format (docs/api.md): a move event and a replay frame carry ``set`` and
``splice`` from ``observation_delta``; applying them, as the table's ``withDelta`` does,
gives the new view back."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from tournaments.presentation.delta import observation_delta


def apply(view: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """``withDelta`` of static/js/table-common.js, written out again."""
    out = {**view, **delta.get("set", {})}
    for key, (start, removed, items) in delta.get("splice", {}).items():
        out[key] = [*view[key][:start], *items, *view[key][start + removed :]]
    return out


def test_a_grown_log_sends_only_its_new_entries() -> None:
    before = {"log": [1, 2, 3], "phase": "draw"}
    after = {"log": [1, 2, 3, 4], "phase": "play"}
    assert observation_delta(before, after) == {
        "set": {"phase": "play"},
        "splice": {"log": [3, 0, [4]]},
    }


def test_a_card_gone_from_the_middle_of_a_hand_is_one_splice() -> None:
    assert observation_delta({"hand": [5, 6, 7, 8]}, {"hand": [5, 6, 8]}) == {
        "splice": {"hand": [2, 1, []]}
    }


def test_nothing_changed_sends_nothing_and_a_first_view_sets_everything() -> None:
    view = {"hand": [1], "phase": "play"}
    assert observation_delta(view, dict(view)) == {}
    assert observation_delta({}, view) == {"set": view}


views = st.dictionaries(
    st.sampled_from(["hand", "log", "table", "phase", "scores"]),
    st.one_of(st.lists(st.integers(0, 5), max_size=6), st.integers(), st.none()),
)


@given(views, views)
def test_applying_the_delta_gives_the_new_view(
    before: dict[str, Any], after: dict[str, Any]
) -> None:
    # Keys are never dropped between two views of a table (each has every key).
    after = {**{k: None for k in before}, **after}
    delta = observation_delta(before, after)
    assert apply(before, delta) == after
    assert set(delta) <= {"set", "splice"}
