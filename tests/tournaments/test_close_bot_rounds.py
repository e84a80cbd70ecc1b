"""The close's bot finish of a game (docs/rules.md §4): where the bot plays a round in the
entrant's seat from its deal, it plays it as par does (the tournament's bots in every seat,
South's too, §7), whatever the game; the rounds it plays are stored as a full replay of the
game makes them, and the close plays each such round once per process, not once per game.
"""

from __future__ import annotations

from typing import Any

import factories
import pytest

from engine import match
from tournaments.games import module_of
from tournaments.models import Game, ParRound, Tournament
from tournaments.services import audit as audit_services
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import par as par_services
from tournaments.services import play as play_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(organizer: Any) -> Tournament:
    t = factories.make_tournament(created_by=organizer, rounds=3, south_plays=(0,))
    par_services.tournament_par_compute(tournament_id=t.pk)
    return t


def par_scores(t: Tournament) -> list[list[int]]:
    return [list(p.scores) for p in ParRound.objects.filter(tournament=t).order_by("round_index")]


def joined(t: Tournament, name: str) -> Game:
    return entry_services.entry_join(tournament_id=t.pk, user=factories.make_user(name)).game


def move(game: Game, action: dict[str, Any]) -> Game:
    game.refresh_from_db()
    return play_services.game_play_move(
        game_id=game.pk, user=game.user, seq=game.seq, action=action
    ).game


def other_than_the_bot(game: Game) -> dict[str, Any]:
    """A legal action of South's that is not the bot's choice in the game's position."""
    module = module_of(game.game)
    state = module.state_from_json(game.state)
    bot = module.bot_action(state, level=game.bot_level).to_json()
    for action in state.legal_actions():
        if action.to_json() != bot:
            return dict(action.to_json())
    raise AssertionError("South has one legal action only")


def closed(t: Tournament, *games: Game) -> list[Game]:
    closing_services.tournament_close(tournament_id=t.pk)
    for g in games:
        g.refresh_from_db()
    return list(games)


def replays_clean(game: Game) -> None:
    """A full replay (every round rebuilt from the deal and the entrant's own actions,
    nothing taken from the close) finds nothing."""
    audit = audit_services.game_audit(game_id=game.pk)
    assert audit.ok, audit.problems


def test_a_game_left_at_its_start_scores_par_in_every_round(tournament: Tournament) -> None:
    (idle,) = closed(tournament, joined(tournament, "niets"))
    assert idle.status == Game.Status.FINISHED and idle.bot_finished
    assert idle.round_scores == par_scores(tournament)
    replays_clean(idle)


def test_the_round_south_left_after_the_bots_own_move_is_par_too(
    tournament: Tournament,
) -> None:
    game = joined(tournament, "als-de-bot")
    module = module_of(game.game)
    state = module.state_from_json(game.state)
    game = move(game, dict(module.bot_action(state, level=game.bot_level).to_json()))
    (game,) = closed(tournament, game)
    assert game.round_scores == par_scores(tournament)
    replays_clean(game)


def test_a_round_south_played_otherwise_is_played_on_from_there(tournament: Tournament) -> None:
    game = joined(tournament, "anders")
    game = move(game, other_than_the_bot(game))
    still_in_it = game.round_index == 0 and game.status == Game.Status.PLAYING
    (game,) = closed(tournament, game)
    replays_clean(game)
    row = game.played_rounds.get(round_index=0)
    # one action of South's own, the bot's after it (unless a bot went out at once)
    assert row.bot_from == (1 if still_in_it else None)
    # The rounds dealt after it are the bot's from their deal: par.
    assert game.round_scores[1:] == par_scores(tournament)[1:]


def test_the_close_plays_a_bots_round_once_not_once_per_game(
    tournament: Tournament, monkeypatch: pytest.MonkeyPatch
) -> None:
    one = joined(tournament, "een")
    calls = {"n": 0}
    real = match.bot_move

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls["n"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr("tournaments.games.bot_move", counted)
    monkeypatch.setattr("tournaments.services.runner.bot_move", counted)
    closed_one = closed(tournament, one)[0]
    alone = calls["n"]
    assert alone > 0

    t2 = factories.make_tournament(rounds=3, secret=tournament.secret_bytes)
    par_services.tournament_par_compute(tournament_id=t2.pk)
    games = [joined(t2, f"speler{i}") for i in range(6)]
    calls["n"] = 0
    finished = closed(t2, *games)
    # the same deals, bots and level: played already in this process
    assert calls["n"] == 0
    for g in finished:
        assert g.round_scores == closed_one.round_scores
        replays_clean(g)
