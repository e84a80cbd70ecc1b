"""Clubs: recurring tournaments (series), their season ranking, and bot accounts.

A series holds every setting of a tournament plus a schedule in ``SERIES_TIMEZONE``
(Europe/Amsterdam, daylight saving through ``zoneinfo``): daily at a time, or weekly on
chosen days at that time, each edition open for ``window_minutes``. Celery beat calls
``series_editions_create_due`` every minute; it creates the edition of every occurrence
whose opening time has come and whose window has not ended yet, each with a fresh secret
and commitment (``tournament_services.tournament_create``). A unique constraint on
(series, opens_at) makes it idempotent: a restarted or doubled beat never creates an
edition twice. An occurrence whose whole window passed while no beat ran is skipped.

Wall-clock rules (docs/rules.md, clubs): a time that does not exist on the spring-forward
day (02:30 on the last Sunday of March) opens an hour later by the clock (03:30 CEST, the
same instant as 02:30 CET); a time that occurs twice on the fall-back day opens at the
first of the two (summer time).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import jobs
from tournaments.errors import InvalidSettings, NotABot, ServiceError
from tournaments.games import module_of
from tournaments.models import MAX_BEST_K, Access, Account, Club, Series, Tournament
from tournaments.selectors import standings as standing_selectors
from tournaments.services import checks as check_services
from tournaments.services import tournaments as tournament_services

logger = logging.getLogger(__name__)

SERIES_TIMEZONE = ZoneInfo("Europe/Amsterdam")
#: How far back the beat looks for an occurrence whose window is still open.
MAX_WINDOW = timedelta(days=7)


# --- Schedule ---------------------------------------------------------------------------


def local_start(day: date, at: time) -> datetime:
    """The instant (UTC) of wall-clock ``at`` on ``day`` in Amsterdam. A time skipped by
    the spring-forward gap is read with the offset before the change (fold 0: 02:30 is
    03:30 CEST); a time that occurs twice is the first one (fold 0: summer time)."""
    naive = datetime.combine(day, at)
    aware = naive.replace(tzinfo=SERIES_TIMEZONE, fold=0)
    return aware.astimezone(ZoneInfo("UTC"))


def _runs_on(series: Series, day: date) -> bool:
    if day < series.starts_on or (series.ends_on is not None and day > series.ends_on):
        return False
    if series.kind == Series.Kind.DAILY:
        return True
    return day.weekday() in set(series.weekdays)


def occurrences(series: Series, *, start: datetime, end: datetime) -> Iterator[datetime]:
    """The opening instants (UTC) of the series' editions in ``[start, end)``, in order."""
    day = start.astimezone(SERIES_TIMEZONE).date() - timedelta(days=1)
    last = end.astimezone(SERIES_TIMEZONE).date() + timedelta(days=1)
    while day <= last:
        if _runs_on(series, day):
            at = local_start(day, series.time_of_day)
            if start <= at < end:
                yield at
        day += timedelta(days=1)


def coming(series: Series, *, now: datetime | None = None, count: int = 5) -> list[datetime]:
    """The next ``count`` opening instants after ``now`` (not created yet)."""
    now = now or timezone.now()
    out: list[datetime] = []
    horizon = now
    while len(out) < count and horizon - now < timedelta(days=400):
        out.extend(occurrences(series, start=horizon, end=horizon + timedelta(days=31)))
        horizon += timedelta(days=31)
    return [at for at in out if at > now][:count]


# --- Series and editions ----------------------------------------------------------------

_WEEKDAYS = range(7)


def series_create(
    *,
    created_by: User,
    club: Club,
    access: str = Access.PUBLIC,
    name: str,
    game: str,
    preset: str,
    variant: Mapping[str, Any] | None = None,
    rounds: int = 8,
    max_entrants: int = 10,
    bot_level: str | None = None,
    admits_bots: bool = True,
    kind: str,
    weekdays: Sequence[int] = (),
    time_of_day: time,
    window_minutes: int,
    starts_on: date,
    ends_on: date | None = None,
    best_k: int = 10,
) -> Series:
    """A new series of ``club``; the beat creates its editions (and at once, after the
    commit, one that is due now), each of the series' club and with its ``access``."""
    tournament_services.check_access(access)
    checked = check_services.game_settings_check(
        game=game,
        preset=preset,
        variant=variant,
        rounds=rounds,
        max_entrants=max_entrants,
        bot_level=bot_level,
    )
    if kind not in Series.Kind.values:
        raise InvalidSettings.of(_("Unknown schedule: %(kind)s."), kind=kind)
    days = sorted(set(weekdays))
    if kind == Series.Kind.WEEKLY and (not days or any(d not in _WEEKDAYS for d in days)):
        raise InvalidSettings.of(_("A weekly series needs at least one weekday."))
    if window_minutes < 1 or timedelta(minutes=window_minutes) > MAX_WINDOW:
        raise InvalidSettings.of(_("An edition is open between 1 minute and 7 days."))
    if not 1 <= best_k <= MAX_BEST_K:
        raise InvalidSettings.of(
            _("The season counts between 1 and %(max)s editions."), max=MAX_BEST_K
        )
    if ends_on is not None and ends_on < starts_on:
        raise InvalidSettings.of(_("The last day must not be before the first day."))
    check_services.check_moment(local_start(starts_on, time_of_day))
    if ends_on is not None:
        check_services.check_moment(local_start(ends_on, time_of_day))
    with transaction.atomic():
        series = Series.objects.create(
            name=name,
            game=game,
            preset=preset,
            variant=checked.variant,
            rounds=rounds,
            max_entrants=max_entrants,
            bot_level=checked.bot_level,
            admits_bots=admits_bots,
            kind=kind,
            weekdays=days if kind == Series.Kind.WEEKLY else [],
            time_of_day=time_of_day,
            window_minutes=window_minutes,
            starts_on=starts_on,
            ends_on=ends_on,
            best_k=best_k,
            created_by=created_by,
            club=club,
            access=access,
        )
        jobs.task_on_commit("series_editions_create_due")
    return series


def edition_name(series: Series, opens_at: datetime) -> str:
    local = opens_at.astimezone(SERIES_TIMEZONE)
    return f"{series.name} {local:%Y-%m-%d %H:%M}"


def series_edition_create(*, series: Series, opens_at: datetime) -> Tournament | None:
    """The edition of ``series`` opening at ``opens_at``, with a fresh secret; ``None``
    when it exists already (the unique constraint decides, also between two beats)."""
    if Tournament.objects.filter(series=series, opens_at=opens_at).exists():
        return None
    try:
        with transaction.atomic():
            t = tournament_services.tournament_create(
                created_by=series.created_by,
                club=series.club,
                access=series.access,
                name=edition_name(series, opens_at),
                game=series.game,
                preset=series.preset,
                variant=series.variant,
                rounds=series.rounds,
                max_entrants=series.max_entrants,
                bot_level=series.bot_level,
                admits_bots=series.admits_bots,
                opens_at=opens_at,
                closes_at=opens_at + timedelta(minutes=series.window_minutes),
                series=series,
            )
            # tell the players of the earlier editions (services.mail)
            jobs.task_on_commit("series_edition_mail", t.pk)
    except IntegrityError:
        return None
    return t


def series_editions_create_due(*, now: datetime | None = None) -> list[int]:
    """Create every edition whose opening time has come and whose window is still open;
    the ids of those created now (none when they exist already)."""
    now = now or timezone.now()
    created: list[int] = []
    for series in Series.objects.select_related("created_by", "club"):
        window = timedelta(minutes=series.window_minutes)
        for at in occurrences(series, start=now - window, end=now + timedelta(seconds=1)):
            if at + window <= now:
                continue
            try:
                t = series_edition_create(series=series, opens_at=at)
            except ServiceError:
                # Settings that no longer pass (say an edition closing after 2100): that
                # edition is not created; the other series still get theirs.
                logger.exception("series %s: edition at %s not created", series.pk, at)
                continue
            if t is not None:
                created.append(t.pk)
    return created


# --- Season -----------------------------------------------------------------------------


@dataclass(frozen=True)
class EditionResult:
    tournament_id: int
    name: str
    result: float | None
    rank: int | None
    #: Counts for the season: ranked, every round played by the entrant themselves.
    counts: bool


@dataclass(frozen=True)
class SeasonRow:
    rank: int | None
    user_id: int
    username: str
    is_bot: bool
    played: int
    counted: int
    total: float | None
    best: tuple[float, ...]
    editions: tuple[EditionResult, ...]
    poedel: bool = False


@dataclass(frozen=True)
class Season:
    series: Series
    editions: list[Tournament]
    rows: list[SeasonRow]
    lower_is_better: bool


def bot_user_ids(user_ids: Sequence[int]) -> set[int]:
    """The ids among ``user_ids`` of bot accounts."""
    return set(
        Account.objects.filter(user_id__in=list(user_ids), is_bot=True).values_list(
            "user_id", flat=True
        )
    )


def season_standings(*, series: Series) -> Season:
    """The season ranking of a series over its closed editions (docs/rules.md, clubs).

    An edition counts for an entrant when the tournament ranked the entry (not under
    review) over all its rounds, every one played by the entrant (a round the bot played
    in the entrant's seat never counts, as in the tournament, so such an edition is
    played but not counted). The season result is the sum of the entrant's best ``k``
    counted results (best as the game ranks: lower for Jokeren, higher for Klaverjassen).
    Entrants with ``k`` counted editions rank first by that sum, equal sums sharing a
    rank ("1, 2, 2, 4"); then those with fewer, more counted editions first, then by sum;
    without any counted edition unranked. The poedel is the last ranked place (every
    entrant sharing it)."""
    module = module_of(series.game)
    lower = module.LOWER_IS_BETTER
    editions = list(series.editions.filter(closed_at__isnull=False).order_by("opens_at", "id"))
    per_user: dict[int, list[EditionResult]] = {}
    names: dict[int, str] = {}
    for t in editions:
        for s in standing_selectors.standings(tournament=t):
            counts = (
                s.rank is not None
                and not s.under_review
                and s.rounds_counted == t.rounds
                and s.result is not None
            )
            per_user.setdefault(s.user_id, []).append(
                EditionResult(
                    tournament_id=t.pk, name=t.name, result=s.result, rank=s.rank, counts=counts
                )
            )
            names[s.user_id] = s.username
    bots = bot_user_ids(list(per_user))
    k = series.best_k
    users = sorted(per_user, key=lambda u: names[u].lower())
    bests: list[tuple[float, ...]] = []
    for u in users:
        results = sorted(
            (float(e.result) for e in per_user[u] if e.counts and e.result is not None),
            reverse=not lower,
        )
        bests.append(tuple(results[:k]))
    sums = [round(sum(b), 9) if b else None for b in bests]
    tiers = [(0, 0) if len(b) >= k else (1, -len(b)) for b in bests]
    ranks = standing_selectors.rank_values(sums, lower_is_better=lower, tiers=tiers)
    last = max((r for r in ranks if r is not None), default=None)
    rows = [
        SeasonRow(
            rank=rank,
            user_id=u,
            username=names[u],
            is_bot=u in bots,
            played=len(per_user[u]),
            counted=sum(1 for e in per_user[u] if e.counts),
            total=total,
            best=best,
            editions=tuple(per_user[u]),
            poedel=rank is not None and last is not None and rank == last and last > 1,
        )
        for u, best, total, rank in zip(users, bests, sums, ranks, strict=True)
    ]
    rows.sort(key=lambda r: (r.rank is None, r.rank or 0, -r.played, r.username.lower()))
    return Season(series=series, editions=editions, rows=rows, lower_is_better=lower)


# --- Bot accounts -----------------------------------------------------------------------


def account_mark_bot(*, user: User) -> Account:
    """Mark ``user`` as a bot account, for good (lichess's rule: only an account that has
    not played yet). Refused once the user has entered a tournament."""
    with transaction.atomic():
        account, _created = Account.objects.select_for_update().get_or_create(user=user)
        if account.is_bot:
            return account
        if user.entries.exists():
            raise NotABot.of(
                _("Only an account that has not entered a tournament can become a bot account.")
            )
        account.is_bot = True
        account.save(update_fields=["is_bot"])
    return account
