"""The bots' pace kept on the account (issue 35, item 1; docs/rules.md, "The card table"):
POST /api/account/pace/ and the table page that starts with it."""

from __future__ import annotations

import json
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Account
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

URL = "/api/account/pace/"


def _post(client: Client, body: Any) -> Any:
    return client.post(URL, data=json.dumps(body), content_type="application/json")


def test_the_address_is_the_api_s() -> None:
    assert reverse("api_account_pace") == URL


def test_a_pace_is_kept_on_the_account(user: Any) -> None:
    client = Client()
    client.force_login(user)
    answer = _post(client, {"pace": "instant"})
    assert answer.status_code == 200
    assert answer.json() == {"pace": "instant"}
    assert Account.objects.get(user=user).pace == "instant"
    assert _post(client, {"pace": "slow"}).json() == {"pace": "slow"}
    assert Account.objects.get(user=user).pace == "slow"


@pytest.mark.parametrize("body", [{"pace": "warp"}, {"pace": ""}, {"pace": 3}, {}, []])
def test_no_other_pace_and_nothing_changes(user: Any, body: Any) -> None:
    client = Client()
    client.force_login(user)
    _post(client, {"pace": "fast"})
    answer = _post(client, body)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["nl"] and error["en"] and error["nl"] != error["en"]
    assert Account.objects.get(user=user).pace == "fast"


def test_a_visitor_keeps_no_pace_on_the_site() -> None:
    answer = _post(Client(), {"pace": "fast"})
    assert answer.status_code == 403
    assert not Account.objects.exists()
    assert Client().get(URL).status_code == 405


def test_the_table_page_starts_with_the_account_s_pace(user: Any) -> None:
    game = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    client = Client()
    client.force_login(user)
    page = client.get(reverse("play", args=[game.pk])).content.decode()
    assert 'data-pace=""' in page  # never chosen: the browser's choice holds
    assert f'data-pace-url="{URL}"' in page
    _post(client, {"pace": "fast"})
    page = client.get(reverse("play", args=[game.pk])).content.decode()
    assert 'data-pace="fast"' in page
    other = factories.make_user("someone-else")
    assert not Account.objects.filter(user=other).exists()
