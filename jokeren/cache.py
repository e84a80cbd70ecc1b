"""The Redis cache (sessions, rate limits, the standings' keys): Django's, with one client
object per connection pool instead of a new one for every cache call.

Django's ``RedisCacheClient.get_client`` builds a ``redis.Redis`` for every get and set;
its constructor sets up the client's response callbacks each time, which cost about as
much CPU as the round trip to Redis itself (profiled on the move POST, whose session read
is a cache get). A ``redis.Redis`` is safe to share between threads (it takes a connection
from its pool for each command), so each pool keeps one."""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient as DjangoRedisCacheClient


class RedisCacheClient(DjangoRedisCacheClient):
    """Django's client, one ``redis.Redis`` per connection pool."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            made = self._client(connection_pool=pool)  # type: ignore[attr-defined]
            client = self._clients.setdefault(id(pool), made)
        return client


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with ``RedisCacheClient`` above."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
