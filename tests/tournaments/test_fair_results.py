"""Fair results: a round the bot played in an entrant's seat never helps that entrant, and
while the window is open nobody sees a score of a round they have not played themselves,
on any surface (standings API, tournament page, per-deal tables, organizer's entries page,
the play API's rank); after the close everything is public."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.games import module_of
from tournaments.models import Game, Tournament
from tournaments.selectors import deals as deal_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import results as result_services

pytestmark = pytest.mark.django_db


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _leaderboard_html(response: Any) -> str:
    """The leaderboard's part of the tournament page."""
    page = response.content.decode()
    start = page.index('id="leaderboard"')
    return page[start : page.index("</div>", start)]


def _result(t: Tournament, scores: list[int]) -> float:
    """The duplicate result of seat 0 for these seat scores (the game module's rule)."""
    return float(module_of(t.game).results(scores)[0])


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _play_rounds(game: Game, user: Any, rounds: int) -> Game:
    """Play ``game`` through the service (South choosing like the basic bot) until
    ``rounds`` rounds are over; South must get a turn in each (``south_plays``)."""
    game.refresh_from_db()
    while len(game.round_scores) < rounds:
        outcome = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
        game = outcome.game
    assert len(game.round_scores) == rounds
    return game


# --- 1. The bot's rounds never help ------------------------------------------------------


@dataclass
class Abandoned:
    t: Tournament
    anna: Game  # played both rounds
    bram: Game  # played both rounds
    dirk: Game  # played round 1, left in round 2
    cees: Game  # made one move, left


@pytest.fixture
def abandoned(organizer: Any) -> Abandoned:
    """A closed two-round tournament in which the bot's result in the seat of an entrant who
    left after one move is the best of the field: Anna and Bram played both rounds
    themselves but did worse on the same deals (their seat scores are the bot's plus 4 and
    plus 8 a round); Dirk played round 1 himself, better than anyone, and left in round 2."""
    t = factories.make_tournament(
        created_by=organizer, rounds=2, bot_level="strong", south_plays=(0, 1)
    )

    def join(name: str) -> tuple[Any, Game]:
        user = factories.make_user(name)
        return user, entry_services.entry_join(tournament_id=t.pk, user=user).game

    anna_user, anna = join("anna")
    bram_user, bram = join("bram")
    dirk_user, dirk = join("dirk")
    cees_user, cees = join("cees")
    factories.play_to_end(anna, anna_user)
    factories.play_to_end(bram, bram_user)
    _play_rounds(dirk, dirk_user, 1)
    play_services.game_play_move(
        game_id=cees.pk, user=cees_user, seq=cees.seq, action=factories.south_action(cees)
    )
    closing_services.tournament_close(tournament_id=t.pk)
    t.refresh_from_db()
    for g in (anna, bram, dirk, cees):
        g.refresh_from_db()
    bot = cees.round_scores
    factories.set_rounds(anna, [[r[0] + 4, *r[1:]] for r in bot])
    factories.set_rounds(bram, [[r[0] + 8, *r[1:]] for r in bot])
    factories.set_rounds(dirk, [[bot[0][0] - 4, *bot[0][1:]], dirk.round_scores[1]])
    result_services.standings_refresh(tournament=t)
    return Abandoned(t, anna, bram, dirk, cees)


def test_the_bot_result_of_an_abandoned_game_is_the_best_of_the_field(
    abandoned: Abandoned,
) -> None:
    """The premise of the tests below: counted in full, Cees's game would win."""
    a = abandoned
    assert a.cees.bot_finished and a.dirk.bot_finished
    assert not a.anna.bot_finished and not a.bram.bot_finished
    cees = standing_selectors.game_result(a.cees)[2]
    assert all(cees < standing_selectors.game_result(g)[2] for g in (a.anna, a.bram))


def test_an_entry_with_bot_rounds_ranks_after_every_complete_entry(abandoned: Abandoned) -> None:
    a = abandoned
    rows = standing_selectors.standings(tournament=a.t)
    assert [s.username for s in rows] == ["anna", "bram", "dirk", "cees"]
    assert [s.rank for s in rows] == [1, 2, 3, None]
    by_name = {s.username: s for s in rows}
    assert by_name["anna"].bot_rounds == () and by_name["anna"].rounds_counted == 2
    # Dirk is ranked on the round he played himself, after the complete entries.
    dirk = by_name["dirk"]
    assert dirk.bot_rounds == (1,) and dirk.rounds_counted == 1 and dirk.rounds_played == 2
    assert dirk.result == pytest.approx(_result(a.t, a.dirk.round_scores[0]))
    assert dirk.total == a.dirk.round_scores[0][0]
    # Cees played no round himself: unranked, without a result, listed last.
    cees = by_name["cees"]
    assert cees.bot_rounds == (0, 1) and cees.rounds_counted == 0
    assert (cees.result, cees.total, cees.opponents_average) == (None, None, None)


def test_entries_with_bot_rounds_rank_by_own_rounds_then_result(organizer: Any) -> None:
    """Among entries the bot finished: more rounds played themselves first, then the result
    over those rounds; equal ones share a rank (the rank continues after the complete
    entries)."""
    t = factories.make_tournament(created_by=organizer, rounds=3, south_plays=(0, 1, 2))
    users = {n: factories.make_user(n) for n in ("eva", "fien", "gijs", "hans")}
    games = {
        n: entry_services.entry_join(tournament_id=t.pk, user=u).game for n, u in users.items()
    }
    factories.play_to_end(games["eva"], users["eva"])
    _play_rounds(games["fien"], users["fien"], 2)
    _play_rounds(games["gijs"], users["gijs"], 1)
    _play_rounds(games["hans"], users["hans"], 1)
    closing_services.tournament_close(tournament_id=t.pk)
    for g in games.values():
        g.refresh_from_db()
    # Gijs and Hans played the same first round alike; Fien's own two rounds are worse
    # than either, and every bot round is the best of its deal.
    factories.set_rounds(games["eva"], [[50, 0, 0, 0]] * 3)
    factories.set_rounds(games["fien"], [[40, 0, 0, 0], [40, 0, 0, 0], [0, 90, 90, 90]])
    factories.set_rounds(games["gijs"], [[10, 0, 0, 0], [0, 90, 90, 90], [0, 90, 90, 90]])
    factories.set_rounds(games["hans"], [[10, 0, 0, 0], [0, 60, 60, 60], [0, 90, 90, 90]])
    rows = result_services.standings_refresh(tournament=t)
    assert [(s.username, s.rank, s.rounds_counted, s.result) for s in rows] == [
        ("eva", 1, 3, 150.0),
        ("fien", 2, 2, 80.0),
        ("gijs", 3, 1, 10.0),
        ("hans", 3, 1, 10.0),
    ]


def test_per_deal_tables_mark_bot_rounds_and_leave_them_out_of_the_field(
    abandoned: Abandoned,
) -> None:
    a = abandoned
    deals = deal_selectors.deal_results(
        tournament=a.t, visibility=standing_selectors.results_visibility(tournament=a.t, user=None)
    )
    assert [d.round_index for d in deals] == [0, 1]
    first, second = deals
    r0 = {g.user.username: _result(a.t, g.round_scores[0]) for g in (a.anna, a.bram, a.dirk)}
    assert [(row.username, row.rank, row.by_bot) for row in first.rows] == [
        ("dirk", 1, False),
        ("anna", 2, False),
        ("bram", 3, False),
        ("cees", None, True),
    ]
    assert first.field_size == 3
    assert first.field_average == pytest.approx(sum(r0.values()) / 3)
    assert first.field_best == pytest.approx(r0["dirk"])
    r1 = {g.user.username: _result(a.t, g.round_scores[1]) for g in (a.anna, a.bram)}
    assert [(row.username, row.rank, row.by_bot) for row in second.rows[:2]] == [
        ("anna", 1, False),
        ("bram", 2, False),
    ]
    assert {(row.username, row.rank, row.by_bot) for row in second.rows[2:]} == {
        ("cees", None, True),
        ("dirk", None, True),
    }
    assert second.field_size == 2
    assert second.field_average == pytest.approx((r1["anna"] + r1["bram"]) / 2)
    assert second.field_best == pytest.approx(r1["anna"])


def test_the_page_and_the_api_after_the_close_follow_the_rule(abandoned: Abandoned) -> None:
    a = abandoned
    response = _client().get(reverse("tournament_detail", args=[a.t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert [s.username for s in response.context["standings"]] == ["anna", "bram", "dirk", "cees"]
    page = _text(response)
    # Three rows of the per-deal tables are the bot's (Cees twice, Dirk once), marked.
    assert page.count('class="by-bot"') == 3
    assert "the bot played the entrant's seat in this round" in page
    assert "2 rounds not counted" in page and "1 round not counted" in page
    data = _client().get(reverse("api_tournament_standings", args=[a.t.pk])).json()
    assert [(s["player"], s["rank"], s["bot_rounds"]) for s in data["standings"]] == [
        ("anna", 1, []),
        ("bram", 2, []),
        ("dirk", 3, [1]),
        ("cees", None, [0, 1]),
    ]
    # The play API's rank is the same: Anna won.
    anna = _client(a.anna.user).get(reverse("api_game", args=[a.anna.pk])).json()
    assert anna["result"]["rank"] == 1
    cees = _client(a.cees.user).get(reverse("api_game", args=[a.cees.pk])).json()
    assert cees["result"]["rank"] is None


def test_the_rules_page_states_the_bot_rounds_rule(tournament: Tournament) -> None:
    url = reverse("tournament_rules", args=[tournament.pk])
    en = _text(_client().get(url, HTTP_ACCEPT_LANGUAGE="en"))
    nl = _text(_client().get(url, HTTP_ACCEPT_LANGUAGE="nl"))
    assert "never count for the entrant" in en
    assert "tellen nooit mee" in nl
    assert "only the results of the rounds you have finished yourself" in en


# --- 2. During the window: only the rounds you have played --------------------------------

#: Anna's second round and the figures over both her rounds, which nobody who has not
#: played round 2 may see: her round 2 result 7 - 131/3, her total 17, her full result
#: 17 - 221/3 and the opponents' average over both rounds 221/3.
HIDDEN_JSON = ("36.66", "56.66", "73.66", '"total": 17')
HIDDEN_HTML = ("36,7", "56,7", "73,7", "36.7", "56.7", "73.7")  # one decimal


@dataclass
class Race:
    t: Tournament
    anna: Game  # has finished rounds 1 and 2
    bram: Game  # has finished round 1: one round behind Anna
    cees: Game  # entered, no round finished
    dora: Any  # logged in, not entered


@pytest.fixture
def race(organizer: Any) -> Race:
    t = factories.make_tournament(created_by=organizer, rounds=3)
    games = {
        name: entry_services.entry_join(tournament_id=t.pk, user=factories.make_user(name)).game
        for name in ("anna", "bram", "cees")
    }
    factories.set_rounds(games["anna"], [[10, 20, 30, 40], [7, 41, 43, 47]])
    factories.set_rounds(games["bram"], [[4, 25, 25, 25]])
    factories.set_rounds(games["cees"], [])
    result_services.standings_refresh(tournament=t)
    return Race(t, games["anna"], games["bram"], games["cees"], factories.make_user("dora"))


def _standings_api(race: Race, user: Any = None) -> tuple[str, dict[str, Any]]:
    response = _client(user).get(reverse("api_tournament_standings", args=[race.t.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    return body, json.loads(body)


def test_the_standings_api_shows_an_entrant_only_the_rounds_they_have_finished(
    race: Race,
) -> None:
    body, data = _standings_api(race, race.bram.user)
    assert data["visible_rounds"] == 1 and data["scores_visible"] is True
    assert not any(hidden in body for hidden in HIDDEN_JSON)
    rows = {s["player"]: s for s in data["standings"]}
    # Anna's first round only, ranked against Bram's first round: Bram did better.
    assert rows["anna"]["result"] == -20.0 and rows["anna"]["total"] == 10
    assert rows["anna"]["rounds_counted"] == 1 and rows["anna"]["rounds_played"] == 2
    assert rows["bram"]["result"] == -21.0
    assert [(s["player"], s["rank"]) for s in data["standings"]] == [
        ("bram", 1),
        ("anna", 2),
        ("cees", None),
    ]


def test_the_entrant_ahead_sees_both_rounds_and_ranks_the_one_behind_after(race: Race) -> None:
    _body, data = _standings_api(race, race.anna.user)
    assert data["visible_rounds"] == 2
    rows = {s["player"]: s for s in data["standings"]}
    assert rows["anna"]["total"] == 17 and rows["anna"]["rounds_counted"] == 2
    assert rows["anna"]["result"] == round(17 - 221 / 3, 2)
    assert rows["bram"]["result"] == -21.0 and rows["bram"]["rounds_counted"] == 1
    # Bram has played one round of Anna's two: he ranks after her, whatever his result.
    assert [(s["player"], s["rank"]) for s in data["standings"]] == [
        ("anna", 1),
        ("bram", 2),
        ("cees", None),
    ]


@pytest.mark.parametrize("who", ["anonymous", "not entered", "entered, no round finished"])
def test_the_standings_api_shows_others_names_and_progress_only(race: Race, who: str) -> None:
    viewers = {
        "anonymous": None,
        "not entered": race.dora,
        "entered, no round finished": race.cees.user,
    }
    body, data = _standings_api(race, viewers[who])
    assert data["scores_visible"] is False and data["visible_rounds"] == 0
    assert not re.search(r'"(rank|result|total|opponents_average)": [-0-9]', body)
    assert [(s["player"], s["rounds_played"]) for s in data["standings"]] == [
        ("anna", 2),
        ("bram", 1),
        ("cees", 0),
    ]


def test_the_tournament_page_follows_the_same_rule(race: Race) -> None:
    detail = reverse("tournament_detail", args=[race.t.pk])
    # Bram, one round behind: Anna's first round only, and the table of deal 1 only.
    response = _client(race.bram.user).get(detail)
    board = _leaderboard_html(response)
    assert not any(hidden in board for hidden in HIDDEN_HTML)
    rows = {s.username: s for s in response.context["standings"]}
    assert rows["anna"].result == -20.0 and rows["anna"].total == 10
    assert rows["bram"].rank == 1 and rows["anna"].rank == 2
    assert [d.round_index for d in response.context["deals"]] == [0]
    page = _text(response)
    assert not any(hidden in page for hidden in HIDDEN_HTML)
    assert "alleen de uitslagen van ronde 1" in page
    # Anna, ahead: both rounds and both deals.
    response = _client(race.anna.user).get(detail)
    assert [d.round_index for d in response.context["deals"]] == [0, 1]
    assert "56,7" in _leaderboard_html(response)  # her own result over her two rounds
    # A visitor, a logged-in non-entrant and an entrant without a finished round: names
    # and progress, no scores, no per-deal tables.
    for user in (None, race.dora, race.cees.user):
        response = _client(user).get(detail)
        board = _leaderboard_html(response)
        assert "Resultaat" not in board and "Plaats" not in board
        assert "anna" in board and "2/3" in board and "1/3" in board
        assert all(s.result is None and s.rank is None for s in response.context["standings"])
        assert response.context["deals"] == []
        assert "Per spel" not in _text(response)


def _table_html(html: str) -> str:
    return html[html.index("<table") : html.index("</table>")]


def test_the_live_leaderboard_polls_the_rows_the_page_renders(race: Race) -> None:
    live = reverse("tournament_leaderboard", args=[race.t.pk])
    page = _client(race.bram.user).get(reverse("tournament_detail", args=[race.t.pk]))
    board = _leaderboard_html(page)
    assert f'data-live-url="{live}"' in board
    assert 'data-visible-rounds="1"' in board
    # The refresh answers with the page's own rows for this viewer: Bram has finished one
    # round, so he sees the scores of that round; a visitor sees names and progress only.
    fragment = _client(race.bram.user).get(live)
    html = fragment.content.decode()
    assert 'data-visible-rounds="1"' in html and 'data-closed=""' in html
    assert _table_html(html) == _table_html(page.content.decode())
    visitor = _client(None).get(live).content.decode()
    assert 'data-visible-rounds="0"' in visitor
    assert "Resultaat" not in visitor and "anna" in visitor and "2/3" in visitor
    # Per viewer: no shared cache may keep one viewer's answer for another.
    assert "private" in fragment["Cache-Control"] and "Cookie" in fragment["Vary"]
    api = _client(race.bram.user).get(reverse("api_tournament_standings", args=[race.t.pk]))
    assert "private" in api["Cache-Control"] and "Cookie" in api["Vary"]


def test_per_deal_tables_show_only_the_rounds_the_viewer_has_finished(race: Race) -> None:
    def rounds(user: Any) -> list[int]:
        visibility = standing_selectors.results_visibility(tournament=race.t, user=user)
        return [
            d.round_index
            for d in deal_selectors.deal_results(tournament=race.t, visibility=visibility)
        ]

    assert rounds(race.bram.user) == [0]
    assert rounds(race.anna.user) == [0, 1]
    assert rounds(race.cees.user) == rounds(race.dora) == rounds(None) == []


def test_the_organizer_sees_places_not_scores_during_the_window(race: Race) -> None:
    """docs/rules.md §4, "The organizer's list of entrants": the place of every ranked
    entrant over the rounds played so far (issue 35), no scores on the page."""
    response = _client(race.t.created_by).get(reverse("tournament_entries", args=[race.t.pk]))
    assert response.status_code == 200
    places = {g.user.get_username(): s.rank for g, s in response.context["rows"]}
    played = {g.user.get_username() for g, _s in response.context["rows"] if g.rounds_played}
    assert played and all(places[name] is not None for name in played)
    assert all(places[name] is None for name in places.keys() - played)
    assert "56,7" not in response.content.decode()


def test_an_entrant_who_has_finished_sees_every_round(race: Race) -> None:
    factories.set_rounds(race.bram, [[4, 25, 25, 25], [0, 1, 1, 1], [0, 1, 1, 1]])
    Game.objects.filter(pk=race.bram.pk).update(status=Game.Status.FINISHED)
    result_services.standings_refresh(tournament=race.t)
    body, data = _standings_api(race, race.bram.user)
    assert data["visible_rounds"] == 3
    assert "-56.67," in body  # Anna's result over her two rounds (API: two decimals)
    payload = _client(race.bram.user).get(reverse("api_game", args=[race.bram.pk])).json()
    # Bram's -23 over all three rounds ranks before Anna, who has not played round 3.
    assert payload["result"]["rank"] == 1


def test_after_the_close_everything_is_public(race: Race) -> None:
    Tournament.objects.filter(pk=race.t.pk).update(closed_at=timezone.now())
    race.t.refresh_from_db()
    for user in (None, race.dora, race.bram.user):
        body, data = _standings_api(race, user)
        assert data["closed"] is True and data["visible_rounds"] == 3
        assert "-56.67," in body and '"total": 17' in body
        response = _client(user).get(reverse("tournament_detail", args=[race.t.pk]))
        assert [d.round_index for d in response.context["deals"]] == [0, 1, 2]
        assert "56,7" in _leaderboard_html(response)
