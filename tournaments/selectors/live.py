"""A live club evening as its pages follow it (docs/rules.md §7, "Live club evening
(clubavond)"): its schedule and state, kept in the cache so that every open page can ask
for it every few seconds without a query (``live_state``), and where the evening is now
(``live_status``: the lobby, a round being played, the pause between two, over).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.core.cache import cache
from django.utils import timezone

from tournaments.models import Access, Tournament

#: How long the state is kept without a change (each change forgets it at once: the
#: slot's close, the close, an edit; this bounds a change that a cache out of reach
#: missed).
STATE_SECONDS = 5


def live_state_key(tournament_id: int) -> str:
    """The cache key of a live evening's state (``live_state``)."""
    return f"live-state:{tournament_id}"


@dataclass(frozen=True)
class LiveState:
    """What the pages of a live evening follow: each round's slot (its opening and
    closing time), how many slots have been closed, whether the tournament has closed,
    and who may see it (``access``: a public one needs no other read)."""

    tournament_id: int
    access: str
    rounds: int
    slots: tuple[tuple[datetime, datetime], ...]
    slots_closed: int
    closed: bool


def state_of(t: Tournament) -> LiveState:
    return LiveState(
        tournament_id=t.pk,
        access=t.access,
        rounds=t.rounds,
        slots=tuple(t.live_slot(r) for r in range(len(t.live_slots))),
        slots_closed=t.live_slots_closed,
        closed=t.closed_at is not None,
    )


def live_state(*, tournament_id: int) -> LiveState | None:
    """The state of the live evening ``tournament_id`` (``None``: no such live evening),
    from the cache, else read once and kept for ``STATE_SECONDS``."""
    key = live_state_key(tournament_id)
    state = cache.get(key)
    if isinstance(state, LiveState):
        return state
    t = (
        Tournament.objects.filter(pk=tournament_id, live=True)
        .only("pk", "access", "rounds", "live", "live_slots", "live_slots_closed", "closed_at")
        .first()
    )
    if t is None:
        return None
    state = state_of(t)
    cache.set(key, state, STATE_SECONDS)
    return state


def live_status(state: LiveState, now: datetime | None = None) -> dict[str, Any]:
    """Where the evening is at ``now``, what its pages show: ``phase`` ``lobby`` (before
    the first round), ``playing`` (round ``round`` is being played until ``at``),
    ``pause`` (round ``round`` opens at ``at``), ``closing`` (every slot's time has
    passed, the close runs) or ``over``; ``board_rounds``: the rounds whose slot has
    closed (the board shows them to everyone); ``now``: the server's clock, so that a
    page counts down from it."""
    now = now or timezone.now()
    out: dict[str, Any] = {
        "rounds": state.rounds,
        "board_rounds": state.rounds if state.closed else state.slots_closed,
        "now": now.isoformat(),
        "round": None,
        "at": None,
    }
    if state.closed:
        return {**out, "phase": "over"}
    for r, (opens, closes) in enumerate(state.slots):
        if now < opens:
            phase = "lobby" if r == 0 else "pause"
            return {**out, "phase": phase, "round": r, "at": opens.isoformat()}
        if now < closes and r >= state.slots_closed:
            return {**out, "phase": "playing", "round": r, "at": closes.isoformat()}
    return {**out, "phase": "closing"}


def public(state: LiveState) -> bool:
    """Anyone may see it (no read of who may, ``permissions.may_see_tournament``)."""
    return state.access == Access.PUBLIC
