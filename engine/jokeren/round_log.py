"""The public log of a Jokeren round: what every seat has seen happen, oldest entry first
(docs/rules.md §2: a draw from the stock is never shown, a draw from the open pile shows
its card; a meld laid is logged with every joker's card filled in; a complete meld leaving
the table, a reshuffle of the open pile into the stock and the end of the round are
logged too). Entries are tuples, kept in chunks so that an action copies at most one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.jokeren.actions import DISCARDS, DRAW_STOCK, Action, action_from_json

#: A public log entry: (kind, seat, action or None, data).
LogEntry = tuple[str, int, Action | None, tuple[int, ...]]
#: The public log, oldest entry first.
Log = tuple[LogEntry, ...]
#: The log as a linked list, newest first: (previous node, entry) or None.
LogNode = tuple[Any, LogEntry] | None

#: The log entry of a draw from the stock, per seat (shared: entries are immutable).
STOCK_DRAWS: tuple[LogEntry, ...] = tuple(("action", s, DRAW_STOCK, ()) for s in range(4))
#: The log entry of the discard of each card (``DISCARDS``), per seat (shared too: a log
#: entry lives as long as the round, and an entry made for every discard outlived the
#: garbage collector's youngest generation)
DISCARD_ENTRIES: tuple[tuple[LogEntry, ...], ...] = tuple(
    tuple(("action", s, d, ()) for d in DISCARDS) for s in range(4)
)


#: The log is kept as full chunks of this many entries and a short tail, so that an
#: action copies at most one chunk (a flat tuple would copy the whole log each time).
LOG_CHUNK = 16


def chunked(log: Log) -> tuple[tuple[Log, ...], Log]:
    """Full chunks of ``LOG_CHUNK`` entries and the rest."""
    cut = len(log) - len(log) % LOG_CHUNK
    chunks = tuple(log[i : i + LOG_CHUNK] for i in range(0, cut, LOG_CHUNK))
    return chunks, log[cut:]


def flat(chunks: tuple[Log, ...], tail: Log) -> Log:
    if not chunks:
        return tail
    return tuple(e for chunk in chunks for e in chunk) + tail


def linked_log(log: Log) -> LogNode:
    node: LogNode = None
    for entry in log:
        node = (node, entry)
    return node


def entry_json(entry: LogEntry) -> dict[str, Any]:
    kind, seat, action, data = entry
    if kind == "action":
        assert action is not None
        obj: dict[str, Any] = {"type": "action", "seat": seat, "action": action.to_json()}
        if data:
            obj["card"] = data[0]
        return obj
    if kind == "complete":
        return {
            "type": "complete",
            "seat": seat,
            "cards": list(data[1:]),
            "to": "open_pile" if data[0] == 0 else "removed",
        }
    if kind == "reshuffle":
        return {"type": "reshuffle", "k": data[0], "cards": data[1]}
    return {
        "type": "end",
        "winner": None if seat < 0 else seat,
        "reason": ("out", "stock", "turn_limit")[data[0]],
    }


def entry_from_json(obj: Mapping[str, Any]) -> LogEntry:
    kind = obj["type"]
    if kind == "action":
        card = obj.get("card")
        data = () if card is None else (int(card),)
        return ("action", int(obj["seat"]), action_from_json(obj["action"]), data)
    if kind == "complete":
        to = 0 if obj["to"] == "open_pile" else 1
        return ("complete", int(obj["seat"]), None, (to, *(int(c) for c in obj["cards"])))
    if kind == "reshuffle":
        return ("reshuffle", -1, None, (int(obj["k"]), int(obj["cards"])))
    if kind == "end":
        winner = obj["winner"]
        reason = ("out", "stock", "turn_limit").index(obj["reason"])
        return ("end", -1 if winner is None else int(winner), None, (reason,))
    raise ValueError(f"unknown log entry type {kind!r}")


def append_log(d: dict[str, Any], entries: tuple[LogEntry, ...]) -> None:
    """Append ``entries`` to the log fields of the state fields ``d`` (in place; full
    chunks are shared, not copied)."""
    tail = d["log_tail"] + entries
    if len(tail) < LOG_CHUNK:
        d["log_tail"] = tail
    else:
        chunks, d["log_tail"] = chunked(tail)
        d["log_chunks"] = d["log_chunks"] + chunks


def open_takes_of(log: Log) -> tuple[tuple[int, int], ...]:
    """(seat, card) of every draw from the open pile in ``log``, in order: the only
    action entries that carry a card."""
    return tuple((seat, data[0]) for kind, seat, _, data in log if kind == "action" and data)
