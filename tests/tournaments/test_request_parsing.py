"""Request bodies the play API cannot read get a clear 4xx with the error body of
docs/api.md, never a 500 (issue 8, items 6 and 7): multipart and other non-JSON bodies,
deeply nested JSON, oversized bodies, NaN, huge numbers; API 404 and 405 answers carry the
error body too, and ids too large for the database are 404."""

from __future__ import annotations

import json
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from tournaments import api
from tournaments.models import Game, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

#: An id no database integer column can hold (PostgreSQL: DataError; SQLite: OverflowError).
HUGE_ID = "99999999999999999999"


@pytest.fixture
def game(tournament: Tournament, user: Any) -> Game:
    return entry_services.entry_join(tournament_id=tournament.pk, user=user).game


@pytest.fixture
def player(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def _moves_url(game: Game) -> str:
    return reverse("api_game_move", args=[game.pk])


def _assert_error(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The docs/api.md error body: ``{"error": {"code", "nl", "en", "message"}}``."""
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert set(error) >= {"code", "nl", "en", "message"}
    assert all(isinstance(error[k], str) and error[k] for k in ("code", "nl", "en", "message"))
    assert error["nl"] != error["en"], "the Dutch text is missing"
    if code is not None:
        assert error["code"] == code
    return error


def _assert_unchanged(game: Game) -> None:
    seq, actions = game.seq, game.round_actions
    game.refresh_from_db()
    assert game.seq == seq and game.round_actions == actions


# --- Item 6: a multipart (form) body -----------------------------------------------------


def test_a_multipart_move_with_the_csrf_token_is_415_not_500(user: Any, game: Game) -> None:
    """The CSRF check reads a multipart body as a form first; the view then could no
    longer read ``request.body`` (``RawPostDataException``: a 500 before the fix)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get(reverse("play", args=[game.pk]))
    token = client.cookies["csrftoken"].value
    response = client.post(
        _moves_url(game),
        {"csrfmiddlewaretoken": token, "seq": str(game.seq), "action": "draw"},
    )
    _assert_error(response, 415, "unsupported_media_type")
    _assert_unchanged(game)


def test_a_broken_multipart_body_is_400_with_the_error_body(user: Any, game: Game) -> None:
    """The CSRF check parses a multipart body before the view: one it cannot parse is a
    400 with the API's error body (Django's HTML page before)."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get(reverse("play", args=[game.pk]))
    token = client.cookies["csrftoken"].value
    response = client.generic(
        "POST",
        _moves_url(game),
        b"--x\r\n" + b"A" * 20_000,
        "multipart/form-data; boundary=x",
        HTTP_X_CSRFTOKEN=token,
    )
    _assert_error(response, 400, "malformed_request")
    _assert_unchanged(game)


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", ""],
)
def test_a_body_that_is_not_declared_json_is_415(
    player: Client, game: Game, content_type: str
) -> None:
    body = json.dumps({"seq": game.seq, "action": factories.south_action(game)})
    response = player.post(_moves_url(game), data=body, content_type=content_type)
    _assert_error(response, 415, "unsupported_media_type")
    _assert_unchanged(game)


def test_json_with_a_charset_is_read(player: Client, game: Game) -> None:
    body = json.dumps({"seq": game.seq, "action": factories.south_action(game)})
    response = player.post(
        _moves_url(game), data=body, content_type="Application/JSON; charset=utf-8"
    )
    assert response.status_code == 200


# --- Item 7: deep nesting and other unreadable JSON ---------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        "[" * 5000,
        "{" * 5000,
        '{"seq": 0, "action": ' + "[" * 5000 + "]" * 5000 + "}",
        '{"seq": 0, "action": {"type": "discard", "card": ' + "[" * 900 + "]" * 900 + "}}",
        '{"seq": 0, "action": {"type": "lay_melds", "melds": ' + "[" * 100 + "]" * 100 + "}}",
    ],
    ids=["open-lists", "open-objects", "deep-action", "deep-card", "deep-melds"],
)
def test_deeply_nested_json_is_400(player: Client, game: Game, body: str) -> None:
    body = body.replace('"seq": 0', f'"seq": {game.seq}')
    response = player.post(_moves_url(game), data=body, content_type="application/json")
    _assert_error(response, 400, "malformed_request")
    _assert_unchanged(game)


@pytest.mark.parametrize(
    "body",
    [
        b" ",
        b"\xff\xfe\x00garbage",
        b"not json",
        b"[1, 2, 3]",
        b'"a string"',
        b"null",
        b'{"seq": NaN, "action": {}}',
        b'{"seq": Infinity, "action": {"type": "draw", "source": "stock"}}',
        b'{"seq": 0, "action": {"type": "discard", "card": NaN}}',
        b'{"seq": ' + b"9" * 5000 + b', "action": {}}',
        b'{"seq": 0, "action": {"type": "draw"}, "seq": 0',
        b'{"seq": 0, "action": {"type": "draw", "source": "\\u0000"}}',
        b'{"seq": 0, "action": {"type": "discard", "card": 1, "x": "\\ud800"}}',
    ],
)
def test_unreadable_json_is_400_malformed_request(player: Client, game: Game, body: bytes) -> None:
    body = body.replace(b'"seq": 0', f'"seq": {game.seq}'.encode())
    response = player.post(_moves_url(game), data=body, content_type="application/json")
    _assert_error(response, 400, "malformed_request")
    _assert_unchanged(game)


def test_an_oversized_body_is_413(player: Client, game: Game) -> None:
    action = {"type": "discard", "card": 1, "padding": "x" * api.MAX_BODY_BYTES}
    response = player.post(
        _moves_url(game),
        data=json.dumps({"seq": game.seq, "action": action}),
        content_type="application/json",
    )
    _assert_error(response, 413, "request_too_large")
    _assert_unchanged(game)


@pytest.mark.parametrize(
    "action",
    [
        {"type": "discard", "card": 10**4000},
        {"type": "discard", "card": -(10**30)},
        {"type": "discard", "card": 1.5},
        {"type": "discard", "card": 1e308},
        {"type": "discard", "card": "7h"},
        {"type": "discard", "card": [1]},
        {"type": "discard", "card": {"id": 1}},
        {"type": "discard", "card": True},
        {"type": "draw", "source": ["stock"]},
        {"type": ["draw"], "source": "stock"},
        {"type": {"a": 1}},
        {"type": "lay_off", "card": 1, "meld": 10**4000, "stands_for": None},
        {"type": "lay_off", "card": 1, "meld": 0, "stands_for": ["7h"]},
        {"type": "lay_off", "card": 1, "meld": 0, "stands_for": "\u00e9\u2603"},
        {"type": "swap_joker", "card": 1, "meld": -1},
        {"type": "lay_melds", "melds": "abc"},
        {"type": "lay_melds", "melds": [1, 2]},
        {"type": "lay_melds", "melds": [{"cards": 5}]},
        {"type": "lay_melds", "melds": [{"cards": "abc"}]},
        {"type": "lay_melds", "melds": [{"cards": {"1": 2}}]},
        {"type": "lay_melds", "melds": [{"cards": [1, 2, 3], "stands_for": "abc"}]},
        {"type": "lay_melds", "melds": [{"cards": [1, 2, 3], "stands_for": {"a": 1}}]},
        {"type": "lay_melds", "melds": [{"cards": [1, 2, 3], "stands_for": 7}]},
        {},
    ],
)
def test_weird_action_values_are_400_malformed_action(
    player: Client, game: Game, action: dict[str, Any]
) -> None:
    response = player.post(
        _moves_url(game),
        data=json.dumps({"seq": game.seq, "action": action}),
        content_type="application/json",
    )
    error = _assert_error(response, 400)
    assert error["code"] in ("malformed_action", "must_draw_first", "card_not_in_hand")
    _assert_unchanged(game)


# --- 404 and 405 of the API --------------------------------------------------------------


def test_api_404_has_the_error_body(player: Client, game: Game, other_user: Any) -> None:
    _assert_error(player.get(reverse("api_game", args=[999_999])), 404, "not_found")
    _assert_error(player.get("/api/no-such-thing/"), 404, "not_found")
    _assert_error(player.get("/api/games/1"), 404, "not_found")
    stranger = Client()
    stranger.force_login(other_user)
    _assert_error(stranger.get(reverse("api_game", args=[game.pk])), 404, "not_found")
    response = stranger.post(
        _moves_url(game),
        data=json.dumps({"seq": game.seq, "action": factories.south_action(game)}),
        content_type="application/json",
    )
    _assert_error(response, 404, "not_found")
    _assert_error(Client().get(reverse("api_tournament_standings", args=[0])), 404, "not_found")


def test_api_405_has_the_error_body(player: Client, game: Game) -> None:
    response = player.post(reverse("api_game", args=[game.pk]))
    _assert_error(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET"
    response = player.get(_moves_url(game))
    _assert_error(response, 405, "method_not_allowed")
    assert response["Allow"] == "POST"
    _assert_error(player.delete(_moves_url(game)), 405, "method_not_allowed")


def test_api_csrf_failure_has_the_error_body(user: Any, game: Game) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(
        _moves_url(game),
        data=json.dumps({"seq": game.seq, "action": factories.south_action(game)}),
        content_type="application/json",
    )
    _assert_error(response, 403, "csrf_failed")
    _assert_unchanged(game)
    # The site's pages keep Django's own CSRF page.
    response = client.post(reverse("tournament_join", args=[game.entry.tournament.pk]))
    assert response.status_code == 403
    assert not response["Content-Type"].startswith("application/json")


# --- Ids too large for the database ---------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [
        f"/api/games/{HUGE_ID}/",
        f"/api/games/{HUGE_ID}/moves/",
        f"/api/tournaments/{HUGE_ID}/standings/",
    ],
)
def test_a_huge_id_in_an_api_url_is_404(player: Client, path: str) -> None:
    if path.endswith("/moves/"):
        response = player.post(
            path,
            data=json.dumps({"seq": 0, "action": {"type": "draw", "source": "stock"}}),
            content_type="application/json",
        )
    else:
        response = player.get(path)
    _assert_error(response, 404, "not_found")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", f"/games/{HUGE_ID}/"),
        ("get", f"/games/{HUGE_ID}/replay/"),
        ("get", f"/tournaments/{HUGE_ID}/"),
        ("post", f"/tournaments/{HUGE_ID}/join/"),
        ("get", f"/tournaments/{HUGE_ID}/rules/"),
        ("get", f"/tournaments/{HUGE_ID}/verify/"),
        ("get", f"/tournaments/{HUGE_ID}/edit/"),
        ("get", f"/tournaments/{HUGE_ID}/entries/"),
        ("post", f"/tournaments/{HUGE_ID}/close/"),
    ],
)
def test_a_huge_id_in_a_page_url_is_404(
    client: Client, organizer: Any, method: str, path: str
) -> None:
    client.force_login(organizer)
    assert getattr(client, method)(path).status_code == 404


def test_a_huge_replay_round_is_404(client: Client, user: Any) -> None:
    t = factories.make_tournament()
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    closing_services.tournament_close(tournament_id=t.pk)
    game.refresh_from_db()
    url = reverse("game_replay", args=[game.pk])
    assert client.get(url, {"round": "0"}).status_code == 200
    for bad in (HUGE_ID, "-" + HUGE_ID, str(len(game.round_scores))):
        assert client.get(url, {"round": bad}).status_code == 404
    for unreadable in ("1e9", "x", ""):
        assert client.get(url, {"round": unreadable}).context["round_index"] == 0
