"""The site's fixtures (tests/site_fixtures.py); the engine's tests do without them. And a
Redis server of a test's own (``own_redis``), for the tests that stop and start it."""

from collections.abc import Iterator

import pytest
from own_redis import OwnRedis
from site_fixtures import *  # noqa: F403


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    """A Redis server on a free port of its own, stopped after the test."""
    server = OwnRedis()
    server.start()
    yield server
    server.stop()
