"""The one delta format between two views of a table (docs/api.md): what a move event
and a replay frame send instead of the whole view. The table's script applies it with
``withDelta`` (static/js/table-common.js), the replay's with the same function.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def observation_delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from ``before`` to ``after``: ``set`` the keys with a new value;
    ``splice`` for a list that kept a head or a tail, ``[start, removed, items]``: from
    ``start``, ``removed`` items replaced by ``items`` (the log grows at its end; a meld
    laid off onto changes one item of the table; a hand loses a card). Unchanged keys are
    left out; from an empty ``before`` everything is ``set``."""
    changed: dict[str, Any] = {}
    spliced: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if key in before and old == value:
            continue
        if isinstance(value, list) and isinstance(old, list) and old and value:
            head = 0
            most = min(len(old), len(value))
            while head < most and old[head] == value[head]:
                head += 1
            tail = 0
            while tail < most - head and old[-1 - tail] == value[-1 - tail]:
                tail += 1
            if head or tail:
                spliced[key] = [head, len(old) - head - tail, value[head : len(value) - tail]]
                continue
        changed[key] = value
    delta: dict[str, Any] = {}
    if changed:
        delta["set"] = changed
    if spliced:
        delta["splice"] = spliced
    return delta
