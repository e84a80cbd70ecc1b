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
def release_next_bot_version(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """``release()``: from then on both games have one more bot version (one above the
    highest either game has), the current ``BOT_VERSION``, which plays differently from
    every released one (every bot makes its ``simplest_action``); the released versions
    stay as they are. Returns the new version."""
    from engine.registry import GAMES, game_module

    def release() -> int:
        new = max(max(game_module(name).BOT_VERSIONS) for name in GAMES) + 1
        for name in GAMES:
            module = game_module(name)
            real = module.bot_action

            def bot_action(
                state: Any, *, level: str, version: int = new, _real: Any = real, _m: Any = module
            ) -> Any:
                if version == new:
                    return _m.simplest_action(state)
                return _real(state, level=level, version=version)

            monkeypatch.setattr(module, "bot_action", bot_action)
            monkeypatch.setattr(module, "BOT_VERSION", new)
            monkeypatch.setattr(module, "BOT_VERSIONS", (*module.BOT_VERSIONS, new))
        return new

    return release


@pytest.fixture
def next_bot_version(release_next_bot_version: Callable[[], int]) -> int:
    """A new bot version released before the test starts (``release_next_bot_version``)."""
    return release_next_bot_version()
