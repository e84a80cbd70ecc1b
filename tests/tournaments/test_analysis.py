"""After the game: par per deal, the field's percentages, the progress chart, results hidden
until the close, where two games split, "what if" and the strong bot's analysis."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from typing import Any

import factories
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from tournaments import analysis, permissions, tasks
from tournaments.errors import GameNotFinished
from tournaments.games import module_of
from tournaments.models import Game, GameRound, ParRound, Tournament, WhatIf
from tournaments.selectors import replay as replay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import par as par_services
from tournaments.services import play as play_services
from tournaments.services import results as result_services
from tournaments.services import tournaments as tournament_services
from tournaments.services import what_if as what_if_services

pytestmark = pytest.mark.django_db


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _text(response: Any) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


def _bots_round(t: Tournament, r: int, level: str) -> list[int]:
    """Round ``r`` of ``t`` dealt by the engine and played by ``level`` bots in every seat."""
    module = module_of(t.game)
    state = module.new_round(
        module.variant_from_json(t.variant), secret=t.secret_bytes, round_index=r
    )
    while not state.is_terminal:
        state = state.apply(module.bot_action(state, level=level))
    return [int(s) for s in state.scores()]


def _play_rounds(game: Game, user: Any, rounds: int, level: str = "basic") -> Game:
    """Play South like the ``level`` bot until ``rounds`` rounds are over."""
    module = module_of(game.game)
    game.refresh_from_db()
    while len(game.round_scores) < rounds and not game.is_finished:
        state = module.state_from_json(game.state)
        action = module.bot_action(state, level=level).to_json()
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=action
        ).game
    return game


def _close(t: Tournament) -> Tournament:
    Tournament.objects.filter(pk=t.pk).update(closes_at=timezone.now())
    closing_services.tournament_close(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.is_closed
    return t


# --- Par ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "preset"), [("jokeren", "jokeren7"), ("klaverjas", "rotterdams")])
def test_par_is_stored_for_every_round_when_the_tournament_is_created(
    organizer: Any, game: str, preset: str, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        t = tournament_services.tournament_create(
            created_by=organizer,
            club=factories.default_club(),
            name="Par",
            game=game,
            preset=preset,
            rounds=3,
            opens_at=timezone.now(),
            closes_at=timezone.now() + timedelta(days=1),
        )
        assert not ParRound.objects.filter(tournament=t).exists()
    assert callbacks
    par = par_services.tournament_par(tournament=t)
    assert sorted(par) == [0, 1, 2]
    module = module_of(game)
    for r, row in par.items():
        scores = _bots_round(t, r, t.bot_level)
        assert row.scores == scores
        assert row.result == pytest.approx(module.results(scores)[0])


def test_par_is_idempotent_and_follows_the_deals(
    organizer: Any, django_capture_on_commit_callbacks: Any
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=2, south_plays=())
    assert par_services.tournament_par_compute(tournament_id=t.pk) == 0
    assert ParRound.objects.filter(tournament=t).count() == 2
    factories.set_secret(t, bytes(range(32)))
    assert ParRound.objects.filter(tournament=t).count() == 2
    assert par_services.tournament_par(tournament=t)[1].scores == _bots_round(t, 1, t.bot_level)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.tournament_update(tournament=t, rounds=3, bot_level="strong")
    t.refresh_from_db()
    par = par_services.tournament_par(tournament=t)
    assert sorted(par) == [0, 1, 2]
    assert par[2].scores == _bots_round(t, 2, "strong")


def test_the_par_row_shows_only_the_rounds_the_viewer_has_finished(
    organizer: Any, user: Any
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=2, south_plays=(0, 1))
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    page = _text(_client(user).get(t.get_absolute_url()))
    assert 'data-testid="par-row"' not in page
    game = _play_rounds(game, user, 1)
    page = _client(user).get(t.get_absolute_url()).content.decode()
    assert page.count('data-testid="par-row"') == 1
    # South played like the tournament's own bots: the game is par exactly.
    assert game.round_scores[0] == par_services.tournament_par(tournament=t)[0].scores
    # A visitor sees no par at all during the window.
    assert 'data-testid="par-row"' not in _client().get(t.get_absolute_url()).content.decode()


# --- The field -----------------------------------------------------------------------------


def test_percentages_count_a_tie_half_in_both_senses() -> None:
    assert analysis.percentages([1.0, 2.0, 2.0, 3.0], lower_is_better=True) == [
        100.0,
        50.0,
        50.0,
        0.0,
    ]
    assert analysis.percentages([1.0, 2.0, 2.0, 3.0], lower_is_better=False) == [
        0.0,
        50.0,
        50.0,
        100.0,
    ]
    assert analysis.percentages([5.0], lower_is_better=True) == [None]


@pytest.fixture
def field(organizer: Any) -> tuple[Tournament, list[Game]]:
    """A closed two-round Jokeren tournament with three entrants whose rounds are set: on
    round 1 Anna 0, Bram 10, Cees 10 (seat 0), the bots 20 each; on round 2 Anna 30, Bram
    0, and Cees's round played by the bot (Cees left)."""
    t = factories.make_tournament(created_by=organizer, rounds=2, south_plays=())
    games = []
    for name in ("anna", "bram", "cees"):
        u = factories.make_user(name)
        games.append(entry_services.entry_join(tournament_id=t.pk, user=u).game)
    anna, bram, cees = games
    factories.set_rounds(anna, [[0, 20, 20, 20], [30, 20, 20, 20]])
    factories.set_rounds(bram, [[10, 20, 20, 20], [0, 20, 20, 20]])
    factories.set_rounds(cees, [[10, 20, 20, 20], [0, 20, 20, 20]])
    Game.objects.filter(pk__in=[g.pk for g in games]).update(status="finished")
    Game.objects.filter(pk=cees.pk).update(bot_finished=True)
    # The bot took Cees's seat in round 2: its stored round says from where.
    GameRound.objects.create(game=cees, round_index=1, moves=1, bot_from=0, actions="[]")
    Tournament.objects.filter(pk=t.pk).update(closed_at=timezone.now())
    t.refresh_from_db()
    result_services.standings_refresh(tournament=t)
    return t, games


def test_each_deal_gives_every_entrant_a_percentage_without_the_bot_rounds(
    field: tuple[Tournament, list[Game]],
) -> None:
    t, (anna, bram, cees) = field
    par = par_services.tournament_pars(tournament=t)
    deals = analysis.field_deals(
        tournament=t, visibility=standing_selectors.Visibility(rounds=2, final=True), par=par
    )
    first = {f.row.game_id: f for f in deals[0].rows}
    assert first[anna.pk].percentage == 100.0
    # Bram and Cees tie on -10: each beats nobody and ties one of two others.
    assert first[bram.pk].percentage == 25.0
    assert first[cees.pk].percentage == 25.0
    second = {f.row.game_id: f for f in deals[1].rows}
    assert second[cees.pk].percentage is None  # the bot's round
    assert second[bram.pk].percentage == 100.0
    assert second[anna.pk].percentage == 0.0
    assert deals[1].median == pytest.approx(((30 - 20.0) + (0 - 20.0)) / 2)
    assert first[anna.pk].vs_par == pytest.approx(-20.0 - par[(0, 0)].result)


def test_the_leaderboard_averages_the_percentages_and_compares_with_par(
    field: tuple[Tournament, list[Game]],
) -> None:
    t, (anna, bram, cees) = field
    board = standing_selectors.standings_for_viewer(tournament=t, user=None)
    extras = analysis.board_extras_for(tournament=t, board=board)
    assert extras[anna.pk].percentage == 50.0
    assert extras[bram.pk].percentage == 62.5
    assert extras[cees.pk].percentage == 25.0  # only round 1 counts for Cees
    par = par_services.tournament_par(tournament=t)
    par_both = module_of(t.game).results(
        [a + b for a, b in zip(par[0].scores, par[1].scores, strict=True)]
    )[0]
    assert extras[anna.pk].vs_par == pytest.approx((-20.0 + 10.0) - par_both)
    assert extras[cees.pk].vs_par == pytest.approx(-10.0 - par[0].result)
    api = _client().get(reverse("api_tournament_standings", args=[t.pk])).json()
    by_player = {row["player"]: row for row in api["standings"]}
    assert by_player["bram"]["percentage"] == 62.5


def test_the_chart_follows_the_viewer_the_median_and_par(
    field: tuple[Tournament, list[Game]],
) -> None:
    t, (anna, _bram, _cees) = field
    par = par_services.tournament_pars(tournament=t)
    deals = analysis.field_deals(
        tournament=t, visibility=standing_selectors.Visibility(rounds=2, final=True), par=par
    )
    chart = analysis.progress_chart(game_id=anna.pk, deals=deals, par=par)
    assert chart is not None
    assert [css for css, _label, _points, _final in chart.series] == ["mine", "median", "par"]
    assert all(len(points.split()) == 3 for _c, _l, points, _f in chart.series)
    # Anna: -20 then +10; the field's median -10 (of -20, -10, -10) then -5 (of +10 and
    # -20: Cees's bot round is left out); the last values are the sums.
    finals = {css: final for css, _l, _p, final in chart.series}
    assert finals["mine"] == -10.0 and finals["median"] == -15.0
    assert finals["par"] == pytest.approx(par[(0, 0)].result + par[(1, 0)].result)
    # The vertical axis is labelled with the highest value, 0 and the lowest, top down;
    # every point of every line lies between the top and bottom labels.
    values = [v for v, _y in chart.y_ticks]
    par_sum = round(par[(0, 0)].result + par[(1, 0)].result, 9)  # as the chart sums them
    every = [0.0, -20.0, -10.0, -10.0, -15.0, par[(0, 0)].result, par_sum]
    assert values == pytest.approx(sorted({max(every), 0.0, min(every)}, reverse=True))
    ys = [y for _v, y in chart.y_ticks]
    assert ys == sorted(ys)
    point_ys = [float(p.split(",")[1]) for _c, _l, pts, _f in chart.series for p in pts.split()]
    assert ys[0] - 0.1 <= min(point_ys) and max(point_ys) <= ys[-1] + 0.1
    assert all(
        float(p.split(",")[0]) >= chart.left
        for _c, _l, pts, _f in chart.series
        for p in pts.split()
    )
    page = _client(anna.user).get(t.get_absolute_url()).content.decode()
    assert 'data-testid="progress-chart"' in page and "<polyline" in page
    assert page.count('data-testid="chart-y-tick"') == len(chart.y_ticks)


@pytest.mark.parametrize(
    "page", ["tournament_detail", "tournament_leaderboard", "api_tournament_standings"]
)
def test_the_tournament_page_makes_no_query_per_entrant(organizer: Any, page: str) -> None:
    def queries(entrants: int) -> int:
        t = factories.make_tournament(created_by=organizer, rounds=2, south_plays=())
        for _ in range(entrants):
            game = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user()).game
            factories.set_rounds(game, [[5, 10, 10, 10], [7, 10, 10, 10]])
            Game.objects.filter(pk=game.pk).update(status="finished")
        Tournament.objects.filter(pk=t.pk).update(closed_at=timezone.now())
        result_services.standings_refresh(tournament=t)
        client = _client(organizer)
        url = reverse(page, args=[t.pk])
        client.get(url)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url).status_code == 200
        return len(ctx.captured_queries)

    assert queries(2) == queries(6)


# --- Results hidden until the close ----------------------------------------------------------


def test_hidden_results_show_only_who_finished_until_the_close(organizer: Any, user: Any) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=(0,))
    tournament_services.tournament_update(tournament=t, hide_results=True)
    t.refresh_from_db()
    game = _play_rounds(entry_services.entry_join(tournament_id=t.pk, user=user).game, user, 1)
    assert game.is_finished
    assert standing_selectors.results_visibility(tournament=t, user=user).rounds == 0
    page = _client(user).get(t.get_absolute_url()).content.decode()
    assert 'id="hidden-note"' in page and 'data-testid="par-row"' not in page
    assert standing_selectors.player_rank(game=game) is None
    api = _client(user).get(reverse("api_tournament_standings", args=[t.pk])).json()
    assert [(r["result"], r["percentage"], r["vs_par"]) for r in api["standings"]] == [
        (None, None, None)
    ]
    _close(t)
    assert standing_selectors.results_visibility(tournament=t, user=user).rounds == 1
    assert 'data-testid="par-row"' in _client(user).get(t.get_absolute_url()).content.decode()


# --- Where games split ----------------------------------------------------------------------


def _play_off_first(game: Game, user: Any) -> Game:
    """Play South's first decision differently from the basic bot (another legal action),
    then like the basic bot to the end."""
    module = module_of(game.game)
    game.refresh_from_db()
    state = module.state_from_json(game.state)
    usual = module.bot_action(state, level="basic").to_json()
    other = next(a.to_json() for a in state.legal_actions() if a.to_json() != usual)
    game = play_services.game_play_move(game_id=game.pk, user=user, seq=game.seq, action=other).game
    return _play_rounds(game, user, 1)


@pytest.fixture
def games(organizer: Any) -> tuple[Tournament, Game, Game, Game]:
    """A closed one-round tournament: Anna played South like the tournament's basic bots
    (her game is par), Bram made another first choice and then played like them, Cees
    played like the strong bot."""
    t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=(0,))
    anna, bram, cees = (factories.make_user(n) for n in ("anna", "bram", "cees"))
    a = _play_rounds(entry_services.entry_join(tournament_id=t.pk, user=anna).game, anna, 1)
    b = _play_off_first(entry_services.entry_join(tournament_id=t.pk, user=bram).game, bram)
    c = _play_rounds(
        entry_services.entry_join(tournament_id=t.pk, user=cees).game, cees, 1, "strong"
    )
    return _close(t), a, b, c


def test_a_game_played_like_the_bots_never_splits_from_par(
    games: tuple[Tournament, Game, Game, Game],
) -> None:
    _t, anna, _bram, _cees = games
    split = analysis.games_split(game=anna, other=None, round_index=0)
    assert split.left.steps == [] and split.right.steps == []
    assert split.difference == 0
    assert len(split.common) == len(replay_selectors.game_record(game=anna).actions[0])


def test_two_games_split_at_the_first_different_action(
    games: tuple[Tournament, Game, Game, Game],
) -> None:
    _t, anna, bram, _cees = games
    split = analysis.games_split(game=anna, other=bram, round_index=0)
    a = replay_selectors.game_record(game=anna).actions[0]
    b = replay_selectors.game_record(game=bram).actions[0]
    k = len(split.common)
    # The bots before South's first turn, then Bram's other choice.
    assert k == next(i for i, x in enumerate(a) if x.seat == 0)
    assert [x.action for x in a[:k]] == [x.action for x in b[:k]]
    assert a[k].action != b[k].action
    assert len(split.left.steps) == len(a) - k and len(split.right.steps) == len(b) - k
    module = module_of(anna.game)
    assert split.difference == pytest.approx(
        module.results(anna.round_scores[0])[0] - module.results(bram.round_scores[0])[0]
    )
    page = _client().get(reverse("game_split", args=[anna.pk]) + f"?round=0&with={bram.pk}")
    assert page.status_code == 200 and 'data-testid="split-difference"' in page.content.decode()


def test_the_split_view_waits_for_the_close(organizer: Any, user: Any) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=(0,))
    game = _play_rounds(entry_services.entry_join(tournament_id=t.pk, user=user).game, user, 1)
    url = reverse("game_split", args=[game.pk]) + "?round=0&with=par"
    assert _client(user).get(url).status_code == 404


# --- What if --------------------------------------------------------------------------------


def test_a_what_if_game_replays_the_original_when_the_same_moves_are_made(
    organizer: Any, user: Any
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=2, south_plays=(0, 1))
    source = _play_rounds(entry_services.entry_join(tournament_id=t.pk, user=user).game, user, 2)
    assert source.is_finished
    before = (source.seq, source.round_scores, standing_selectors.standings(tournament=t))
    actions = replay_selectors.game_record(game=source).actions[1]
    south = [i for i, a in enumerate(actions) if a.seat == 0]
    start = south[len(south) // 2]
    g = what_if_services.game_what_if_start(
        user=user, source_id=source.pk, round_index=1, start=start
    )
    assert g.entry is None and g.round_index == 1
    assert WhatIf.objects.get(game=g).source == source
    for a in actions[start:]:
        if a.seat != 0:
            continue
        g.refresh_from_db()
        if g.is_finished:
            break
        g = play_services.game_play_move(game_id=g.pk, user=user, seq=g.seq, action=a.action).game
    g.refresh_from_db()
    assert g.is_finished
    assert g.round_scores == [source.round_scores[1]]
    assert [x.action for x in replay_selectors.game_record(game=g).actions[1]] == [
        x.action for x in actions
    ]
    source.refresh_from_db()
    assert (source.seq, source.round_scores, standing_selectors.standings(tournament=t)) == before
    # Its record would hold the tournament's secret: never offered, not even after the close.
    client = _client(user)
    assert client.get(reverse("game_record", args=[g.pk])).status_code == 404
    # Its replay shows every hand of the tournament's deal: not before the close.
    assert client.get(reverse("game_replay", args=[g.pk]) + "?round=1").status_code == 404
    _close(t)
    assert (
        t.secret_bytes.hex() not in client.get(reverse("game_replay", args=[g.pk])).content.decode()
    )
    assert client.get(reverse("game_replay", args=[g.pk]) + "?round=1").status_code == 200


def test_a_what_if_game_on_an_open_tournaments_deal_shows_no_hidden_hand_before_the_close(
    organizer: Any, user: Any
) -> None:
    """Issue 23, item 1: a finished entrant of an OPEN tournament plays a "speel vanaf
    hier" game out (and one from that one); neither's replay, nor its page's JSON, nor a
    link to it is there before the close, and the practice list offers the player's own
    review instead; once the tournament closes, both replays are there for the player
    (a practice game stays theirs)."""
    t = factories.make_tournament(
        created_by=organizer,
        rounds=2,
        south_plays=(0, 1),
        closes_at=timezone.now() + timedelta(days=1),
    )
    source = _play_rounds(entry_services.entry_join(tournament_id=t.pk, user=user).game, user, 2)
    assert source.is_finished and not t.is_closed
    g = what_if_services.game_what_if_start(user=user, source_id=source.pk, round_index=1, start=0)
    g = _play_rounds(g, user, 1)
    assert g.is_finished
    again = what_if_services.game_what_if_start(user=user, source_id=g.pk, round_index=1, start=1)
    again = _play_rounds(again, user, 1)
    assert again.is_finished
    client = _client(user)
    for game in (g, again):
        assert permissions.deal_tournament(game=game) == t
        assert not permissions.may_replay(user=user, game=game)
        for url in (
            reverse("game_replay", args=[game.pk]),
            reverse("game_replay", args=[game.pk]) + "?round=1",
            reverse("game_record", args=[game.pk]),
        ):
            assert client.get(url).status_code == 404, url
        # The player's own view of it stays: their review, their hand only.
        assert client.get(reverse("game_review", args=[game.pk])).status_code == 200
    practice = client.get(reverse("practice")).content.decode()
    assert reverse("game_replay", args=[g.pk]) not in practice
    assert reverse("game_replay", args=[again.pk]) not in practice
    assert reverse("game_review", args=[g.pk]) in practice
    # A practice game on its own deals is replayed by its player as before.
    own = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    assert permissions.deal_tournament(game=own) is None
    _close(t)
    for game in (g, again):
        assert client.get(reverse("game_replay", args=[game.pk]) + "?round=1").status_code == 200
        assert _client().get(reverse("game_replay", args=[game.pk])).status_code == 404
    assert reverse("game_replay", args=[g.pk]) in client.get(reverse("practice")).content.decode()


def test_a_what_if_game_is_labelled_by_the_round_it_replays_not_as_round_r_of_1(
    organizer: Any, user: Any
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=2, south_plays=(0, 1))
    source = _play_rounds(entry_services.entry_join(tournament_id=t.pk, user=user).game, user, 2)
    g = what_if_services.game_what_if_start(user=user, source_id=source.pk, round_index=1, start=0)
    client = _client(user)
    payload = client.get(reverse("api_game", args=[g.pk])).json()
    assert (payload["what_if_round"], payload["rounds"]) == (1, 1)
    assert client.get(reverse("api_game", args=[source.pk])).json()["what_if_round"] is None
    practice = _text(client.get(reverse("practice"), HTTP_ACCEPT_LANGUAGE="nl"))
    assert "ronde 2, gespeeld vanaf een stand" in practice
    assert "ronde 2 van 1" not in practice


def test_what_if_is_for_the_player_before_the_close_and_for_anyone_after(
    organizer: Any, user: Any, other_user: Any
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=(0,))
    source = _play_rounds(entry_services.entry_join(tournament_id=t.pk, user=user).game, user, 1)
    # Someone else's game before the close: as any page of it, not found (not "only once
    # it is finished": it is finished).
    with pytest.raises(Game.DoesNotExist):
        what_if_services.game_what_if_start(
            user=other_user, source_id=source.pk, round_index=0, start=0
        )
    url = reverse("game_what_if", args=[source.pk])
    assert _client(other_user).post(url, {"round": 0, "start": 0}).status_code == 404
    response = _client(user).post(url, {"round": 0, "start": 0})
    assert response.status_code == 302
    assert _client(user).post(url, {"round": 5, "start": 0}).status_code == 400
    assert _client(user).post(url, {"round": 0, "start": 10_000}).status_code == 400
    # Before the close the player's own review offers it: no hand but South's, no record.
    page = _client(user).get(reverse("game_review", args=[source.pk])).content.decode()
    assert 'data-testid="play-from-here"' in page
    assert reverse("game_record", args=[source.pk]) not in page
    assert _client(user).get(reverse("game_replay", args=[source.pk])).status_code == 404
    assert _client(other_user).get(reverse("game_review", args=[source.pk])).status_code == 404
    _close(t)
    g = what_if_services.game_what_if_start(
        user=other_user, source_id=source.pk, round_index=0, start=0
    )
    assert g.user == other_user


# --- Analysis -------------------------------------------------------------------------------


def test_the_analysis_marks_where_the_player_left_the_strong_bot(
    games: tuple[Tournament, Game, Game, Game],
) -> None:
    _t, anna, _bram, cees = games
    strong = analysis.game_analysis(game=cees, round_index=0)
    assert strong.decisions and not any(d.differs for d in strong.decisions)
    assert strong.difference is None
    basic = analysis.game_analysis(game=anna, round_index=0)
    own = [a for a in replay_selectors.game_record(game=anna).actions[0] if a.seat == 0]
    assert len(basic.decisions) == len(own)
    module = module_of(anna.game)
    state = module.new_round(
        module.variant_from_json(anna.variant), secret=anna.secret_bytes, round_index=0
    )
    decisions = iter(basic.decisions)
    for x in replay_selectors.game_record(game=anna).actions[0]:
        if x.seat == 0:
            d = next(decisions)
            strong_choice = module.bot_action(state, level="strong")
            played = module.action_from_json(x.action)
            assert d.differs == (not state.same_move(strong_choice, played))
            assert (d.gain is None) == (not d.differs)
            assert d.best_nl.startswith("de sterke bot had ")
            assert d.best_en.startswith("the strong bot would have ")
        state = state.apply(module.action_from_json(x.action))
    if any(d.differs for d in basic.decisions):
        assert basic.difference is not None
    page = _client().get(reverse("game_replay", args=[anna.pk])).content.decode()
    assert 'id="analysis"' in page


def test_what_if_before_finishing_is_refused(organizer: Any, user: Any) -> None:
    t = factories.make_tournament(
        created_by=organizer,
        rounds=2,
        south_plays=(0,),
        closes_at=timezone.now() + timedelta(days=1),
    )
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    with pytest.raises(GameNotFinished):
        what_if_services.game_what_if_start(user=user, source_id=game.pk, round_index=0, start=0)


def test_the_review_lists_every_action_and_analyses_each_decision(
    games: tuple[Tournament, Game, Game, Game],
) -> None:
    _t, _anna, bram, _cees = games
    review = analysis.game_review(game=bram, round_index=0)
    actions = replay_selectors.game_record(game=bram).actions[0]
    assert len(review.steps) == len(actions)
    assert [s.decision is not None for s in review.steps] == [a.seat == 0 for a in actions]
    assert review.scores == bram.round_scores[0]
    page = _client(bram.user).get(reverse("game_review", args=[bram.pk]))
    assert page.status_code == 200
    assert page.content.decode().count('data-testid="play-from-here"') == sum(
        a.seat == 0 for a in actions
    )


def test_the_command_fills_in_missing_par_once(organizer: Any) -> None:
    from django.core.management import call_command

    t = factories.make_tournament(created_by=organizer, rounds=2, south_plays=())
    ParRound.objects.filter(tournament=t, round_index=1).delete()
    out = io.StringIO()
    call_command("compute_par", "--tournament", str(t.pk), stdout=out)
    assert "1 par round(s) computed" in out.getvalue()
    assert par_services.tournament_par(tournament=t)[1].scores == _bots_round(t, 1, t.bot_level)
    call_command("compute_par", stdout=out)
    assert out.getvalue().endswith("0 par round(s) computed\n")


def test_par_lost_with_its_task_is_caught_up_by_the_periodic_sweep(organizer: Any) -> None:
    """A par task that never ran (the broker out of reach when it was queued) leaves the
    tournament without par; beat's sweep finds it, also after the tournament's deals or
    bot level changed under rows of the old ones, and fills it in; then nothing is left."""
    complete = factories.make_tournament(created_by=organizer, rounds=2, south_plays=())
    lost = factories.make_tournament(created_by=organizer, rounds=3, south_plays=())
    ParRound.objects.filter(tournament=lost).delete()  # as if its task had been lost
    stale = factories.make_tournament(created_by=organizer, rounds=2, south_plays=())
    Tournament.objects.filter(pk=stale.pk).update(bot_level="strong")  # no par queued
    assert ParRound.objects.filter(tournament=stale).count() == 2  # of the old bot level
    assert par_services.tournaments_par_missing() == [lost.pk, stale.pk]

    assert tasks.tournaments_par_catch_up.delay().get() == [lost.pk, stale.pk]

    assert par_services.tournaments_par_missing() == []
    assert sorted(par_services.tournament_par(tournament=lost)) == [0, 1, 2]
    stale.refresh_from_db()
    assert par_services.tournament_par(tournament=stale)[1].scores == _bots_round(
        stale, 1, "strong"
    )
    assert sorted(par_services.tournament_par(tournament=complete)) == [0, 1]
    assert tasks.tournaments_par_catch_up.delay().get() == []


def test_a_gain_is_positive_when_the_bot_did_better_in_either_sense() -> None:
    jokeren = module_of("jokeren")  # lower is better
    klaverjas = module_of("klaverjas")  # higher is better
    assert analysis._gain(jokeren, bot=4.0, player=10.0) == 6.0
    assert analysis._gain(jokeren, bot=12.0, player=10.0) == -2.0
    assert analysis._gain(klaverjas, bot=100.0, player=80.0) == 20.0
    assert analysis._gain(klaverjas, bot=60.0, player=80.0) == -20.0


def test_the_field_figures_of_a_page_read_only_its_rows_at_a_few_hundred_entrants(
    organizer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The per-deal figures of the rows a page shows (percentages, ranks, against par, the
    median) are those of the whole field, but the deals' rows are not read in full: a
    grouped count per deal and the shown games' rows, a bounded number of queries."""
    from tournaments.models import DealResult

    t = factories.make_closed_field(organizer, 300)
    visibility = standing_selectors.Visibility(rounds=3, final=True)
    par = par_services.tournament_pars(tournament=t)
    everything = analysis.field_deals(tournament=t, visibility=visibility, par=par)
    assert all(len(d.rows) == 300 for d in everything)
    ids = [f.row.game_id for f in everything[2].rows[::37]]
    ids.append(everything[2].rows[-1].row.game_id)
    loaded = 0
    real = DealResult.from_db

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal loaded
        loaded += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(DealResult, "from_db", counting)
    with CaptureQueriesContext(connection) as queries:
        some = analysis.field_deals(tournament=t, visibility=visibility, par=par, game_ids=ids)
    assert loaded <= 3 * len(ids)
    assert len(queries) <= 6
    for whole, part in zip(everything, some, strict=True):
        assert part.median == pytest.approx(whole.median)
        assert part.deal.field_size == whole.deal.field_size
        figures = {f.row.game_id: f for f in whole.rows}
        assert {f.row.game_id for f in part.rows} == set(ids)
        for f in part.rows:
            assert f == figures[f.row.game_id]
    # the bot's round of the last entrant: no percentage, no rank
    bot_row = next(f for f in some[2].rows if f.row.by_bot)
    assert bot_row.percentage is None and bot_row.row.rank is None


def test_the_tournament_page_reads_a_bounded_number_of_deal_rows(
    organizer: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tournaments.models import DealResult

    t = factories.make_closed_field(organizer, 300)
    loaded = 0
    real = DealResult.from_db

    def counting(*args: Any, **kwargs: Any) -> Any:
        nonlocal loaded
        loaded += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(DealResult, "from_db", counting)
    response = _client().get(t.get_absolute_url())
    assert response.status_code == 200
    # each deal's page of 10, and on each deal the rows of the games shown (the board's
    # page of 50 and the deals' pages): far below every row of the three deals (900)
    assert loaded <= 3 * 10 + 3 * (50 + 3 * 10)
    api = _client().get(reverse("api_tournament_standings", args=[t.pk]))
    assert api.status_code == 200
