"""``GET /health/`` (jokeren/health.py): each part ok or failed with a short reason, 200
while the database answers, 503 when it does not; no secret in it. Real parts: a Redis
of the test's own (stopped and started), the test database (its connection pointed
somewhere that does not answer, then back)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from own_redis import OwnRedis, free_port

from jokeren.celery import app

pytestmark = pytest.mark.django_db

PARTS = {"database", "cache", "broker", "workers"}


@pytest.fixture
def broker() -> Iterator[Any]:
    """Celery's configuration, tasks not inline, put back after the test."""
    eager, url = app.conf.task_always_eager, app.conf.broker_url
    app.conf.task_always_eager = False
    yield app.conf
    app.conf.task_always_eager, app.conf.broker_url = eager, url


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    server = OwnRedis()
    server.start()
    yield server
    server.stop()


def _health(**extra: Any) -> tuple[int, dict[str, Any]]:
    response = Client().get("/health/", **extra)
    assert response["Content-Type"] == "application/json"
    assert response["Cache-Control"] == "no-store"
    body = json.loads(response.content)
    assert set(body) >= PARTS
    for name in PARTS:
        assert body[name]["status"] in ("ok", "failed")
        if body[name]["status"] == "failed":
            assert 0 < len(body[name]["reason"]) <= 40
    return response.status_code, body


def test_all_well_with_tasks_inline() -> None:
    status, body = _health()
    assert status == 200
    assert body["ok"] is True
    assert {body[p]["status"] for p in PARTS} == {"ok"}


def test_answered_before_the_host_check_and_the_https_redirect(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["jokeren.example"]
    settings.SECURE_SSL_REDIRECT = True
    status, _body = _health(HTTP_HOST="10.0.0.5:8000")
    assert status == 200
    # any other address still goes through both: the host check's 400 page
    assert Client().get("/", HTTP_HOST="10.0.0.5:8000").status_code == 400
    assert Client().get("/", HTTP_HOST="jokeren.example").status_code == 301


def test_cache_broker_and_workers_down_the_site_still_serves(
    settings: Any, own_redis: OwnRedis, broker: Any
) -> None:
    password = "s3cret-pw"
    url = f"redis://:{password}@127.0.0.1:{own_redis.port}/0"
    settings.CACHES = {"default": {"BACKEND": "jokeren.cache.RedisCache", "LOCATION": url}}
    settings.CACHE_RETRY_SECONDS = 0
    dead = f"redis://:{password}@127.0.0.1:{free_port()}/0"
    broker.broker_url = dead
    own_redis.stop()
    response = Client().get("/health/")
    status, body = _health()
    assert status == 200
    assert body["ok"] is False
    assert body["database"] == {"status": "ok"}
    assert body["cache"]["status"] == "failed" and body["cache"]["errors"] >= 0
    assert body["broker"]["status"] == "failed"
    assert body["workers"]["status"] == "failed"
    text = response.content.decode()
    for secret in (password, str(own_redis.port), "127.0.0.1", settings.SECRET_KEY):
        assert secret not in text
    own_redis.start()
    _status, body = _health()
    assert body["cache"]["status"] == "ok"


def test_a_broker_that_answers_without_a_worker(own_redis: OwnRedis, broker: Any) -> None:
    broker.broker_url = own_redis.url(3)
    status, body = _health()
    assert status == 200
    assert body["broker"] == {"status": "ok", "not_queued": body["broker"]["not_queued"]}
    assert body["workers"]["status"] == "failed"
    assert body["workers"]["seen"] == 0


@pytest.mark.django_db(transaction=True)
def test_the_database_down_is_503() -> None:
    """The test database's connection pointed where nothing answers (a SQLite file in a
    folder that does not exist, a PostgreSQL port nobody listens on), then back."""
    settings_dict = connection.settings_dict
    saved = dict(settings_dict)
    connection.close()
    if connection.vendor == "sqlite":
        settings_dict["NAME"] = "/nonexistent-folder/db.sqlite3"
    else:
        settings_dict["PORT"] = str(free_port())
    try:
        status, body = _health()
    finally:
        connection.close()
        settings_dict.update(saved)
    assert status == 503
    assert body["database"]["status"] == "failed"
    assert body["database"]["reason"] == "OperationalError"
    assert body["ok"] is False
    assert _health()[0] == 200
