"""Series: the Amsterdam schedule (daylight saving), idempotent editions, the season."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

import factories
import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from engine import dealing
from tournaments import series as series_services
from tournaments import tasks
from tournaments.errors import InvalidSettings
from tournaments.forms import SeriesForm
from tournaments.models import MAX_BEST_K, Entry, Series, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services


def _series(organizer: Any, **extra: Any) -> Series:
    kwargs: dict[str, Any] = {
        "created_by": organizer,
        "club": factories.default_club(),
        "name": "Clubavond",
        "game": "jokeren",
        "preset": "jokeren7",
        "rounds": 1,
        "bot_level": "basic",
        "kind": "daily",
        "time_of_day": time(20, 0),
        "window_minutes": 120,
        "starts_on": date(2026, 3, 1),
        "best_k": 2,
    }
    kwargs.update(extra)
    return series_services.series_create(**kwargs)


def utc(*args: int) -> datetime:
    return datetime(*args, tzinfo=UTC)


# --- Schedule -----------------------------------------------------------------------


def test_an_evening_start_is_an_hour_earlier_in_utc_after_the_spring_change() -> None:
    # Summer time starts on Sunday 29 March 2026 at 02:00 (CET +1 -> CEST +2).
    assert series_services.local_start(date(2026, 3, 28), time(20, 0)) == utc(2026, 3, 28, 19)
    assert series_services.local_start(date(2026, 3, 29), time(20, 0)) == utc(2026, 3, 29, 18)
    # ... and ends on Sunday 25 October 2026 at 03:00 (back to +1).
    assert series_services.local_start(date(2026, 10, 24), time(20, 0)) == utc(2026, 10, 24, 18)
    assert series_services.local_start(date(2026, 10, 25), time(20, 0)) == utc(2026, 10, 25, 19)


def test_a_time_in_the_spring_gap_and_a_doubled_autumn_time() -> None:
    # 02:30 does not exist on 29 March: read with the offset before (+1): 01:30 UTC.
    assert series_services.local_start(date(2026, 3, 29), time(2, 30)) == utc(2026, 3, 29, 1, 30)
    # 02:30 happens twice on 25 October: the first (summer time, +2): 00:30 UTC.
    assert series_services.local_start(date(2026, 10, 25), time(2, 30)) == utc(2026, 10, 25, 0, 30)


def test_weekly_occurrences_fall_on_the_chosen_days_only(organizer: Any) -> None:
    s = _series(organizer, kind="weekly", weekdays=[1, 3], starts_on=date(2026, 3, 24))
    got = list(series_services.occurrences(s, start=utc(2026, 3, 23), end=utc(2026, 4, 3)))
    # Tuesday 24 and Thursday 26 March in winter time, 31 March and 2 April in summer time.
    assert got == [
        utc(2026, 3, 24, 19),
        utc(2026, 3, 26, 19),
        utc(2026, 3, 31, 18),
        utc(2026, 4, 2, 18),
    ]


def test_a_weekly_series_needs_a_weekday(organizer: Any) -> None:
    with pytest.raises(InvalidSettings):
        _series(organizer, kind="weekly", weekdays=[])


# --- Editions ------------------------------------------------------------------------


def test_the_beat_creates_the_due_edition_once_with_a_fresh_secret(organizer: Any) -> None:
    s = _series(organizer)
    at = utc(2026, 3, 29, 18, 0, 30)
    created = series_services.series_editions_create_due(now=at)
    assert len(created) == 1
    t = Tournament.objects.get(pk=created[0])
    assert (t.series_id, t.opens_at, t.closes_at) == (
        s.pk,
        utc(2026, 3, 29, 18),
        utc(2026, 3, 29, 20),
    )
    assert t.commitment == dealing.commitment(t.secret_bytes)
    assert (t.game, t.preset, t.rounds, t.bot_level) == ("jokeren", "jokeren7", 1, "basic")
    # A restarted beat, a minute later: nothing new.
    assert series_services.series_editions_create_due(now=at + timedelta(minutes=1)) == []
    # The next day's edition has a secret of its own.
    nxt = series_services.series_editions_create_due(now=utc(2026, 3, 30, 18, 1))
    assert len(nxt) == 1
    assert Tournament.objects.get(pk=nxt[0]).secret_bytes != t.secret_bytes


def test_the_unique_constraint_refuses_a_second_edition_at_the_same_start(
    organizer: Any,
) -> None:
    s = _series(organizer)
    first = series_services.series_edition_create(series=s, opens_at=utc(2026, 3, 29, 18))
    assert first is not None
    assert series_services.series_edition_create(series=s, opens_at=first.opens_at) is None
    with pytest.raises(IntegrityError), transaction.atomic():
        Tournament.objects.create(
            name="dubbel",
            game="jokeren",
            preset="jokeren7",
            variant=first.variant,
            rounds=1,
            bot_level="basic",
            bot_version=first.bot_version,
            opens_at=first.opens_at,
            closes_at=first.closes_at,
            secret=b"\0" * 32,
            commitment="0" * 64,
            created_by=organizer,
            club=s.club,
            series=s,
        )


def test_an_occurrence_whose_window_passed_is_skipped(organizer: Any) -> None:
    _series(organizer)
    assert series_services.series_editions_create_due(now=utc(2026, 3, 29, 20, 0)) == []
    assert series_services.series_editions_create_due(now=utc(2026, 3, 29, 17, 59)) == []


def test_creating_a_series_creates_an_edition_due_now(
    organizer: Any, django_capture_on_commit_callbacks: Any
) -> None:
    now = timezone.now()
    local = now.astimezone(series_services.SERIES_TIMEZONE)
    with django_capture_on_commit_callbacks(execute=True):
        s = _series(
            organizer,
            time_of_day=time(local.hour, local.minute),
            starts_on=local.date(),
        )
    assert s.editions.count() == 1
    assert tasks.series_editions_create_due() == []


# --- Season ----------------------------------------------------------------------------


def _edition(s: Series, minutes_ago: int) -> Tournament:
    s.window_minutes = 24 * 60
    t = series_services.series_edition_create(
        series=s, opens_at=timezone.now() - timedelta(minutes=minutes_ago)
    )
    assert t is not None
    # South plays the round: on a random deal a bot may go out before South ever moves,
    # and the bot's round would not count for the season
    return factories.deals_where_south_plays(t, (0,))


def _finish(t: Tournament, scores: dict[str, list[int]], users: dict[str, Any]) -> None:
    """Close ``t`` with these entrants: a name with scores played its round itself (the
    stored score replaced by the example's after the close), one with ``[]`` entered and
    never played (the bot plays its seat at the close)."""
    games = {n: entry_services.entry_join(tournament_id=t.pk, user=users[n]).game for n in scores}
    for name, round_scores in scores.items():
        if round_scores:
            factories.play_to_end(games[name], users[name])
    closing_services.tournament_close(tournament_id=t.pk)
    for name, round_scores in scores.items():
        if round_scores:
            games[name].refresh_from_db()
            factories.set_rounds(games[name], [round_scores])
            Entry.objects.filter(pk=games[name].entry_id).update(audit_status="ok")
    result_services.standings_refresh(tournament=t)


@pytest.fixture
def season(organizer: Any) -> Series:
    """Three editions of one round (Jokeren: result = own − average of the three others,
    lower is better), k = 2:

    - edition 1: anna 10−30 = −20, bram 40−10 = 30, cees 0
    - edition 2: anna 0, bram 0−30 = −30, dirk 0−60 = −60
    - edition 3: anna entered, the bot played her seat (not counted), bram 0, cees 5−35 = −30
    """
    s = _series(organizer)
    users = {n: factories.make_user(n) for n in ("anna", "bram", "cees", "dirk")}
    _finish(
        _edition(s, 30),
        {"anna": [10, 20, 30, 40], "bram": [40, 10, 10, 10], "cees": [25, 25, 25, 25]},
        users,
    )
    _finish(
        _edition(s, 20),
        {"anna": [30, 30, 30, 30], "bram": [0, 30, 30, 30], "dirk": [0, 60, 60, 60]},
        users,
    )
    _finish(
        _edition(s, 10),
        {"anna": [], "bram": [20, 20, 20, 20], "cees": [5, 35, 35, 35]},
        users,
    )
    return s


def test_the_season_sums_the_best_k_and_ranks_like_the_tournament(season: Series) -> None:
    rows = series_services.season_standings(series=season).rows
    assert [(r.username, r.rank, r.total, r.played, r.counted, r.poedel) for r in rows] == [
        # bram: best two of 30, −30, 0; cees: 0 and −30: equal sums share rank 1
        ("bram", 1, -30.0, 3, 3, False),
        ("cees", 1, -30.0, 2, 2, False),
        # anna: −20 and 0 (edition 3 was the bot's)
        ("anna", 3, -20.0, 3, 2, False),
        # dirk: one counted edition of the two: after every entrant with two, the poedel
        ("dirk", 4, -60.0, 1, 1, True),
    ]
    anna = next(r for r in rows if r.username == "anna")
    assert [e.counts for e in anna.editions] == [True, True, False]


def test_the_season_api_and_page(season: Series, client: Any) -> None:
    body = client.get(reverse("api_series_season", args=[season.pk])).json()
    assert [(r["player"], r["rank"], r["poedel"]) for r in body["standings"]] == [
        ("bram", 1, False),
        ("cees", 1, False),
        ("anna", 3, False),
        ("dirk", 4, True),
    ]
    page = client.get(reverse("series_detail", args=[season.pk])).content.decode()
    assert "poedel" in page
    assert page.count('class="badge finished"') == 3


def test_the_series_page_lists_coming_editions(organizer: Any, client: Any) -> None:
    s = _series(organizer, starts_on=timezone.localdate() + timedelta(days=2))
    body = client.get(reverse("api_series", args=[s.pk])).json()
    assert body["editions"] == []
    assert len(body["coming"]) == 5
    first = datetime.fromisoformat(body["coming"][0])
    assert first.astimezone(series_services.SERIES_TIMEZONE).time() == time(20, 0)


def test_the_series_pages_show_the_variants_title(organizer: Any, client: Any) -> None:
    """Issue 35, item 5: "Jokeren 7" (the variant's title), not its key "jokeren7"."""
    s = _series(organizer, starts_on=timezone.localdate() + timedelta(days=2))
    for url in (reverse("series_detail", args=[s.pk]), reverse("series_list")):
        page = client.get(url).content.decode()
        assert "Jokeren 7 ·" in page and "jokeren7" not in page


def test_a_series_keeps_to_the_tournament_bounds(organizer: Any) -> None:
    with pytest.raises(InvalidSettings):
        _series(organizer, starts_on=date(2150, 1, 1))
    with pytest.raises(InvalidSettings):
        _series(organizer, max_entrants=10_001)


def test_an_edition_the_bounds_refuse_does_not_stop_the_other_series(organizer: Any) -> None:
    # 23:30 on 31 December 2099 (22:30 UTC) for two hours would close after 2100.
    late = _series(organizer, time_of_day=time(23, 30), starts_on=date(2099, 12, 31))
    other = _series(organizer, time_of_day=time(23, 0), window_minutes=50)
    created = series_services.series_editions_create_due(now=utc(2099, 12, 31, 22, 45))
    assert [Tournament.objects.get(pk=pk).series_id for pk in created] == [other.pk]
    assert not late.editions.exists()


def test_beat_runs_the_series_task_every_half_minute(settings: Any) -> None:
    from jokeren.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["create-due-series-editions"]
    assert entry["task"] in app.tasks
    assert entry["schedule"] <= 60


def test_the_season_csv_writes_no_formula_in_either_separator(season: Series, client: Any) -> None:
    """A series, its editions and a player named like formulas (a club secretary opens
    the file in a spreadsheet): every such cell is text, in both separators."""
    evil = '=HYPERLINK("http://evil.example","x")'
    Series.objects.filter(pk=season.pk).update(name=evil)
    Tournament.objects.filter(series=season).update(name=evil)
    anna = Entry.objects.filter(user__username="anna").first().user
    anna.username = "@A1"
    anna.save()
    result_services.user_results_rename(user=anna)
    url = reverse("series_season_csv", args=[season.pk])
    for query, sep in (("", ","), ("?sep=semicolon", ";")):
        raw = client.get(url + query).content.decode("utf-8")[1:]
        rows = list(csv.reader(io.StringIO(raw), delimiter=sep))
        cells = [c for row in rows for c in row]
        assert not [
            c
            for c in cells
            if c.startswith(("=", "+", "-", "@", "\t", "\r"))
            and not re.fullmatch(r"-?\d+([.,]\d+)?", c)
        ]
        assert rows[0][-3:] == ["'" + evil] * 3 and "'@A1" in cells
        assert any(c.startswith("-") for c in cells)  # negative season totals stay numbers


@pytest.mark.parametrize("best_k", [0, MAX_BEST_K + 1, 32768, 2**31])
def test_best_k_is_bounded_in_the_form_the_service_and_the_database(
    organizer: Any, best_k: int
) -> None:
    """The season's best k (a small-integer column): out of range it is the form's error,
    the service's refusal and the database's, never a database error from a request."""
    assert "best_k" in SeriesForm.base_fields
    with pytest.raises(ValidationError):
        SeriesForm.base_fields["best_k"].clean(str(best_k))
    with pytest.raises(InvalidSettings):
        _series(organizer, best_k=best_k)
    series = _series(organizer, best_k=MAX_BEST_K)
    if best_k < 32768:
        with pytest.raises(IntegrityError), transaction.atomic():
            Series.objects.filter(pk=series.pk).update(best_k=best_k)
