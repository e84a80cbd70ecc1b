"""Personal API tokens (Bearer) and bot accounts."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from tournaments import errors, permissions, tokens
from tournaments import series as series_services
from tournaments.models import ApiToken, Tournament
from tournaments.services import entries as entry_services
from tournaments.services import tournaments as tournament_services


def _bearer(key: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {key}"}


@pytest.fixture
def key(user: Any) -> str:
    return tokens.token_create(user=user, name="mijn bot").key


def test_only_the_hash_of_a_token_is_stored(user: Any) -> None:
    new = tokens.token_create(user=user, name="script")
    stored = ApiToken.objects.get(pk=new.token.pk)
    assert stored.key_hash == hashlib.sha256(new.key.encode()).hexdigest()
    assert new.key not in json.dumps(list(ApiToken.objects.values()), default=str)
    assert new.key.startswith(stored.prefix)


def test_a_token_plays_a_game_without_session_or_csrf(
    user: Any, key: str, tournament: Tournament
) -> None:
    client = Client(enforce_csrf_checks=True)
    joined = client.post(reverse("api_tournament_join", args=[tournament.pk]), **_bearer(key))
    assert joined.status_code == 201
    game_id = joined.json()["game"]
    game = client.get(reverse("api_game", args=[game_id]), **_bearer(key)).json()
    assert game["your_turn"]
    from tournaments.models import Game

    action = factories.south_action(Game.objects.get(pk=game_id))
    moved = client.post(
        reverse("api_game_move", args=[game_id]),
        data=json.dumps({"seq": game["seq"], "action": action}),
        content_type="application/json",
        **_bearer(key),
    )
    assert moved.status_code == 200
    assert moved.json()["events"][0]["seat"] == 0


def test_a_session_post_without_csrf_is_still_refused(user: Any, tournament: Tournament) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    response = client.post(reverse("api_tournament_join", args=[tournament.pk]))
    assert response.status_code == 403
    assert not tournament.entries.exists()


def test_a_revoked_or_unknown_token_gets_401(user: Any, key: str) -> None:
    token = ApiToken.objects.get(user=user)
    tokens.token_revoke(user=user, token_id=token.pk)
    for bad in (key, "jk_nonsense"):
        response = Client().get(reverse("api_tournaments"), **_bearer(bad))
        assert response.status_code == 401
        assert response.json()["error"]["code"] == "invalid_token"
        assert response.json()["error"]["nl"] != response.json()["error"]["en"]


def test_another_users_token_cannot_be_revoked(user: Any, other_user: Any, key: str) -> None:
    token = ApiToken.objects.get(user=user)
    with pytest.raises(tokens.TokenNotFound):
        tokens.token_revoke(user=other_user, token_id=token.pk)
    assert ApiToken.objects.get(pk=token.pk).revoked_at is None


def test_a_token_does_not_open_the_html_pages(key: str) -> None:
    response = Client().get(reverse("my_games"), **_bearer(key))
    assert response.status_code == 302


def test_token_moves_count_against_the_move_rate_limit(
    user: Any, key: str, tournament: Tournament, settings: Any
) -> None:
    settings.MOVE_RATE_LIMIT = "1/m"
    client = Client()
    game_id = client.post(
        reverse("api_tournament_join", args=[tournament.pk]), **_bearer(key)
    ).json()["game"]
    codes = []
    for _ in range(2):
        codes.append(
            client.post(
                reverse("api_game_move", args=[game_id]),
                data=json.dumps({"seq": 999, "action": {"type": "draw", "source": "stock"}}),
                content_type="application/json",
                **_bearer(key),
            ).status_code
        )
    assert codes == [409, 429]


def test_the_account_page_shows_a_new_token_once(client: Any, user: Any) -> None:
    client.force_login(user)
    page = client.post(reverse("account"), {"action": "create_token", "name": "bot"})
    token = ApiToken.objects.get(user=user)
    body = page.content.decode()
    assert 'id="new-token"' in body
    key = body.split('id="new-token">')[1].split("<")[0]
    assert hashlib.sha256(key.encode()).hexdigest() == token.key_hash
    assert key not in client.get(reverse("account")).content.decode()
    client.post(reverse("account"), {"action": "revoke_token", "token": token.pk})
    assert ApiToken.objects.get(pk=token.pk).revoked_at is not None


# --- Bot accounts ---------------------------------------------------------------------------


def test_a_bot_account_is_flagged_on_the_leaderboard(
    user: Any, other_user: Any, tournament: Tournament, client: Any
) -> None:
    series_services.account_mark_bot(user=user)
    entry_services.entry_join(tournament_id=tournament.pk, user=user)
    entry_services.entry_join(tournament_id=tournament.pk, user=other_user)
    rows = client.get(reverse("api_tournament_standings", args=[tournament.pk])).json()
    assert {r["player"]: r["bot_account"] for r in rows["standings"]} == {
        "speler": True,
        "tegenstander": False,
    }
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert page.count('class="badge bot-account"') == 1


def test_a_tournament_without_bots_refuses_a_bot_account(
    user: Any, other_user: Any, organizer: Any, key: str
) -> None:
    t = factories.make_tournament(created_by=organizer)
    tournament_services.tournament_update(tournament=t, admits_bots=False)
    series_services.account_mark_bot(user=user)
    response = Client().post(reverse("api_tournament_join", args=[t.pk]), **_bearer(key))
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "bots_not_admitted"
    assert not t.entries.exists()
    entry_services.entry_join(tournament_id=t.pk, user=other_user)


def test_an_account_that_has_played_cannot_become_a_bot(user: Any, tournament: Tournament) -> None:
    entry_services.entry_join(tournament_id=tournament.pk, user=user)
    with pytest.raises(errors.NotABot):
        series_services.account_mark_bot(user=user)
    assert not permissions.is_bot(user)


def test_the_tournament_form_sets_admits_bots(organizer: Any, client: Any) -> None:
    client.force_login(organizer)
    t = factories.make_tournament(created_by=organizer)
    form = client.get(reverse("tournament_edit", args=[t.pk])).content.decode()
    assert 'name="admits_bots"' in form
