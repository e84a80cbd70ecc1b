"""Boards that cost what they show (issue 28, item 4): the per-deal figures cached while
the tournament is open too, the leaderboard's deep pages without an OFFSET over the rows,
the tournament page in a number of queries that does not grow with the field, the
percentages by bisection, the standings CSV streamed from one query."""

from __future__ import annotations

import random
from typing import Any

import factories
import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Account, DealResult, EntryResult, Game, Tournament
from tournaments.selectors import deals as deal_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.services import results as result_services


def _open_field(organizer: Any, size: int) -> Tournament:
    """``factories.make_closed_field`` opened again: the window runs, every game over."""
    t = factories.make_closed_field(organizer, size)
    Tournament.objects.filter(pk=t.pk).update(
        closed_at=None, closes_at=timezone.now() + timezone.timedelta(days=1)
    )
    t.refresh_from_db()
    result_services.standings_rebuild(tournament=t)
    return t


def _queries(client: Client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
        assert response.status_code == 200
        if response.streaming:
            b"".join(response.streaming_content)
    return len(captured.captured_queries)


def _entrant(t: Tournament) -> Client:
    client = Client()
    game = Game.objects.filter(entry__tournament=t).order_by("pk").first()
    assert game is not None
    client.force_login(game.user)
    return client


@pytest.mark.parametrize("closed", [False, True])
def test_the_tournament_page_costs_as_many_queries_at_200_entrants_as_at_10(
    organizer: Any, closed: bool
) -> None:
    """The same pages at 10, 60 and 200 entrants: the entrant's (the first page, where
    their own row is counted apart), a visitor's, a later page (60 and 200: each has a
    page 2, whose first rank is counted) and the CSV download."""
    counts = {}
    for size in (10, 60, 200):
        t = factories.make_closed_field(organizer, size) if closed else _open_field(organizer, size)
        page = reverse("tournament_detail", args=[t.pk])
        me = _entrant(t)
        _queries(me, page)  # the per-deal figures into the cache, as any earlier view
        counts[size] = (
            _queries(me, page + "?page=1"),
            _queries(Client(), page),
            _queries(Client(), reverse("tournament_standings_csv", args=[t.pk])),
        )
        if size > 50:
            counts[size] += (_queries(me, page + "?page=2"),)
        get_user_model().objects.filter(username__startswith="veld").delete()
    assert counts[200][:3] == counts[10], counts
    assert counts[200] == counts[60], counts
    assert counts[200][0] <= 25


def test_the_per_deal_figures_are_cached_while_open_and_follow_a_rounds_write(
    organizer: Any, django_assert_num_queries: Any
) -> None:
    t = _open_field(organizer, 12)
    before = deal_selectors.deal_figures(tournament=t, rounds=t.rounds)
    with django_assert_num_queries(0):
        assert deal_selectors.deal_figures(tournament=t, rounds=t.rounds) == before
    # a round's results written again (as at a round's end): new figures at once
    game = Game.objects.filter(entry__tournament=t).order_by("pk").first()
    assert game is not None
    factories.set_rounds(game, [[0, 40, 40, 40], *game.round_scores[1:]])
    result_services.entry_results_update(game=game)
    after = deal_selectors.deal_figures(tournament=t, rounds=t.rounds)
    assert after != before
    assert after.spreads[(0, 0)].counts[0] == (-40.0, 1)  # 0 − 40: the best result alone
    assert after.fields[(0, 0)][2] == -40.0


def test_the_figures_equal_the_rows_counted_one_by_one(organizer: Any) -> None:
    t = _open_field(organizer, 40)
    figures = deal_selectors.deal_figures(tournament=t, rounds=t.rounds)
    for r in range(t.rounds):
        rows = list(DealResult.objects.filter(tournament=t, round_index=r))
        own = [row for row in rows if not row.by_bot]
        size, average, best = figures.fields[(r, 0)]
        assert size == len(own)
        assert average == pytest.approx(sum(row.result for row in own) / len(own), abs=1e-9)
        assert best == pytest.approx(min(row.result for row in own), abs=1e-9)
        assert figures.counts[(r, 0)] == len(rows)
        for row in own:
            better = sum(1 for o in own if o.sort_result < row.sort_result)
            assert figures.spreads[(r, 0)].better(row.sort_result) == better


def test_the_distribution_by_bisection_matches_counting() -> None:
    rng = random.Random(28)
    for sign in (1, -1):
        for size in (1, 2, 3, 10, 101):
            results = [float(rng.randrange(-20, 20)) / 2 for _ in range(size)]
            spread = deal_selectors.Distribution.of(results, sign=sign)
            for result in results:
                key = sign * result
                worse = sum(1 for r in results if sign * r > key)
                equal = sum(1 for r in results if sign * r == key)
                expected = (
                    None if size < 2 else round(100 * (worse + 0.5 * (equal - 1)) / (size - 1), 9)
                )
                assert spread.percentage(result) == expected
                assert spread.better(key) == sum(1 for r in results if sign * r < key)
            ordered = sorted(results)
            middle = (ordered[(size - 1) // 2] + ordered[size // 2]) / 2
            assert spread.median() == round(middle, 9)
    assert deal_selectors.Distribution(()).median() is None


def test_every_page_of_the_board_is_the_offset_slice(organizer: Any) -> None:
    t = factories.make_closed_field(organizer, 130)
    board = EntryResult.objects.filter(tournament=t, upto=t.rounds)
    order = ("unranked", "tier", "sort_result", "-rounds_played", "name_key", "entry_id")
    every = list(board.order_by(*order))
    for offset in (0, 17, 50, 100, 129, 130):
        page = standing_selectors.page_rows(board, order, offset, 50)
        assert [r.pk for r in page] == [r.pk for r in every[offset : offset + 50]]
    # and the board's pages as the page shows them: ranks as on the whole board
    whole = standing_selectors.standings(tournament=t)
    shown = standing_selectors.standings_page(tournament=t, user=None, page=3, page_size=50)
    assert shown.rows == whole[100:130]


def test_a_deep_page_reads_the_rows_through_the_index_only(organizer: Any) -> None:
    t = factories.make_closed_field(organizer, 120)
    with CaptureQueriesContext(connection) as captured:
        standing_selectors.standings_page(tournament=t, user=None, page=3, page_size=50)
    sql = " ".join(q["sql"] for q in captured.captured_queries if "OFFSET" in q["sql"].upper())
    # the OFFSET is in the subquery that reads the entries' ids, never on the rows
    assert sql.count("OFFSET") == 1
    assert '"tournaments_entryresult"."entry_id" IN (SELECT' in sql.replace("U0.", "")


def test_the_standings_csv_is_the_board_streamed(organizer: Any) -> None:
    t = factories.make_closed_field(organizer, 60)
    bot = Game.objects.filter(entry__tournament=t).order_by("pk")[5].user
    Account.objects.update_or_create(user=bot, defaults={"is_bot": True})
    response = Client().get(reverse("tournament_standings_csv", args=[t.pk]))
    assert response.streaming
    lines = b"".join(response.streaming_content).decode("utf-8")[1:].splitlines()[1:]
    rows = [line.split(",") for line in lines]
    whole = standing_selectors.standings(tournament=t)
    assert [(r[0], r[1]) for r in rows] == [(str(s.rank or ""), s.username) for s in whole]
    assert [r[1] for r in rows if r[2] == "BOT"] == [bot.username]


def test_the_standings_csv_is_kept_until_the_results_change(organizer: Any) -> None:
    t = _open_field(organizer, 30)
    url = reverse("tournament_standings_csv", args=[t.pk])
    me = _entrant(t)

    def body(client: Client) -> bytes:
        response = client.get(url)
        assert response.streaming
        return b"".join(response.streaming_content)

    first = body(me)
    with CaptureQueriesContext(connection) as captured:
        assert body(me) == first
    # only the viewer's own row is read (what they may see), not the board's
    assert not any('AS "is_bot"' in q["sql"] for q in captured.captured_queries)
    # another viewer who sees as many rounds (every round: the entrant's game is over)
    # shares it; a visitor (no scores during the window) does not
    assert body(Client()) != first
    # a round's results written again: the next download has them
    game = Game.objects.filter(entry__tournament=t).order_by("pk").first()
    assert game is not None
    factories.set_rounds(game, [[0, 400, 400, 400], *game.round_scores[1:]])
    result_services.entry_results_update(game=game)
    again = body(me)
    assert again != first
    assert again.decode("utf-8").splitlines()[1].split(",")[1] == game.user.username
