"""Mutating a stored state's JSON at random, for the loading properties of both games:
one change somewhere (a value replaced, a key or element removed, a card moved)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import strategies as st

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.integers(-3, 120)
    | st.floats(allow_nan=True)
    | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON tree (dict keys and list indexes), the root excluded."""
    out: list[tuple[Any, ...]] = []
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, child in items:
        out.append((*prefix, key))
        if isinstance(child, dict | list):
            out.extend(paths_of(child, (*prefix, key)))
    return out


def mutate(data: dict[str, Any], rng: random.Random, new_value: Any) -> None:
    """One change somewhere in ``data``: a value replaced, a key or an element removed, or
    a card moved from one list to another."""
    paths = paths_of(data)
    path = rng.choice(paths)
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    how = rng.randrange(3)
    if how == 0:
        parent[path[-1]] = new_value
    elif how == 1:
        del parent[path[-1]]
    else:
        lists = [p for p in paths if isinstance(value_at(data, p), list) and value_at(data, p)]
        source, target = value_at(data, rng.choice(lists)), value_at(data, rng.choice(lists))
        target.append(source.pop(rng.randrange(len(source))))


def value_at(data: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        data = data[key]
    return data
