"""The Redis cache (sessions, rate limits, the standings' keys): Django's, with one client
object per connection pool, and failing open when Redis cannot be reached.

One client per pool: Django's ``RedisCacheClient.get_client`` builds a ``redis.Redis`` for
every get and set; its constructor sets up the client's response callbacks each time,
which cost about as much CPU as the round trip to Redis itself (profiled on the move POST,
whose session read is a cache get). A ``redis.Redis`` is safe to share between threads (it
takes a connection from its pool for each command), so each pool keeps one.

Failing open: nothing the site keeps in the cache is the only copy of anything (sessions
are written through to the database, standings and deal figures are computed again, rate
limit counters may be lost), so a cache that cannot be reached (Redis down, restarting,
out of reach: a connection or time-out error) is a cache that holds nothing and keeps
nothing: ``get`` gives the default, ``get_many`` nothing, ``has_key`` False, ``add``
False (nothing was added), ``incr`` ``ValueError`` (Django's "no such key": with
``RATELIMIT_FAIL_OPEN`` django-ratelimit then limits no one), ``set``/``delete``/``touch``
do nothing. Every such failure is logged (once per pause, below) and counted
(``cache_errors()``, per process, shown by the health endpoint). After a failure the cache
does not try Redis again for ``CACHE_RETRY_SECONDS`` (each request would otherwise wait
for its own connection attempt), then tries again with the next call. Any other error
(a bug, a wrong type) is raised as before.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger(__name__)

T = TypeVar("T")

#: What "Redis cannot be reached" raises (redis-py's errors and the socket's own).
UNREACHABLE: tuple[type[BaseException], ...] = (RedisConnectionError, RedisTimeoutError, OSError)

_lock = threading.Lock()
_errors = 0


def cache_errors() -> int:
    """How many cache calls of this process failed open since it started."""
    return _errors


def _count_error() -> None:
    global _errors
    with _lock:
        _errors += 1


class RedisCacheClient(DjangoRedisCacheClient):
    """Django's client, one ``redis.Redis`` per connection pool, failing open (see the
    module text)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        #: ``time.monotonic()`` before which Redis is not tried again (after a failure).
        self.paused_until = 0.0

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            made = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            client = self._clients.setdefault(id(pool), made)
        return client

    def guarded(self, operation: str, call: Callable[[], T], fallback: Callable[[], T]) -> T:
        """``call()``, or ``fallback()`` when Redis cannot be reached (or was not reachable
        less than ``CACHE_RETRY_SECONDS`` ago): logged and counted."""
        if time.monotonic() < self.paused_until:
            _count_error()
            return fallback()
        try:
            return call()
        except UNREACHABLE as exc:
            _count_error()
            self.paused_until = time.monotonic() + settings.CACHE_RETRY_SECONDS
            logger.warning(
                "cache unreachable (%s on %s): failing open for %s s",
                type(exc).__name__,
                operation,
                settings.CACHE_RETRY_SECONDS,
            )
            return fallback()

    def add(self, key: Any, value: Any, timeout: Any) -> bool:
        return self.guarded(
            "add", lambda: DjangoRedisCacheClient.add(self, key, value, timeout), _false
        )

    def get(self, key: Any, default: Any) -> Any:
        return self.guarded(
            "get", lambda: DjangoRedisCacheClient.get(self, key, default), lambda: default
        )

    def set(self, key: Any, value: Any, timeout: Any) -> None:
        self.guarded("set", lambda: DjangoRedisCacheClient.set(self, key, value, timeout), _none)

    def touch(self, key: Any, timeout: Any) -> bool:
        return self.guarded(
            "touch", lambda: DjangoRedisCacheClient.touch(self, key, timeout), _false
        )

    def delete(self, key: Any) -> bool:
        return self.guarded("delete", lambda: DjangoRedisCacheClient.delete(self, key), _false)

    def get_many(self, keys: Any) -> dict[Any, Any]:
        return self.guarded("get_many", lambda: DjangoRedisCacheClient.get_many(self, keys), dict)

    def has_key(self, key: Any) -> bool:
        return self.guarded("has_key", lambda: DjangoRedisCacheClient.has_key(self, key), _false)

    def incr(self, key: Any, delta: int) -> Any:
        return self.guarded("incr", lambda: DjangoRedisCacheClient.incr(self, key, delta), _no_key)

    def set_many(self, data: Any, timeout: Any) -> None:
        self.guarded(
            "set_many", lambda: DjangoRedisCacheClient.set_many(self, data, timeout), _none
        )

    def delete_many(self, keys: Any) -> None:
        self.guarded("delete_many", lambda: DjangoRedisCacheClient.delete_many(self, keys), _none)

    def clear(self) -> bool:
        return self.guarded(
            "clear",
            lambda: DjangoRedisCacheClient.clear(
                self,
            ),
            _false,
        )

    def ping(self) -> None:
        """Ask Redis for a PONG (the health endpoint): raises when it cannot be reached,
        never paused."""
        self.get_client().ping()


def _false() -> bool:
    return False


def _none() -> None:
    return None


def _no_key() -> Any:
    raise ValueError("the cache cannot be reached: no such key")


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with ``RedisCacheClient`` above."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient

    def ping(self) -> None:
        """Raise unless Redis answers now (for the health endpoint)."""
        self._cache.ping()  # type: ignore[attr-defined]
