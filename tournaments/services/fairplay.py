"""Fair play (docs/rules.md, "Fair play"): flags that put an entry under review, the
organizer's decision on it, the bar from rated play, and the devices seen at log-ins and
entries that link two accounts.

- ``entry_flag``: an entry flagged (``EntryFlag``; ``kind`` linked or play) goes under
  review: provisional, listed apart from the ranking and rated by nobody, until an
  organizer decides.
- ``entry_review_clear``: it is ranked again. ``entry_review_disqualify``: it is out of
  the standings and the ratings, its entrant is told by mail, and an account disqualified
  twice (since a bar was last lifted) is barred from rated play (``PlayBar``) until staff
  lift the bar (``play_bar_lift``).
- ``sighting_record``: a log-in or an entry seen from a device (``Sighting``, kept
  ``SIGHTINGS_KEPT_DAYS`` days, ``sightings_purge``); two accounts seen on one device are
  linked, and when linked accounts enter the same tournament, or editions of one series,
  both entries are flagged (``links_check``, also run at the close: ``tournament_links_check``).
  A network shared alone links nobody.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from common.device import Device
from tournaments import jobs
from tournaments.errors import AlreadyDecided, PlayBarred
from tournaments.models import Entry, EntryFlag, MailKind, PlayBar, Sighting, Tournament
from tournaments.services.mail import site_url
from tournaments.services.results import entry_results_remove, entry_results_update

#: How long a sighting is kept (days): then ``sightings_purge`` deletes it.
SIGHTINGS_KEPT_DAYS = 180
#: Disqualifications (since the last lifted bar) that bar an account from rated play.
BAR_AFTER = 2
#: The most sightings of each account an entry's linked evidence quotes.
EVIDENCE_SIGHTINGS = 5

#: A reason in words as data: the Dutch and the English text.
Reason = tuple[str, str]


def _ratings_follow(t: Tournament) -> None:
    """A closed tournament's final standings changed: its game's ratings are applied
    again (docs/rules.md, "Ratings")."""
    if t.closed_at is not None:
        jobs.task_on_commit("ratings_recompute", t.game)


def _results_follow(entry: Entry) -> None:
    """The entry's rows on the boards follow its fair-play state (under review: listed
    apart; disqualified: gone)."""
    if entry.fair_play == Entry.FairPlay.DISQUALIFIED:
        entry_results_remove(entry=entry)
    else:
        game = getattr(entry, "game", None)
        if game is not None:
            entry_results_update(game=game)
    _ratings_follow(entry.tournament)


def entry_flag(
    *,
    entry: Entry,
    kind: EntryFlag.Kind | str,
    reason: Reason,
    evidence: Mapping[str, Any] | None = None,
    key: str = "",
) -> EntryFlag | None:
    """Flag ``entry`` (``kind``: linked or play) with ``reason``, a ``(nl, en)`` pair of
    words, and its ``evidence`` (JSON); ``key`` tells this flag from others of its kind on
    the entry. The entry goes under review unless it is disqualified already; one an
    organizer cleared goes under review again (a new flag is new evidence). ``None`` when
    the entry carries this flag (kind and key) already: nothing changes."""
    kind = EntryFlag.Kind(kind)
    nl, en = reason
    with transaction.atomic():
        locked = Entry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)
        flag, created = EntryFlag.objects.get_or_create(
            entry=locked,
            kind=kind,
            key=key[:80],
            defaults={"reason": [str(nl), str(en)], "evidence": dict(evidence or {})},
        )
        if not created:
            return None
        if locked.fair_play in (Entry.FairPlay.OK, Entry.FairPlay.CLEARED):
            locked.fair_play = Entry.FairPlay.UNDER_REVIEW
            locked.save(update_fields=["fair_play"])
            _results_follow(locked)
    entry.fair_play = locked.fair_play
    return flag


def _decide(
    entry: Entry, by: User, status: Entry.FairPlay, allowed: Sequence[Entry.FairPlay]
) -> Entry:
    """Set the entry's fair-play state from one of ``allowed`` to ``status``, kept with
    who decided and when; its results and ratings follow."""
    with transaction.atomic():
        locked = Entry.objects.select_for_update().select_related("tournament").get(pk=entry.pk)
        if locked.fair_play not in allowed:
            raise AlreadyDecided.of(_("This entry is not under review for fair play."))
        locked.fair_play = status
        locked.fair_play_decided_by = by
        locked.fair_play_decided_at = timezone.now()
        locked.save(update_fields=["fair_play", "fair_play_decided_by", "fair_play_decided_at"])
        _results_follow(locked)
    return locked


def entry_review_clear(*, entry: Entry, by: User) -> Entry:
    """An organizer clears an entry under fair-play review, or one disqualified before
    (an objection upheld): it is ranked again and counts for the ratings. A bar its
    disqualification brought stays until staff lift it. Raises ``AlreadyDecided`` (409)
    when it is neither."""
    return _decide(
        entry,
        by,
        Entry.FairPlay.CLEARED,
        (Entry.FairPlay.UNDER_REVIEW, Entry.FairPlay.DISQUALIFIED),
    )


def entry_review_disqualify(*, entry: Entry, by: User) -> Entry:
    """An organizer disqualifies an entry under fair-play review: out of the standings
    and the ratings; the entrant is told by mail; a second disqualification since the
    account's last lifted bar bars it from rated play. Raises ``AlreadyDecided`` (409)
    when it is not under review."""
    with transaction.atomic():
        decided = _decide(entry, by, Entry.FairPlay.DISQUALIFIED, (Entry.FairPlay.UNDER_REVIEW,))
        bar = _bar_if_due(decided.user_id)
        t = decided.tournament
        reasons = [f.reason for f in EntryFlag.objects.filter(entry=decided)]
        context = {
            "tournament": t.name,
            "url": site_url(t.get_absolute_url()),
            "reasons_nl": [r[0] for r in reasons],
            "reasons_en": [r[1] for r in reasons],
            "barred": bar is not None,
        }
        jobs.task_on_commit(
            "mail_send", MailKind.FAIRPLAY.value, decided.user_id, decided.pk, context
        )
    return decided


def _bar_if_due(user_id: int) -> PlayBar | None:
    """Bar the account when it has ``BAR_AFTER`` disqualified entries decided since its
    last lifted bar (and no bar is active)."""
    if PlayBar.objects.filter(user_id=user_id, lifted_at__isnull=True).exists():
        return None
    last = (
        PlayBar.objects.filter(user_id=user_id, lifted_at__isnull=False)
        .order_by("-lifted_at")
        .values_list("lifted_at", flat=True)
        .first()
    )
    disqualified = Entry.objects.filter(user_id=user_id, fair_play=Entry.FairPlay.DISQUALIFIED)
    if last is not None:
        disqualified = disqualified.filter(fair_play_decided_at__gt=last)
    ids = list(disqualified.order_by("pk").values_list("pk", flat=True))
    if len(ids) < BAR_AFTER:
        return None
    return PlayBar.objects.create(user_id=user_id, entries=ids)


def play_barred(*, user: User) -> bool:
    """Whether ``user`` is barred from rated play (an active ``PlayBar``)."""
    return PlayBar.objects.filter(user=user, lifted_at__isnull=True).exists()


def check_not_barred(*, user: User) -> None:
    """Raise ``PlayBarred`` (403) for an account barred from rated play: every tournament
    is rated, so it may not enter one."""
    if play_barred(user=user):
        raise PlayBarred.of(
            _(
                "Your account is barred from rated play after two disqualifications,"
                " until staff lift the bar."
            )
        )


def play_bar_lift(*, account: User, by: User) -> PlayBar:
    """Staff lift ``account``'s bar from rated play, kept with who and when. Raises
    ``AlreadyDecided`` (409) when it is not barred."""
    with transaction.atomic():
        bar = (
            PlayBar.objects.select_for_update().filter(user=account, lifted_at__isnull=True).first()
        )
        if bar is None:
            raise AlreadyDecided.of(_("This account is not barred."))
        bar.lifted_at = timezone.now()
        bar.lifted_by = by
        bar.save(update_fields=["lifted_at", "lifted_by"])
    return bar


# --- Devices and linked accounts -------------------------------------------------------------


def sighting_record(
    *, user: User, device: Device | None, kind: Sighting.Kind | str, entry: Entry | None = None
) -> Sighting | None:
    """Keep a log-in or an entry of ``user`` seen from ``device``, then flag the entries
    of accounts it links (``links_check``). Nothing without a device the browser brought
    (a client that keeps no cookie has a new one each time, which links nothing)."""
    if device is None or not device.known:
        return None
    sighting = Sighting.objects.create(
        user=user,
        kind=Sighting.Kind(kind),
        entry=entry,
        device=device.id,
        network=device.network,
        user_agent=device.user_agent,
    )
    links_check(user=user)
    return sighting


def _kept_since() -> Any:
    return timezone.now() - timedelta(days=SIGHTINGS_KEPT_DAYS)


def linked_users(*, users: Iterable[int] | QuerySet[Any, Any]) -> dict[int, dict[int, set[str]]]:
    """Per account of ``users`` (ids, or a query of ids: a whole field, read in the
    database), the other accounts seen on one of its devices within the kept time, each
    with the shared devices. Only devices seen with two accounts or more are read."""
    ids: Any = users if isinstance(users, QuerySet) else list(users)
    kept = Sighting.objects.filter(created_at__gte=_kept_since())
    own = kept.filter(user_id__in=ids).values("device")
    shared = (
        kept.filter(device__in=own)
        .values("device")
        .annotate(accounts=Count("user_id", distinct=True))
        .filter(accounts__gt=1)
        .values("device")
    )
    devices: dict[str, set[int]] = defaultdict(set)
    for user_id, device in (
        kept.filter(device__in=shared).values_list("user_id", "device").distinct()
    ):
        devices[device].add(user_id)
    if not devices:
        return {}
    mine = set(
        kept.filter(device__in=list(devices), user_id__in=ids).values_list("user_id", flat=True)
    )
    out: dict[int, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for device, seen in devices.items():
        for a in seen & mine:
            for b in seen - {a}:
                out[a][b].add(device)
    return {a: dict(links) for a, links in out.items()}


def _evidence(a: Entry, b: Entry, devices: set[str]) -> dict[str, Any]:
    """What links ``a``'s account to ``b``'s: the shared devices and the sightings of both
    on them (when, what, the network and the browser)."""
    seen = (
        Sighting.objects.filter(
            user_id__in=[a.user_id, b.user_id],
            device__in=sorted(devices),
            created_at__gte=_kept_since(),
        )
        .select_related("user")
        .order_by("-created_at")
    )
    per_user: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for s in seen:
        if len(per_user[s.user_id]) < EVIDENCE_SIGHTINGS:
            per_user[s.user_id].append(
                {
                    "user": s.user.get_username(),
                    "kind": s.kind,
                    "at": s.created_at.isoformat(),
                    "device": s.device[:8],
                    "network": s.network,
                    "user_agent": s.user_agent,
                }
            )
    return {
        "linked_entry": b.pk,
        "linked_user": b.user.get_username(),
        "linked_tournament": b.tournament_id,
        "linked_tournament_name": b.tournament.name,
        "devices": sorted(d[:8] for d in devices),
        "sightings": per_user[a.user_id] + per_user[b.user_id],
    }


def linked_reason(other: Entry) -> Reason:
    """The reason of a linked flag: "linked to <entry>", in Dutch and English."""
    who = other.user.get_username()
    where = other.tournament.name
    return (
        f"gekoppeld aan de inschrijving van {who} in {where} (zelfde apparaat)",
        f"linked to the entry of {who} in {where} (same device)",
    )


def _flag_pair(a: Entry, b: Entry, devices: set[str]) -> int:
    """Flag both entries of a linked pair, each with the other as its reason."""
    flagged = 0
    for this, other in ((a, b), (b, a)):
        flag = entry_flag(
            entry=this,
            kind=EntryFlag.Kind.LINKED,
            reason=linked_reason(other),
            evidence=_evidence(this, other, devices),
            key=f"entry:{other.pk}",
        )
        flagged += flag is not None
    return flagged


def _entries_of(user_ids: Iterable[int], q: Q) -> list[Entry]:
    return list(
        Entry.objects.filter(q, user_id__in=list(user_ids))
        .exclude(fair_play=Entry.FairPlay.DISQUALIFIED)
        .select_related("tournament", "user")
    )


def _pairs(entries: Sequence[Entry], links: Mapping[int, Mapping[int, set[str]]]) -> int:
    """Flag every pair of these entries of linked accounts in one tournament or in
    editions of one series."""
    by_place: dict[tuple[str, int], list[Entry]] = defaultdict(list)
    for e in entries:
        by_place[("t", e.tournament_id)].append(e)
        if e.tournament.series_id is not None:
            by_place[("s", e.tournament.series_id)].append(e)
    flagged = 0
    done: set[tuple[int, int]] = set()
    for group in by_place.values():
        for i, a in enumerate(group):
            for b in group[i + 1 :]:
                devices = links.get(a.user_id, {}).get(b.user_id)
                pair = (min(a.pk, b.pk), max(a.pk, b.pk))
                if not devices or a.user_id == b.user_id or pair in done:
                    continue
                done.add(pair)
                flagged += _flag_pair(a, b, devices)
    return flagged


def links_check(*, user: User) -> int:
    """Flag the entries of ``user`` and of each account linked to it (one device) that
    share a tournament or a series (within the kept time). The number of flags added."""
    links = linked_users(users=[user.pk])
    others = set(links.get(user.pk, {}))
    if not others:
        return 0
    every = {user.pk, *others}
    since = _kept_since()
    entries = _entries_of(every, Q(joined_at__gte=since))
    return _pairs(entries, linked_users(users=every))


def tournament_links_check(*, tournament: Tournament) -> int:
    """At the close: flag every pair of the tournament's entries (or of an entry and one
    in another edition of its series) whose accounts are linked. The number of flags
    added."""
    links = linked_users(users=Entry.objects.filter(tournament=tournament).values("user_id"))
    if not links:
        return 0
    every = set(links) | {b for linked in links.values() for b in linked}
    place = Q(tournament=tournament)
    if tournament.series_id is not None:
        place |= Q(tournament__series_id=tournament.series_id)
    entries = _entries_of(every, place)
    return _pairs(entries, linked_users(users=every))


def sightings_purge(*, now: Any = None) -> int:
    """Delete the sightings older than ``SIGHTINGS_KEPT_DAYS`` (beat, hourly). The number
    deleted."""
    now = now or timezone.now()
    deleted, _detail = Sighting.objects.filter(
        created_at__lt=now - timedelta(days=SIGHTINGS_KEPT_DAYS)
    ).delete()
    return deleted


def account_fairplay_forget(*, user_id: int) -> int:
    """A deleted account's fair-play data (docs/rules.md, "Fair play", rule 1): its
    sightings, and what the evidence of linked flags (its own entries' and the linked
    accounts') quotes of it: its name and its sightings. The flags and decisions stay,
    on entries that stay. Sent before the account's row is made anonymous (its name is
    still there). The number of sightings deleted."""
    name = User.objects.filter(pk=user_id).values_list("username", flat=True).first()
    deleted, _detail = Sighting.objects.filter(user_id=user_id).delete()
    if name is None:
        return deleted
    quoting = EntryFlag.objects.filter(kind=EntryFlag.Kind.LINKED).filter(
        Q(entry__user_id=user_id) | Q(evidence__linked_user=name)
    )
    for flag in quoting:
        evidence = dict(flag.evidence)
        evidence["sightings"] = [
            seen for seen in evidence.get("sightings", []) if seen.get("user") != name
        ]
        if evidence.get("linked_user") == name:
            evidence["linked_user"] = ""
        flag.evidence = evidence
        flag.save(update_fields=["evidence"])
    return deleted
