"""``GET /health/``: how each part the site runs on is doing, for a load balancer and the
operator (deploy/README.md, "When a part fails").

JSON, one entry per part, each ``{"status": "ok"}`` or ``{"status": "failed", "reason":
...}`` with a short reason (an error's class name or a fixed phrase: never an address,
a password or an error's text, which may hold them):

- ``database``: a ``SELECT 1`` on the default database;
- ``cache``: a ``PING`` to the cache's Redis (the local-memory cache is always ok), with
  ``errors``: how many cache calls of this process failed open (jokeren/cache.py);
- ``broker``: a ``PING`` to the Celery broker's Redis (ok where tasks run inline), with
  ``not_queued``: how many tasks this process could not queue (tournaments/jobs.py);
- ``workers``: whether a Celery worker answered a ping within ``WORKER_PING_SECONDS``
  (ok where tasks run inline), with ``seen``: how many.

The status is 200 while the database answers (the site serves: without Redis it works
on, see jokeren/cache.py), 503 when it does not; ``"ok"`` at the top says whether every
part is. It is answered by a middleware placed first, before the host check and the
HTTPS redirect: a load balancer asks by the server's address, over plain HTTP. It is
never cached (``Cache-Control: no-store``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
from celery import current_app
from django.core.cache import cache
from django.db import DatabaseError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse

from jokeren import cache as site_cache
from tournaments import jobs

HEALTH_PATH = "/health/"
#: How long the health check waits for each Redis and for the workers' answers.
REDIS_TIMEOUT_SECONDS = 0.5
WORKER_PING_SECONDS = 1.0

Part = dict[str, Any]


def _ok(**extra: Any) -> Part:
    return {"status": "ok", **extra}


def _failed(reason: str, **extra: Any) -> Part:
    return {"status": "failed", "reason": reason, **extra}


def database_health() -> Part:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return _failed(type(exc).__name__)
    return _ok()


def cache_health() -> Part:
    errors = site_cache.cache_errors()
    ping = getattr(cache, "ping", None)
    if ping is None:
        return _ok(errors=errors)
    try:
        ping()
    except site_cache.UNREACHABLE as exc:
        return _failed(type(exc).__name__, errors=errors)
    return _ok(errors=errors)


def _eager() -> bool:
    return bool(current_app.conf.task_always_eager)


def broker_health() -> Part:
    failures = jobs.queue_failures()
    url = str(current_app.conf.broker_url or "")
    if _eager() or not url.startswith(("redis://", "rediss://")):
        return _ok(not_queued=failures)
    client = redis.Redis.from_url(
        url,
        socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        socket_timeout=REDIS_TIMEOUT_SECONDS,
    )
    try:
        client.ping()
    except site_cache.UNREACHABLE as exc:
        return _failed(type(exc).__name__, not_queued=failures)
    finally:
        client.close()
    return _ok(not_queued=failures)


def workers_health(broker: Part) -> Part:
    if _eager():
        return _ok(seen=0)
    if broker["status"] != "ok":
        return _failed("broker unreachable", seen=0)
    try:
        # a connection of its own, not the app's pool (made once, for the URL of then)
        with current_app.connection_for_read() as conn:
            answers = current_app.control.ping(timeout=WORKER_PING_SECONDS, connection=conn)
    except Exception as exc:  # any failure of the ping is the answer
        return _failed(type(exc).__name__, seen=0)
    if not answers:
        return _failed(f"no worker answered within {WORKER_PING_SECONDS:g} s", seen=0)
    return _ok(seen=len(answers))


def health() -> tuple[int, dict[str, Any]]:
    """(HTTP status, body) of the health endpoint (see the module text)."""
    broker = broker_health()
    parts = {
        "database": database_health(),
        "cache": cache_health(),
        "broker": broker,
        "workers": workers_health(broker),
    }
    status = 200 if parts["database"]["status"] == "ok" else 503
    return status, {"ok": all(p["status"] == "ok" for p in parts.values()), **parts}


class HealthMiddleware:
    """Answers ``GET``/``HEAD`` ``/health/`` (first in ``MIDDLEWARE``); passes every other
    request on."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path != HEALTH_PATH or request.method not in ("GET", "HEAD"):
            return self.get_response(request)
        status, body = health()
        response = JsonResponse(body, status=status)
        response["Cache-Control"] = "no-store"
        if status == 503:
            response["Retry-After"] = "10"
        return response
