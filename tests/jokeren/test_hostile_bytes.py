"""NUL and other control characters (jokeren/guards.py ControlCharacterMiddleware): 400
before any view runs, the API's error body under /api/, the "bad request" page
elsewhere, and in the site's forms the field's own error with a 400 (common/forms.py);
never a 500, nothing stored; tab, LF and CR still go through in form fields."""

from __future__ import annotations

import json
from typing import Any

import factories
import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournaments.models import ApiToken, Game, Series, Tournament
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


# --- Forms: the field's own error, with a 400 ---------------------------------------------

FIELD_ERROR_NL = "Dit veld bevat een stuurteken (zoals NUL): laat het weg."


def _field_error(response: Any, field: str) -> None:
    """The form shown again, 400, with ``field``'s error (Dutch, the default language)."""
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"].startswith("text/html")
    form = response.context["form"]
    assert [e.code for e in form.errors.as_data()[field]] == ["control_character"]
    assert FIELD_ERROR_NL in response.content.decode()


@pytest.mark.parametrize("control", ["\x00", "\x01", "\x1b", "\x0b"])
def test_a_control_character_in_the_sign_up_form_is_the_field_s_error(
    client: Client, control: str
) -> None:
    data = {
        "username": f"bram{control}",
        "email": "bram@example.org",
        "password1": "ruit-boer-42!",
        "password2": "x",
    }
    _field_error(client.post(reverse("signup"), data), "username")
    assert not User.objects.exists()


@pytest.mark.parametrize("control", ["\x00", "\x07"])
def test_a_control_character_in_the_log_in_form_is_the_field_s_error_not_a_log_in(
    client: Client, user: Any, control: str
) -> None:
    user.set_password("ruit-boer-42!")
    user.save()
    data = {"login": user.username, "password": f"ruit-boer-42!{control}"}
    _field_error(client.post(reverse("login"), data), "password")
    assert "_auth_user_id" not in client.session
    data = {"login": f"{user.username}{control}", "password": "ruit-boer-42!"}
    _field_error(client.post(reverse("login"), data), "login")
    assert "_auth_user_id" not in client.session
    # the right password still logs in
    data = {"login": user.username, "password": "ruit-boer-42!"}
    assert client.post(reverse("login"), data).status_code == 302


def test_a_control_character_in_the_organizer_s_form_is_the_field_s_error(
    client: Client, organizer: Any
) -> None:
    client.force_login(organizer)
    data = factories.tournament_form_data(name="Avond\x00 van de NUL")
    _field_error(client.post(reverse("tournament_create"), data), "name")
    data = factories.tournament_form_data(rounds="4\x01")
    _field_error(client.post(reverse("tournament_create"), data), "rounds")
    assert not Tournament.objects.filter(created_by=organizer).exists()
    # the same form without it is taken
    response = client.post(reverse("tournament_create"), factories.tournament_form_data())
    assert response.status_code == 302
    assert Tournament.objects.filter(created_by=organizer).count() == 1


def test_another_preset_loaded_leaves_out_a_value_with_a_control_character(
    client: Client, organizer: Any
) -> None:
    client.force_login(organizer)
    data = factories.tournament_form_data(name="Avond\x1b", rounds="5", load_preset="1")
    response = client.post(reverse("tournament_create"), data)
    assert response.status_code == 200
    assert response.context["form"]["rounds"].value() == "5"
    assert not response.context["form"]["name"].value()
    assert "\x1b" not in response.content.decode()


def test_a_control_character_in_the_series_form_is_the_field_s_error(
    client: Client, organizer: Any
) -> None:
    client.force_login(organizer)
    response = client.post(reverse("series_create"), {"name": "Reeks\x00", "best_k": "4"})
    _field_error(response, "name")
    assert not Series.objects.exists()


def test_a_control_character_in_the_practice_form_is_the_field_s_error(
    client: Client, user: Any
) -> None:
    client.force_login(user)
    response = client.post(reverse("practice"), {"preset": "jokeren:jokeren7\x00"})
    _field_error(response, "preset")
    assert not Game.objects.exists()
