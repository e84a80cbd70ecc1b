"""What fair play shows (docs/rules.md, "Fair play"): a tournament's flagged entries for
its organizers' review, the reasons an entry is under review for the standings, and an
account's flags across clubs, its linked accounts and its bar for staff. Reads only."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from django.contrib.auth.models import User
from django.db.models import Count, Max
from django.utils.translation import get_language

from tournaments.models import Entry, EntryFlag, PlayBar, PlayCheck, Sighting, Tournament
from tournaments.presentation.fairplay import flag_lines

#: Flags and accounts a staff page lists at most.
STAFF_LIMIT = 200

#: The audit's reason, as a flag's (``Entry.AuditStatus.MISMATCH``).
AUDIT_REASON = (
    "de herhaling van het spel wijkt af van de opgeslagen scores",
    "the replay of the game differs from the stored scores",
)


#: The audit's reason in a few words (what everyone sees).
AUDIT_KIND = ("replay-audit", "replay audit")


@dataclass(frozen=True)
class FlagView:
    """A flag with its reason and evidence in the page's language."""

    flag: EntryFlag
    reason: str
    lines: list[str]


@dataclass
class ReviewEntry:
    """A flagged entry and its flags, oldest first; ``play_check``: the check of its play
    after the close (``services.playcheck``), when there is one."""

    entry: Entry
    flags: list[FlagView] = field(default_factory=list)
    play_check: PlayCheck | None = None


def _views(flags: Iterable[EntryFlag], language: str) -> dict[int, ReviewEntry]:
    out: dict[int, ReviewEntry] = {}
    for f in flags:
        review = out.setdefault(f.entry_id, ReviewEntry(entry=f.entry))
        review.flags.append(
            FlagView(
                flag=f,
                reason=f.reason_in(language),
                lines=flag_lines(kind=f.kind, evidence=f.evidence, language=language),
            )
        )
    return out


def flagged_entries(*, tournament: Tournament, language: str) -> list[ReviewEntry]:
    """The tournament's entries with a fair-play flag: those under review first, then
    the decided ones, each by the time of its first flag."""
    flags = (
        EntryFlag.objects.filter(entry__tournament=tournament)
        .select_related("entry__user", "entry__fair_play_decided_by")
        .order_by("created_at", "id")
    )
    reviews = list(_views(flags, language).values())
    checks = PlayCheck.objects.in_bulk([r.entry.pk for r in reviews], field_name="entry_id")
    for review in reviews:
        review.play_check = checks.get(review.entry.pk)
    return sorted(reviews, key=lambda r: r.entry.fair_play != Entry.FairPlay.UNDER_REVIEW)


def review_reasons(*, entry_ids: Iterable[int], full: bool) -> dict[int, list[dict[str, str]]]:
    """Why each of these entries is under review, a reason each (``kind``: audit,
    linked or play; ``reason``: in the active language): with ``full`` the flag's own
    words (the organizers', who see the linked account), else the kind's name only."""
    language = get_language() or "nl"
    ids = list(entry_ids)
    out: dict[int, list[dict[str, str]]] = defaultdict(list)
    mismatched = Entry.objects.filter(pk__in=ids, audit_status=Entry.AuditStatus.MISMATCH)
    for entry_id in mismatched.values_list("pk", flat=True):
        nl, en = AUDIT_REASON if full else AUDIT_KIND
        out[entry_id].append({"kind": "audit", "reason": en if language.startswith("en") else nl})
    flags = EntryFlag.objects.filter(
        entry_id__in=ids, entry__fair_play=Entry.FairPlay.UNDER_REVIEW
    ).order_by("created_at", "id")
    for f in flags:
        reason = f.reason_in(language) if full else str(EntryFlag.Kind(f.kind).label)
        out[f.entry_id].append({"kind": f.kind, "reason": reason})
    return dict(out)


@dataclass(frozen=True)
class FlaggedAccount:
    user_id: int
    username: str
    flags: int
    last: datetime
    barred: bool


def flagged_accounts(*, limit: int = STAFF_LIMIT) -> list[FlaggedAccount]:
    """The accounts with fair-play flags, in any club, the latest flagged first."""
    rows = (
        EntryFlag.objects.values("entry__user_id", "entry__user__username")
        .annotate(flags=Count("id"), last=Max("created_at"))
        .order_by("-last")[:limit]
    )
    barred = set(PlayBar.objects.filter(lifted_at__isnull=True).values_list("user_id", flat=True))
    return [
        FlaggedAccount(
            user_id=r["entry__user_id"],
            username=r["entry__user__username"],
            flags=r["flags"],
            last=r["last"],
            barred=r["entry__user_id"] in barred,
        )
        for r in rows
    ]


def account_reviews(*, user: User, language: str) -> list[ReviewEntry]:
    """An account's flagged entries across every club, the latest first."""
    flags = (
        EntryFlag.objects.filter(entry__user=user)
        .select_related("entry__user", "entry__tournament__club", "entry__fair_play_decided_by")
        .order_by("created_at", "id")[:STAFF_LIMIT]
    )
    reviews = list(_views(flags, language).values())
    return sorted(reviews, key=lambda r: r.flags[-1].flag.created_at, reverse=True)


@dataclass(frozen=True)
class LinkedAccount:
    username: str
    devices: int
    last_seen: datetime


def linked_accounts(*, user: User) -> list[LinkedAccount]:
    """The accounts seen on a device this account used (the sightings kept)."""
    devices = Sighting.objects.filter(user=user).values("device")
    rows = (
        Sighting.objects.filter(device__in=devices)
        .exclude(user=user)
        .values("user__username")
        .annotate(devices=Count("device", distinct=True), last=Max("created_at"))
        .order_by("-last")[:STAFF_LIMIT]
    )
    return [
        LinkedAccount(username=r["user__username"], devices=r["devices"], last_seen=r["last"])
        for r in rows
    ]


def account_bars(*, user: User) -> list[PlayBar]:
    """An account's bars from rated play, the active one first."""
    return list(PlayBar.objects.filter(user=user).select_related("lifted_by"))
