"""Fixtures shared by the site's tests: users, a clean cache, Celery mode per test."""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import factories
import pytest


def pytest_configure(config: pytest.Config) -> None:
    # whitenoise warns when STATIC_ROOT has not been collected yet (tests don't need it).
    config.addinivalue_line("filterwarnings", "ignore:No directory at:UserWarning")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Without REDIS_URL there is no broker for a real worker: deselect those tests
    (scripts/test.sh selects the same way)."""
    if os.environ.get("REDIS_URL"):
        return
    keep, drop = [], []
    for item in items:
        (drop if item.get_closest_marker("celery_worker") else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


@pytest.fixture(autouse=True)
def _celery_mode(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tasks run inline in every test except those that start a real worker."""
    from jokeren.celery import app

    eager = request.node.get_closest_marker("celery_worker") is None
    before = app.conf.task_always_eager
    app.conf.task_always_eager = eager
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def user(db: Any) -> Any:
    return factories.make_user("speler")


@pytest.fixture
def other_user(db: Any) -> Any:
    return factories.make_user("tegenstander")


@pytest.fixture
def organizer(db: Any) -> Any:
    return factories.make_user("organisator", organizer=True)


@pytest.fixture
def tournament(db: Any, organizer: Any) -> Any:
    return factories.make_tournament(created_by=organizer)


@pytest.fixture(autouse=True)
def _test_settings(settings: Any) -> None:
    """Fast password hashing; no move rate limit (its own test turns it on). The cache is
    not cleared between tests: a shared Redis would lose the Celery queue with it, and the
    site's cache keys name the tournament's commitment, so tests never see another's. The
    rate-limit counters (log-in, sign-up: all tests come from 127.0.0.1) get a prefix of
    their own per test for the same reason."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.MOVE_RATE_LIMIT = ""
    settings.RATELIMIT_CACHE_PREFIX = f"rl:{uuid.uuid4().hex}:"


@pytest.fixture
def release_bot_version_2(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """``release()``: from then on both games have a bot version 2, the current
    ``BOT_VERSION``, which plays differently from version 1 (every bot makes its
    ``simplest_action``); version 1 stays as it is. Returns the new version."""
    from engine.registry import GAMES, game_module

    def release() -> int:
        for name in GAMES:
            module = game_module(name)
            real = module.bot_action

            def bot_action(
                state: Any, *, level: str, version: int = 2, _real: Any = real, _m: Any = module
            ) -> Any:
                if version == 2:
                    return _m.simplest_action(state)
                return _real(state, level=level, version=version)

            monkeypatch.setattr(module, "bot_action", bot_action)
            monkeypatch.setattr(module, "BOT_VERSION", 2)
            monkeypatch.setattr(module, "BOT_VERSIONS", (1, 2))
        return 2

    return release


@pytest.fixture
def second_bot_version(release_bot_version_2: Callable[[], int]) -> int:
    """A bot version 2 released before the test starts (``release_bot_version_2``)."""
    return release_bot_version_2()
