"""A practice game teaches (issue 23, item 9): a hint (the strong bot's choice in the
player's position, in words) and undo of the player's last action of the round. Never in
a tournament's game."""

from __future__ import annotations

import json
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from engine.match import bot_move
from tournaments import analysis
from tournaments.errors import PracticeOnly
from tournaments.games import module_of
from tournaments.models import Game, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.services import audit as audit_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import what_if as what_if_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


@pytest.fixture(autouse=True)
def _fixed_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Practice games dealt from the secrets SHA-256("practice-help:0"), ... in turn (not
    at random): every run plays the same deals."""
    factories.fixed_secrets(monkeypatch, "practice-help")


def _practice(user: Any, preset: str = "jokeren7") -> Game:
    """A practice game where it is the player's turn in round 0 (a bot before South may end
    it at once: then the next deal)."""
    for _ in range(20):
        game = entry_services.game_practice_start(user=user, game="jokeren", preset=preset)
        if game.round_index == 0 and game.current_state().current_player == 0:
            return game
    raise AssertionError("no practice game gave South a turn")


def _hint(client: Client, game: Game, **headers: Any) -> Any:
    return client.get(reverse("api_game_hint", args=[game.pk]), **headers)


def _undo(client: Client, game: Game, seq: Any) -> Any:
    return client.post(
        reverse("api_game_undo", args=[game.pk]),
        data=json.dumps({"seq": seq}),
        content_type="application/json",
    )


def _move(client: Client, game: Game) -> Any:
    game.refresh_from_db()
    body = {"seq": game.seq, "action": factories.south_action(game)}
    response = client.post(
        reverse("api_game_move", args=[game.pk]),
        data=json.dumps(body),
        content_type="application/json",
    )
    assert response.status_code == 200
    game.refresh_from_db()
    return response


def _get(client: Client, game: Game) -> dict[str, Any]:
    response = client.get(reverse("api_game", args=[game.pk]))
    assert response.status_code == 200
    return dict(response.json())


def test_a_hint_is_the_strong_bots_choice_in_words(player: Client, user: Any) -> None:
    game = _practice(user)
    module = module_of(game.game)
    for _turn in range(3):  # a draw, then a play decision, then the next draw
        game.refresh_from_db()
        state = game.current_state()
        best = bot_move(module, state, level=module.DEFAULT_BOT_LEVEL, version=game.bot_version)
        nl, en = analysis.advice(module, best.action)
        response = _hint(player, game)
        assert response.status_code == 200
        data = response.json()
        assert data["seq"] == game.seq
        assert data["action"] == best.action.to_json()
        assert data["text"] == data["text_nl"] == nl[0].upper() + nl[1:]
        assert data["text"].startswith("De sterke bot had ")
        assert data["text_en"] == en[0].upper() + en[1:]
        english = _hint(player, game, HTTP_ACCEPT_LANGUAGE="en").json()
        assert english["text"].startswith("The strong bot would have ")
        # the hint is a legal move of the position
        moved = player.post(
            reverse("api_game_move", args=[game.pk]),
            data=json.dumps({"seq": game.seq, "action": data["action"]}),
            content_type="application/json",
        )
        assert moved.status_code == 200
        if moved.json()["round"] != 0 or moved.json()["status"] != "playing":
            break


def test_hint_and_undo_are_refused_in_a_tournament_game(
    player: Client, user: Any, tournament: Tournament
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    response = _hint(player, game)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "practice_only"
    assert "oefenspel" in response.json()["error"]["nl"]
    _move(player, game)
    before = (game.seq, game.round_actions)
    response = _undo(player, game, game.seq)
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "practice_only"
    game.refresh_from_db()
    assert (game.seq, game.round_actions) == before
    with pytest.raises(PracticeOnly):
        play_services.game_undo(game_id=game.pk, user=user, seq=game.seq)


def test_hint_and_undo_of_someone_elses_game_are_404_and_anonymous_403(
    client: Client, user: Any, other_user: Any
) -> None:
    game = _practice(user)
    assert _hint(client, game).status_code == 403
    assert _undo(client, game, game.seq).status_code == 403
    client.force_login(other_user)
    assert _hint(client, game).status_code == 404
    assert _undo(client, game, game.seq).status_code == 404


def test_undo_restores_exactly_the_earlier_position(player: Client, user: Any) -> None:
    game = _practice(user)
    # One whole turn of South (the draw, then actions until the discard), each position
    # as GET shows it before South's action; the discard brings the bots' replies.
    before: list[dict[str, Any]] = []
    while not before or game.current_state().phase != "draw":
        before.append(_get(player, game))
        _move(player, game)
    assert game.round_index == 0 and len(before) >= 2
    assert game.seq > before[-1]["seq"] + 1  # the bots answered the discard
    # Each undo takes back one action of South's (the last with the bots' replies).
    for earlier in reversed(before):
        response = _undo(player, game, game.seq)
        assert response.status_code == 200
        assert response.json() == earlier
        assert _get(player, game) == earlier
        game.refresh_from_db()
    # Back at the round's start: nothing of the player's is left to take back.
    response = _undo(player, game, game.seq)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "nothing_to_undo"
    assert _get(player, game) == before[0]


def test_undo_needs_the_current_seq(player: Client, user: Any) -> None:
    game = _practice(user)
    _move(player, game)
    _move(player, game)
    seq = game.seq
    stale = _undo(player, game, seq - 1)
    assert stale.status_code == 409
    assert stale.json()["seq"] == seq
    game.refresh_from_db()
    assert game.seq == seq
    assert _undo(player, game, seq).status_code == 200
    # The same undo again is stale: it changed the game.
    repeated = _undo(player, game, seq)
    assert repeated.status_code == 409
    game.refresh_from_db()
    assert repeated.json()["seq"] == game.seq < seq
    # A move quoting the seq from before the undo is stale; the new one plays.
    moved = player.post(
        reverse("api_game_move", args=[game.pk]),
        data=json.dumps({"seq": seq, "action": factories.south_action(game)}),
        content_type="application/json",
    )
    assert moved.status_code == 409
    _move(player, game)
    bad = player.post(
        reverse("api_game_undo", args=[game.pk]),
        data=json.dumps({"seq": "1"}),
        content_type="application/json",
    )
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "malformed_request"


def test_undo_never_goes_back_across_a_round_end(player: Client, user: Any) -> None:
    game = _practice(user)
    while game.round_index == 0:
        _move(player, game)
    # The round that ended is kept; in the new round the player has not moved yet (the
    # bots before South may have).
    payload = _get(player, game)
    assert payload["your_turn"] and payload["round"] == game.round_index > 0
    assert not [e for e in payload["observation"]["log"] if e.get("seat") == 0]
    response = _undo(player, game, game.seq)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "nothing_to_undo"
    assert _get(player, game) == payload
    # One own move in the new round is taken back, not more.
    _move(player, game)
    assert _undo(player, game, game.seq).status_code == 200
    assert _get(player, game) == payload
    response = _undo(player, game, payload["seq"])
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "nothing_to_undo"
    game.refresh_from_db()
    assert game.played_rounds.count() == game.round_index


def test_a_finished_game_cannot_be_undone(player: Client, user: Any) -> None:
    game = _practice(user)
    _move(player, game)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    response = _undo(player, game, game.seq)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "game_finished"
    assert _hint(player, game).status_code == 400


def test_a_game_played_on_after_an_undo_passes_its_audit(player: Client, user: Any) -> None:
    game = _practice(user)
    game.rounds = 1
    Game.objects.filter(pk=game.pk).update(rounds=1)
    _move(player, game)
    _move(player, game)
    assert _undo(player, game, game.seq).status_code == 200
    game.refresh_from_db()
    game, _events = factories.play_to_end(game, user)
    assert game.status == "finished"
    assert audit_services.game_audit(game_id=game.pk).problems == []


def test_hint_and_undo_work_the_same_in_klaverjas(player: Client, user: Any) -> None:
    game = entry_services.game_practice_start(user=user, game="klaverjas", preset="rotterdams")
    while game.current_state().current_player != 0:  # bid and play until South's turn
        game = entry_services.game_practice_start(user=user, game="klaverjas", preset="rotterdams")
    module = module_of(game.game)
    state = game.current_state()
    best = bot_move(module, state, level=module.DEFAULT_BOT_LEVEL, version=game.bot_version)
    data = _hint(player, game).json()
    assert data["action"] == best.action.to_json()
    assert data["text"].startswith("De sterke bot had ")
    before = _get(player, game)
    _move(player, game)
    assert game.seq > before["seq"]
    response = _undo(player, game, game.seq)
    assert response.status_code == 200
    assert response.json() == before == _get(player, game)


def test_a_play_from_here_game_is_undone_back_to_its_start_not_further(
    player: Client, user: Any
) -> None:
    _tournament, source = factories.closed_game(username="bron")
    actions = replay_selectors.game_record(game=source).actions[0]
    # from South's third action of the round: two of South's actions lie before the start
    start = [i for i, a in enumerate(actions) if a.seat == 0][2]
    game = what_if_services.game_what_if_start(
        user=user, source_id=source.pk, round_index=0, start=start
    )
    assert game.current_state().current_player == 0
    at_start = _get(player, game)
    _move(player, game)
    assert _undo(player, game, game.seq).json() == at_start
    response = _undo(player, game, at_start["seq"])
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "nothing_to_undo"
    assert _get(player, game) == at_start
