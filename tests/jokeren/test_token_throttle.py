"""Failed bearer-token authentication is throttled per client address
(jokeren/guards.py TokenThrottleMiddleware, ``TOKEN_FAIL_RATE_LIMIT``)."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments import tokens

pytestmark = pytest.mark.django_db

ATTACKER = "198.51.100.7"
NEIGHBOUR = "203.0.113.9"


@pytest.fixture
def limit(settings: Any) -> int:
    settings.TOKEN_FAIL_RATE_LIMIT = "5/m"
    settings.TRUSTED_PROXIES = []
    return 5


def _get(key: str, ip: str) -> Any:
    return Client().get(
        reverse("api_tournaments"), HTTP_AUTHORIZATION=f"Bearer {key}", REMOTE_ADDR=ip
    )


def _guess() -> str:
    return tokens.TOKEN_PREFIX + secrets.token_urlsafe(32)


def test_unknown_tokens_from_one_address_get_429_with_retry_after(limit: int, user: Any) -> None:
    for _ in range(limit):
        assert _get(_guess(), ATTACKER).status_code == 401
    refused = _get(_guess(), ATTACKER)
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 60
    error = json.loads(refused.content)["error"]
    assert error["code"] == "rate_limited"
    assert error["nl"] != error["en"]
    # the whole address waits, a right token too (no more guessing from it)
    key = tokens.token_create(user=user, name="bot").key
    assert _get(key, ATTACKER).status_code == 429
    # another address is not held up, with a right or a wrong token
    assert _get(key, NEIGHBOUR).status_code == 200
    assert _get(_guess(), NEIGHBOUR).status_code == 401


def test_good_tokens_and_requests_without_one_are_not_counted(limit: int, user: Any) -> None:
    key = tokens.token_create(user=user, name="bot").key
    for _ in range(limit * 3):
        assert _get(key, ATTACKER).status_code == 200
        assert Client().get(reverse("api_tournaments"), REMOTE_ADDR=ATTACKER).status_code == 200
    for _ in range(limit):
        assert _get(_guess(), ATTACKER).status_code == 401
    assert _get(_guess(), ATTACKER).status_code == 429


def test_the_limit_can_be_turned_off(settings: Any) -> None:
    settings.TOKEN_FAIL_RATE_LIMIT = ""
    assert all(_get(_guess(), ATTACKER).status_code == 401 for _ in range(30))


def test_the_default_limit_comes_from_the_settings(settings: Any) -> None:
    limit = int(settings.TOKEN_FAIL_RATE_LIMIT.split("/")[0])
    codes = [_get(_guess(), ATTACKER).status_code for _ in range(limit + 1)]
    assert codes == [401] * limit + [429]
