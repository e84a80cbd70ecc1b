"""A database connection lost in the middle of a request (jokeren/resilience.py): the
view runs once more on a new connection when the request is safe to repeat (GET, the
move POST), otherwise, or when it fails again, 503 with ``Retry-After``; never a 500.

The connection really breaks: on PostgreSQL the request's own backend is terminated
(``pg_terminate_backend`` from a second connection) just before the chosen query; on
SQLite a second connection holds the database's write lock with the request's busy
timeout at zero ("database is locked"), released when the middleware says it runs the
view again."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import factories
import psycopg
import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tournaments import tokens
from tournaments.models import Entry, Game, Tournament
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db(transaction=True)


class Breaker:
    """Breaks the connection before each of the next ``times`` queries that contain
    ``marker`` (on SQLite, for a write, its ``BEGIN IMMEDIATE``: the write lock is then
    the request's own); ``release()`` undoes what holds it broken (SQLite's lock)."""

    def __init__(self, marker: str, times: int, *, write: bool = False) -> None:
        if write and connection.vendor == "sqlite":
            marker = "BEGIN"
        self.marker, self.left, self.broken = marker, times, 0
        self.lock: sqlite3.Connection | None = None

    def __call__(self, execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        if self.left > 0 and self.marker in sql:
            self.left -= 1
            self.broken += 1
            self.break_now()
        return execute(sql, *args)

    def break_now(self) -> None:
        if connection.vendor == "postgresql":
            pid = connection.connection.info.backend_pid
            db = connection.settings_dict
            with psycopg.connect(
                host=db["HOST"] or "127.0.0.1",
                port=int(db["PORT"] or 5432),
                user=db["USER"],
                password=db["PASSWORD"] or None,
                dbname=db["NAME"],
                autocommit=True,
            ) as other:
                other.execute("SELECT pg_terminate_backend(%s)", [pid])
        else:
            self.release()
            connection.connection.execute("PRAGMA busy_timeout = 0")
            lock = sqlite3.connect(connection.settings_dict["NAME"], isolation_level=None)
            lock.execute("BEGIN EXCLUSIVE")
            self.lock = lock

    def release(self) -> None:
        if self.lock is not None:
            self.lock.execute("ROLLBACK")
            self.lock.close()
            self.lock = None


class ReleaseOnRetry(logging.Handler):
    def __init__(self, breaker: Breaker) -> None:
        super().__init__()
        self.breaker = breaker

    def emit(self, record: logging.LogRecord) -> None:
        if "running it again" in record.getMessage():
            self.breaker.release()


@pytest.fixture
def breaking() -> Iterator[Callable[..., Breaker]]:
    made: list[Breaker] = []
    logger = logging.getLogger("jokeren.resilience")
    handlers: list[logging.Handler] = []

    def make(marker: str, times: int, *, write: bool = False) -> Breaker:
        breaker = Breaker(marker, times, write=write)
        made.append(breaker)
        handler = ReleaseOnRetry(breaker)
        logger.addHandler(handler)
        handlers.append(handler)
        return breaker

    yield make
    for breaker in made:
        breaker.release()
    for handler in handlers:
        logger.removeHandler(handler)


def _client() -> Client:
    return Client(raise_request_exception=False)


def test_a_page_read_is_run_again(breaking: Callable[..., Breaker], tournament: Tournament) -> None:
    breaker = breaking("tournaments_tournament", 1)
    with connection.execute_wrapper(breaker):
        response = _client().get(reverse("tournament_detail", args=[tournament.pk]))
    assert breaker.broken == 1
    assert response.status_code == 200
    assert tournament.name in response.content.decode()


def test_the_move_is_run_again_and_applied_once(
    breaking: Callable[..., Breaker], tournament: Tournament, user: Any
) -> None:
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    player = _client()
    player.force_login(user)
    seq = game.seq
    breaker = breaking("FOR UPDATE", 1, write=True)
    with connection.execute_wrapper(breaker):
        response = player.post(
            reverse("api_game_move", args=[game.pk]),
            data=json.dumps({"seq": seq, "action": factories.south_action(game)}),
            content_type="application/json",
        )
    assert breaker.broken == 1
    assert response.status_code == 200, response.content[:300]
    game.refresh_from_db()
    assert game.seq == json.loads(response.content)["seq"] > seq
    # the same move again: stale, not applied twice
    again = player.post(
        reverse("api_game_move", args=[game.pk]),
        data=json.dumps({"seq": seq, "action": factories.south_action(game)}),
        content_type="application/json",
    )
    assert again.status_code == 409


def test_twice_broken_is_503_with_retry_after(
    breaking: Callable[..., Breaker], tournament: Tournament
) -> None:
    breaker = breaking("tournaments_tournament", 2)
    with connection.execute_wrapper(breaker):
        page = _client().get(reverse("tournament_detail", args=[tournament.pk]))
    breaker.release()
    assert breaker.broken == 2
    assert page.status_code == 503
    assert int(page["Retry-After"]) > 0
    breaker = breaking("tournaments_tournament", 2)
    with connection.execute_wrapper(breaker):
        api = _client().get(reverse("api_tournament", args=[tournament.pk]))
    breaker.release()
    assert api.status_code == 503
    assert int(api["Retry-After"]) > 0
    error = json.loads(api.content)["error"]
    assert error["code"] == "unavailable" and error["nl"] != error["en"]
    # and then the site serves again
    assert _client().get(reverse("tournament_detail", args=[tournament.pk])).status_code == 200


def test_a_post_that_is_not_safe_to_repeat_is_503_and_changes_nothing(
    breaking: Callable[..., Breaker], tournament: Tournament, user: Any
) -> None:
    client = _client()
    client.force_login(user)
    breaker = breaking("tournaments_entry", 1, write=True)
    with connection.execute_wrapper(breaker):
        response = client.post(reverse("tournament_join", args=[tournament.pk]))
    breaker.release()
    assert breaker.broken == 1
    assert response.status_code == 503
    assert not Entry.objects.filter(user=user).exists()
    assert not Game.objects.filter(user=user).exists()


def test_any_other_failure_under_the_api_has_the_error_body(
    tournament: Tournament,
) -> None:
    def fail(execute: Callable[..., Any], sql: str, *args: Any) -> Any:
        if "tournaments_tournament" in sql:
            raise ZeroDivisionError("a bug")
        return execute(sql, *args)

    with connection.execute_wrapper(fail):
        api = _client().get(reverse("api_tournament", args=[tournament.pk]))
        page = _client().get(reverse("tournament_detail", args=[tournament.pk]))
    assert api.status_code == 500
    error = json.loads(api.content)["error"]
    assert error["code"] == "server_error" and error["nl"] != error["en"]
    assert page.status_code == 500
    assert page["Content-Type"].startswith("text/html")


def test_a_read_whose_token_lookup_broke_is_run_again_from_the_middleware(
    breaking: Callable[..., Breaker], tournament: Tournament, user: Any
) -> None:
    """The bearer token is read by a middleware before the view: a connection broken
    there is run again from ``RequestRetryMiddleware``, once."""
    key = tokens.token_create(user=user, name="bot").key
    breaker = breaking("tournaments_apitoken", 1)
    with connection.execute_wrapper(breaker):
        response = _client().get(
            reverse("api_tournament", args=[tournament.pk]),
            headers={"Authorization": f"Bearer {key}"},
        )
    assert breaker.broken == 1
    assert response.status_code == 200, response.content[:300]
    assert json.loads(response.content)["name"] == tournament.name
    # broken twice: run again once, then 503 with the error body
    breaker = breaking("tournaments_apitoken", 2)
    with connection.execute_wrapper(breaker):
        response = _client().get(
            reverse("api_tournament", args=[tournament.pk]),
            headers={"Authorization": f"Bearer {key}"},
        )
    breaker.release()
    assert breaker.broken == 2
    assert response.status_code == 503
    assert json.loads(response.content)["error"]["code"] == "unavailable"


def test_a_post_whose_token_lookup_broke_is_not_run_again_unless_it_is_a_move(
    breaking: Callable[..., Breaker], tournament: Tournament, user: Any
) -> None:
    key = tokens.token_create(user=user, name="bot").key
    bearer = {"Authorization": f"Bearer {key}"}
    breaker = breaking("tournaments_apitoken", 1)
    with connection.execute_wrapper(breaker):
        response = _client().post(
            reverse("api_tournament_join", args=[tournament.pk]), headers=bearer
        )
    breaker.release()
    assert breaker.broken == 1
    assert response.status_code == 503
    assert not Entry.objects.filter(user=user).exists()
    # a move is: its seq makes it safe
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    breaker = breaking("tournaments_apitoken", 1)
    with connection.execute_wrapper(breaker):
        response = _client().post(
            reverse("api_game_move", args=[game.pk]),
            data=json.dumps({"seq": game.seq, "action": factories.south_action(game)}),
            content_type="application/json",
            headers=bearer,
        )
    assert breaker.broken == 1
    assert response.status_code == 200, response.content[:300]
    game.refresh_from_db()
    assert game.seq == json.loads(response.content)["seq"]
