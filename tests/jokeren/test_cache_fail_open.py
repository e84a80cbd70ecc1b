"""The Redis cache fails open (jokeren/cache.py): on a Redis of the test's own, killed
and started again. In-process, with the site's settings pointed at that Redis: sessions
(``cached_db``) still load from the database, rate limits limit no one, pages and the API
answer as usual; once Redis is back the cache is used again."""

from __future__ import annotations

import json
from typing import Any

import factories
import pytest
from django.core.cache import cache, caches
from django.test import Client
from django.urls import reverse
from own_redis import OwnRedis

from jokeren import cache as site_cache
from jokeren.cache import RedisCache
from tournaments import games, tokens
from tournaments.models import Tournament
from tournaments.services import entries as entry_services


@pytest.fixture
def redis_site(settings: Any, own_redis: OwnRedis) -> OwnRedis:
    """The site's cache and sessions on ``own_redis``, rate limits on, no pause after a
    failure (each call tries Redis)."""
    settings.CACHES = {
        "default": {
            "BACKEND": "jokeren.cache.RedisCache",
            "LOCATION": own_redis.url(),
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        }
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    settings.CACHE_RETRY_SECONDS = 0
    settings.MOVE_RATE_LIMIT = "2/m"
    settings.TOKEN_FAIL_RATE_LIMIT = "2/m"
    assert isinstance(caches["default"], RedisCache)
    return own_redis


def _cache(own_redis: OwnRedis) -> RedisCache:
    return RedisCache(
        own_redis.url(),
        {"OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}},
    )


def test_each_call_fails_open_and_is_counted(settings: Any, own_redis: OwnRedis) -> None:
    settings.CACHE_RETRY_SECONDS = 0
    c = _cache(own_redis)
    c.set("k", 1)
    assert c.get("k") == 1
    assert c.add("n", 0) and c.incr("n") == 1
    own_redis.stop()
    before = site_cache.cache_errors()
    assert c.get("k", "default") == "default"
    assert c.get_many(["k", "n"]) == {}
    assert c.add("other", 1) is False
    with pytest.raises(ValueError):
        c.incr("n")
    assert c.has_key("k") is False
    c.set("k", 2)
    c.set_many({"a": 1})
    c.delete("k")
    c.delete_many(["k"])
    assert c.touch("k") is False
    assert site_cache.cache_errors() == before + 10
    with pytest.raises(site_cache.UNREACHABLE):
        c.ping()
    own_redis.start()
    c.set("k", 3)
    assert c.get("k") == 3
    c.ping()


def test_after_a_failure_redis_is_left_alone_for_the_pause(
    settings: Any, own_redis: OwnRedis
) -> None:
    settings.CACHE_RETRY_SECONDS = 3600
    c = _cache(own_redis)
    c.set("k", 1)
    own_redis.stop()
    assert c.get("k") is None
    own_redis.start()
    # Redis is back, but the cache does not ask it again before the pause ends
    assert c.get("k") is None
    settings.CACHE_RETRY_SECONDS = 0
    c = _cache(own_redis)
    c.set("k", 4)
    assert c.get("k") == 4


@pytest.mark.django_db
def test_pages_sessions_and_rate_limits_with_redis_down(
    redis_site: OwnRedis, user: Any, tournament: Tournament
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    player = Client()
    player.force_login(user)
    key = tokens.token_create(user=user, name="bot").key
    pages = [
        reverse("home"),
        reverse("tournament_detail", args=[tournament.pk]),
        reverse("tournament_leaderboard", args=[tournament.pk]),
        reverse("play", args=[game.pk]),
        reverse("api_tournament_standings", args=[tournament.pk]),
        reverse("api_game", args=[game.pk]),
    ]
    cache.set("probe", 1)
    assert cache.get("probe") == 1
    redis_site.stop()
    for url in pages:
        response = player.get(url)
        assert response.status_code == 200, (url, response.status_code)
        # the session was read from the database: still logged in
        assert response.wsgi_request.user == user
    assert Client().get(reverse("home")).status_code == 200
    # the move rate limit (2 a minute here) limits no one without its counter
    moves = 0
    while moves < 4 and _south_to_play(game):
        response = player.post(
            reverse("api_game_move", args=[game.pk]),
            data=json.dumps({"seq": game.seq, "action": factories.south_action(game)}),
            content_type="application/json",
        )
        assert response.status_code == 200, response.content[:300]
        moves += 1
    assert moves >= 1
    # token requests too, and unknown tokens are not throttled without the counter
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    assert Client().get(reverse("api_game", args=[game.pk]), **bearer).status_code == 200
    wrong = {"HTTP_AUTHORIZATION": "Bearer jk_wrong"}
    assert [Client().get(reverse("api_tournaments"), **wrong).status_code for _ in range(4)] == [
        401
    ] * 4
    # a log-in (throttled without a counter: not at all) makes a session in the database
    fresh = Client()
    response = fresh.post(
        reverse("login"), {"login": user.username, "password": factories.PASSWORD}
    )
    assert response.status_code == 302
    assert fresh.get(reverse("home")).wsgi_request.user == user
    redis_site.start()
    assert player.get(pages[0]).status_code == 200
    cache.set("probe", 2)
    assert cache.get("probe") == 2


def _south_to_play(game: Any) -> bool:
    game.refresh_from_db()
    module = games.module_of(game.game)
    return bool(
        game.status == "playing"
        and module.state_from_json(game.state).current_player == games.PLAYER_SEAT
    )
