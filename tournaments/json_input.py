"""JSON from outside the site (a request body, a form field), read so that nothing in it
can crash a page or a database: strict JSON only (no ``NaN`` or ``Infinity``, which no
database stores), no string a database or a page cannot hold, nesting bounded, and every
way to fail one ``ValueError`` (``UnreadableJSON``)."""

from __future__ import annotations

import json
import math
import re
from typing import Any

#: How deep arrays and objects may nest: the deepest value the site takes is a lay-down
#: (body → action → melds → meld → cards: 5 levels); the rest of the bound is slack.
MAX_DEPTH = 16


#: Characters a JSON string may escape but the site does not take: NUL (PostgreSQL's
#: ``jsonb`` and text columns refuse it) and lone UTF-16 surrogates (no UTF-8 page or
#: database can hold one).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


class UnreadableJSON(ValueError):
    """Text that is not JSON the site reads: invalid, ``NaN``/``Infinity`` (also ``1e400``,
    which Python reads as infinity), a number of more than 4,300 digits, a string with NUL
    or a lone surrogate, or nested deeper than ``MAX_DEPTH``."""


def _refuse_constant(name: str) -> Any:
    raise UnreadableJSON(f"{name} is not a JSON value")


def _check(value: Any, max_depth: int) -> None:
    """Walk ``value`` without recursion: its nesting and every string in it."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, str):
            if _UNSTORABLE.search(item):
                raise UnreadableJSON("a string with NUL or a lone surrogate")
            continue
        if isinstance(item, float) and not math.isfinite(item):
            raise UnreadableJSON("a number too large for a float")
        if isinstance(item, dict):
            children: list[Any] = [*item.keys(), *item.values()]
        elif isinstance(item, list):
            children = item
        else:
            continue
        if level >= max_depth:
            raise UnreadableJSON(f"nested deeper than {max_depth} levels")
        stack.extend((child, level + 1) for child in children)


def loads(text: str | bytes, *, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` that raises nothing but ``UnreadableJSON`` (a ``ValueError``).

    Bytes are decoded as JSON's UTF-8 (or UTF-16/32, which ``json`` detects); nesting far
    beyond the bound stops the parser itself (``RecursionError``), nesting just beyond it
    is found after parsing."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant)
    except UnreadableJSON:
        raise
    except RecursionError as exc:
        raise UnreadableJSON("nested too deeply") from exc
    except (ValueError, TypeError) as exc:
        # JSONDecodeError, UnicodeDecodeError and too many digits are ValueErrors.
        raise UnreadableJSON(str(exc)[:200]) from exc
    _check(value, max_depth)
    return value
