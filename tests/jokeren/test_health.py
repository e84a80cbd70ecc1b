"""``GET /health/`` (jokeren/health.py): each part ok or failed with a short reason, 200
while the database answers, 503 when it does not; no secret in it. Real parts: a Redis
of the test's own (stopped and started), the test database (its connection pointed
somewhere that does not answer, then back)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from own_redis import OwnRedis, free_port, run_site_script

pytestmark = pytest.mark.django_db

PARTS = {"database", "cache", "broker", "workers"}


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


def test_the_cache_down_the_site_still_serves(settings: Any, own_redis: OwnRedis) -> None:
    password = "s3cret-pw"
    url = f"redis://:{password}@127.0.0.1:{own_redis.port}/0"
    settings.CACHES = {"default": {"BACKEND": "jokeren.cache.RedisCache", "LOCATION": url}}
    settings.CACHE_RETRY_SECONDS = 0
    own_redis.stop()
    response = Client().get("/health/")
    status, body = _health()
    assert status == 200
    assert body["ok"] is False
    assert body["database"] == {"status": "ok"}
    assert body["cache"]["status"] == "failed"
    assert body["broker"]["status"] == "ok"  # tasks run inline here
    text = response.content.decode()
    for secret in (password, str(own_redis.port), "127.0.0.1", settings.SECRET_KEY):
        assert secret not in text
    own_redis.start()
    _status, body = _health()
    assert body["cache"]["status"] == "ok"


#: /health/ in a process of its own, with the broker (and the cache) at ``REDIS_URL``:
#: Celery's connection pools are made once per process, for the URL of then.
SCRIPT = """
import django
django.setup()
from django.test import Client
response = Client().get("/health/")
print(response.status_code)
print(response.content.decode())
"""


def _health_elsewhere(redis_url: str) -> tuple[int, dict[str, Any], str]:
    with tempfile.TemporaryDirectory() as tmp:
        done = run_site_script(SCRIPT, database=Path(tmp) / "db.sqlite3", redis_url=redis_url)
    status, text = done.stdout.strip().split("\n", 1)
    return int(status), json.loads(text), text


def test_redis_down_broker_and_workers_failed_no_secrets() -> None:
    password = "s3cret-pw"
    port = free_port()
    status, body, text = _health_elsewhere(f"redis://:{password}@127.0.0.1:{port}/0")
    assert status == 200
    assert body["ok"] is False
    assert body["database"] == {"status": "ok"}
    assert body["cache"]["status"] == "failed"
    assert body["broker"]["status"] == "failed"
    assert body["workers"] == {"status": "failed", "reason": "broker unreachable", "seen": 0}
    for secret in (password, str(port), "127.0.0.1"):
        assert secret not in text


def test_a_broker_that_answers_without_a_worker(own_redis: OwnRedis) -> None:
    status, body, _text = _health_elsewhere(own_redis.url(3))
    assert status == 200
    assert body["cache"]["status"] == "ok"
    assert body["broker"]["status"] == "ok"
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
