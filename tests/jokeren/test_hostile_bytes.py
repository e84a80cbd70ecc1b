"""NUL and other control characters (jokeren/guards.py ControlCharacterMiddleware): 400
before any view runs, the API's error body under /api/, the "bad request" page
elsewhere; never a 500, nothing stored; tab, LF and CR still go through in form fields."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import ApiToken, Tournament
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

#: Every C0 control character, percent-encoded.
CONTROLS = [f"%{c:02X}" for c in range(0x20)]


def _api_error(response: Any) -> dict[str, Any]:
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    error: dict[str, Any] = json.loads(response.content)["error"]
    assert error["code"] == "malformed_request"
    assert error["nl"] and error["en"] and error["nl"] != error["en"]
    assert error["message"] in (error["nl"], error["en"])
    return error


def _bad_request_page(response: Any) -> None:
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("control", CONTROLS)
def test_a_control_character_in_the_query_of_a_page_is_400(
    client: Client, tournament: Tournament, control: str
) -> None:
    for name in ("tournament_detail", "tournament_leaderboard"):
        url = reverse(name, args=[tournament.pk])
        _bad_request_page(client.get(f"{url}?q=a{control}b"))
        _bad_request_page(client.get(f"{url}?a{control}=1"))


@pytest.mark.parametrize("control", ["%00", "%01", "%09", "%0A", "%1F"])
def test_a_control_character_in_the_query_of_the_api_is_the_error_body(
    client: Client, tournament: Tournament, control: str
) -> None:
    url = reverse("api_tournament_standings", args=[tournament.pk])
    _api_error(client.get(f"{url}?q={control}"))
    _api_error(client.get(f"{url}?page=1{control}"))


def test_normal_queries_are_answered_as_before(client: Client, tournament: Tournament) -> None:
    for url in (
        reverse("tournament_detail", args=[tournament.pk]) + "?q=bram%20%C3%A9%2B1",
        reverse("tournament_leaderboard", args=[tournament.pk]) + "?q=%3D1%2B1&page=1",
        reverse("api_tournament_standings", args=[tournament.pk]) + "?q=a%25b",
    ):
        assert client.get(url).status_code == 200, url


def test_a_token_named_with_nul_is_refused_and_not_stored(client: Client, user: Any) -> None:
    client.force_login(user)
    url = reverse("account")
    for name in ("a\x00b", "a\x1bb", "\x07"):
        response = client.post(url, {"action": "create_token", "name": name})
        _bad_request_page(response)
    # the same as multipart
    response = client.post(url, {"action": "create_token", "name": "a\x00b"}, format="multipart")
    _bad_request_page(response)
    assert not ApiToken.objects.exists()
    # a tab, a line feed and a carriage return are text: the form takes them
    response = client.post(url, {"action": "create_token", "name": "mijn\tbot\r\n"})
    assert response.status_code in (200, 302)
    assert ApiToken.objects.get().name == "mijn\tbot"


def test_a_control_character_in_a_form_field_name_is_400(client: Client, user: Any) -> None:
    client.force_login(user)
    response = client.post(reverse("account"), {"action": "create_token", "na\tme": "x"})
    _bad_request_page(response)


@pytest.mark.parametrize("escape", ["\\u0000", "\\u0001", "\\u001b", "\\u000B"])
def test_an_escaped_control_character_in_a_json_string_is_the_error_body(
    client: Client, user: Any, tournament: Tournament, escape: str
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    seq = game.seq
    client.force_login(user)
    body = f'{{"seq": {seq}, "action": {{"type": "draw", "source": "st{escape}ock"}}}}'
    response = client.post(
        reverse("api_game_move", args=[game.pk]), data=body, content_type="application/json"
    )
    _api_error(response)
    game.refresh_from_db()
    assert game.seq == seq


def test_a_backslash_before_u0001_as_text_is_not_a_control_character(
    client: Client, user: Any, tournament: Tournament
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    client.force_login(user)
    body = json.dumps({"seq": game.seq, "action": {"type": "draw", "source": "\\u0001"}})
    assert "\\\\u0001" in body
    response = client.post(
        reverse("api_game_move", args=[game.pk]), data=body, content_type="application/json"
    )
    # the engine's refusal of an unknown source, not the guard's
    assert response.status_code == 400
    assert json.loads(response.content)["error"]["code"] != "malformed_request"
