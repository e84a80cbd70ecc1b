"""Fixtures shared by the site's tests (tests/tournaments, tests/jokeren, tests/locale,
tests/e2e): users, a tournament, test settings, Celery mode per test, a real SMTP server
(``smtp``, tests/mail_server.py). Each of those
folders' conftest.py star-imports them; tests/engine does not, so the engine's tests run
without Django (tests/conftest.py holds only what needs no Django)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import factories
import pytest
from mail_server import smtp

from jokeren.celery import app

__all__ = [
    "_celery_mode",
    "_test_settings",
    "organizer",
    "other_user",
    "smtp",
    "tournament",
    "user",
]


@pytest.fixture(autouse=True)
def _celery_mode(request: pytest.FixtureRequest) -> Iterator[None]:
    """Tasks run inline in every test except those that start a real worker."""
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
