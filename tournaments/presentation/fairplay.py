"""A fair-play flag in words (docs/rules.md, "Fair play"), in Dutch or English: its
reason, then its evidence a line each. A linked flag: the shared devices and the
sightings of both accounts (what, when, the network, the browser). A play flag: the lines
its statistic kept as words (``evidence["words"]``, each a ``[nl, en]`` pair: the telling
decisions, how unlikely they are for an honest player), and any other figure by name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.utils import timezone

#: A sighting's kind in words (``Sighting.Kind``).
_SEEN = {"login": ("inloggen", "log-in"), "entry": ("inschrijving", "entry")}


def _pick(pair: Sequence[Any], language: str) -> str:
    """The ``language`` text of a ``[nl, en]`` pair (a plain string stays as it is)."""
    if isinstance(pair, str):
        return pair
    return str(pair[1] if language.startswith("en") and len(pair) > 1 else pair[0])


def _when(iso: str) -> str:
    try:
        at = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    return timezone.localtime(at).strftime("%Y-%m-%d %H:%M")


def _sighting_line(s: Mapping[str, Any], language: str) -> str:
    kind = _pick(_SEEN.get(str(s.get("kind")), (str(s.get("kind")),) * 2), language)
    network = s.get("network") or ("onbekend" if language == "nl" else "unknown")
    browser = s.get("user_agent") or "–"
    if language.startswith("en"):
        return (
            f"{s.get('user')}: {kind} on {_when(str(s.get('at')))} from the network"
            f" {network}, device {s.get('device')}, browser {browser}"
        )
    return (
        f"{s.get('user')}: {kind} op {_when(str(s.get('at')))} vanaf het netwerk"
        f" {network}, apparaat {s.get('device')}, browser {browser}"
    )


def _linked_lines(evidence: Mapping[str, Any], language: str) -> list[str]:
    devices = ", ".join(str(d) for d in evidence.get("devices", []))
    other = evidence.get("linked_user") or (
        "a deleted account" if language.startswith("en") else "een verwijderd account"
    )
    where = evidence.get("linked_tournament_name", "")
    if language.startswith("en"):
        head = f"The same device ({devices}) was used by {other}, who entered {where}."
    else:
        head = (
            f"Hetzelfde apparaat ({devices}) werd gebruikt door {other}, die meedeed aan {where}."
        )
    return [head, *(_sighting_line(s, language) for s in evidence.get("sightings", []))]


def flag_lines(*, kind: str, evidence: Mapping[str, Any], language: str) -> list[str]:
    """The evidence of a flag of ``kind`` in words, a line each, in ``language``."""
    if kind == "linked":
        return _linked_lines(evidence, language)
    lines = [_pick(w, language) for w in evidence.get("words", [])]
    lines += [
        f"{name}: {value}"
        for name, value in sorted(evidence.items())
        if name != "words" and isinstance(value, int | float | str)
    ]
    return lines
