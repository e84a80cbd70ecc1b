"""What every test shares, engine and site alike, and nothing that needs Django: the engine's
tests (tests/engine) run where only the engine, pytest and hypothesis are installed
(scripts/test-engine.sh). The site's fixtures are in tests/site_fixtures.py, loaded by the
conftest.py of each site folder."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from engine.registry import GAMES, game_module


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


@pytest.fixture
def release_next_bot_version(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """``release()``: from then on both games have one more bot version (one above the
    highest either game has), the current ``BOT_VERSION``, which plays differently from
    every released one (every bot makes its ``simplest_action``); the released versions
    stay as they are. Returns the new version."""

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
