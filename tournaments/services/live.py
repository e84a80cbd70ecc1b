"""A live club evening (docs/rules.md §7, "Live club evening (clubavond)"): every round is
played by everyone in its slot. The schedule of the slots, the close of a slot (the bot
plays what is left of the round in the entrant's seat, and that round does not count
for them), and the status every open page polls, kept in the cache.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import jobs
from tournaments.errors import InvalidSettings
from tournaments.models import Game, Tournament
from tournaments.selectors.live import live_state_key
from tournaments.services import closing
from tournaments.services.play import games_bot_finish_rounds
from tournaments.services.results import games_results_write

#: The bounds of a slot's length and of the pause between two slots, in minutes.
SLOT_MINUTES = (1, 180)
PAUSE_MINUTES = (0, 120)

#: Games the bot finishes in one transaction at a slot's close.
SLOT_CLOSE_BATCH = 50


def live_schedule(
    *, start: datetime, rounds: int, slot_minutes: Sequence[int], pause_minutes: int
) -> list[list[str]]:
    """The slots of a live evening: round 0 opens at ``start``; round r lasts
    ``slot_minutes[r]`` minutes (the last length for the rounds beyond the list), and the
    next opens ``pause_minutes`` after it closes. Each slot as its opening and closing time
    (ISO 8601, UTC), what ``Tournament.live_slots`` keeps."""
    if not slot_minutes or rounds < 1:
        raise InvalidSettings.of(_("A live evening needs the length of its rounds."))
    low, high = SLOT_MINUTES
    if any(not low <= m <= high for m in slot_minutes):
        raise InvalidSettings.of(
            _("A round's slot lasts %(low)s to %(high)s minutes."), low=low, high=high
        )
    if not PAUSE_MINUTES[0] <= pause_minutes <= PAUSE_MINUTES[1]:
        raise InvalidSettings.of(
            _("The pause between rounds lasts %(low)s to %(high)s minutes."),
            low=PAUSE_MINUTES[0],
            high=PAUSE_MINUTES[1],
        )
    slots = []
    opens = start.astimezone(UTC)
    for r in range(rounds):
        closes = opens + timedelta(minutes=slot_minutes[min(r, len(slot_minutes) - 1)])
        slots.append([opens.isoformat(), closes.isoformat()])
        opens = closes + timedelta(minutes=pause_minutes)
    return slots


def live_window(*, opens_at: datetime, slots: Sequence[Sequence[str]]) -> tuple[datetime, datetime]:
    """The tournament's window of a live evening: entries from ``opens_at`` (at the
    latest the first round's start), play until the last slot closes (its close is the
    tournament's close)."""
    first = datetime.fromisoformat(slots[0][0])
    last = datetime.fromisoformat(slots[-1][1])
    if opens_at > first:
        raise InvalidSettings.of(_("Entries must open before the first round starts."))
    return opens_at, last


def _closable(t: Tournament, now: datetime) -> int:
    """How many slots of ``t`` are closed once every slot whose time has passed is."""
    closed = t.live_slots_closed
    while closed < len(t.live_slots) and t.live_slot(closed)[1] <= now:
        closed += 1
    return closed


def live_slots_due(*, now: datetime | None = None) -> list[int]:
    """Ids of the live evenings, not closed, with a slot whose time has passed and that is
    not closed yet, or with a game still in a closed slot's round (a slot close that
    stopped half way: it is carried on)."""
    now = now or timezone.now()
    due = []
    for t in Tournament.objects.filter(live=True, closed_at__isnull=True).only(
        "pk", "live", "live_slots", "live_slots_closed", "rounds"
    ):
        if cache.get(_claim_key(t.pk)) is not None:
            continue
        if _closable(t, now) > t.live_slots_closed or (
            t.live_slots_closed
            and Game.objects.filter(
                entry__tournament_id=t.pk,
                status=Game.Status.PLAYING,
                round_index__lt=t.live_slots_closed,
            ).exists()
        ):
            due.append(t.pk)
    return due


def live_closes_due(*, now: datetime | None = None) -> list[int]:
    """Queue the close of every live evening whose last slot has been closed (at most
    once a minute each, ``closing.tournament_close_if_due``): within beat's few seconds
    of its board rather than the close's minute (which still closes one whose last slot
    was not closed, ``closing.tournaments_due``). The ids queued."""
    now = now or timezone.now()
    queued = []
    for t in Tournament.objects.filter(live=True, closed_at__isnull=True, closes_at__lte=now):
        if t.live_slots_closed < len(t.live_slots):
            continue
        if closing.tournament_close_if_due(tournament=t):
            queued.append(t.pk)
    return queued


#: How long before a live evening's first round its entrants get the reminder.
REMINDER_BEFORE = timedelta(hours=1)


def live_reminders_due(*, now: datetime | None = None) -> list[int]:
    """The live evenings whose first round opens within ``REMINDER_BEFORE`` and whose
    reminder has not been queued: each is marked reminded and its reminder mail queued
    after the commit (``tasks.live_reminder_mail``, which mails the entrants with a
    verified address, ``services.mail``). The ids queued."""
    now = now or timezone.now()
    queued = []
    candidates = Tournament.objects.filter(
        live=True, closed_at__isnull=True, live_reminded_at__isnull=True
    ).values_list("pk", flat=True)
    for pk in candidates:
        with transaction.atomic():
            t = Tournament.objects.select_for_update().get(pk=pk)
            if t.live_reminded_at is not None or not t.live_slots:
                continue
            opens = t.live_slot(0)[0]
            if not now < opens <= now + REMINDER_BEFORE:
                continue
            t.live_reminded_at = now
            t.save(update_fields=["live_reminded_at"])
            jobs.task_on_commit("live_reminder_mail", t.pk)
            queued.append(t.pk)
    return queued


def _claim_key(tournament_id: int) -> str:
    return f"live-slot-close:{tournament_id}"


def live_slot_close(*, tournament_id: int, now: datetime | None = None) -> int:
    """Close every slot of a live evening whose time has passed: from then on nobody
    moves in its round
    (``Tournament.live_round_open``), and every game still in such a round is played by
    the bot in the entrant's seat to that round's end, as the close does
    (``games_bot_finish_rounds``), then the next round is dealt and its bots play up to
    the entrant's turn (after the last round the game is over). Those rounds never count
    for the entrant. The last slot's board comes so too, before the tournament's close
    (``live_closes_due``: the audit, the secret, the final standings). The entries' results
    are written again and every open page learns of it (``live_status_forget``). Safe to
    repeat; one at a time per evening (a second, queued while the first runs, does
    nothing). The number of games the bot played on."""
    if not cache.add(_claim_key(tournament_id), 1, 120):
        return 0
    try:
        return _slot_close(tournament_id, now)
    finally:
        cache.delete(_claim_key(tournament_id))


def _slot_close(tournament_id: int, now: datetime | None) -> int:
    with transaction.atomic():
        # FOR UPDATE waits for every move holding the tournament (services.play): no
        # move of a closed slot's round commits after this.
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not t.live or t.closed_at is not None:
            return 0
        closed = _closable(t, now or timezone.now())
        if closed > t.live_slots_closed:
            t.live_slots_closed = closed
            t.save(update_fields=["live_slots_closed", "updated_at"])
    ids = list(
        Game.objects.filter(
            entry__tournament_id=tournament_id,
            status=Game.Status.PLAYING,
            round_index__lt=t.live_slots_closed,
        )
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    for i in range(0, len(ids), SLOT_CLOSE_BATCH):
        games_bot_finish_rounds(
            ids[i : i + SLOT_CLOSE_BATCH], through_round=t.live_slots_closed - 1
        )
    games_results_write(tournament=t, game_ids=ids)
    live_status_forget(tournament_id=t.pk)
    return len(ids)


def live_status_forget(*, tournament_id: int) -> None:
    """A live evening's schedule or state changed (a slot's close, the close, created,
    edited): every page reads it again (``selectors.live.live_state``), now and once the
    change commits."""
    cache.delete(live_state_key(tournament_id))
    transaction.on_commit(lambda: cache.delete(live_state_key(tournament_id)))
