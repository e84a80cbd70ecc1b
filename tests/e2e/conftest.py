"""End-to-end fixtures: Debian's chromium driven by Playwright's sync API against
pytest-django's ``live_server`` (never a downloaded browser build)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from site_fixtures import *  # noqa: F403  (the site's fixtures; the engine's tests do without)

# Playwright's sync API runs an event loop in this thread; the test's own ORM calls are
# still plain synchronous code, so Django's async-safety guard must not refuse them.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Where failing or illustrative screenshots go (git-ignored).
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
#: Pause between two shown moves on the table during tests (the page's default is 550 ms).
TABLE_DELAY_MS = 60
#: How often the live leaderboard polls the standings API during tests (the page's: 20 s).
LEADERBOARD_MS = 300


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, locale="nl-NL", accept_downloads=False
    )
    context.add_init_script(
        f"window.JK_TABLE_DELAY = {TABLE_DELAY_MS}; window.JK_LEADERBOARD_MS = {LEADERBOARD_MS};"
    )
    context.set_default_timeout(30_000)  # a shared, busy machine
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    report = getattr(request.node, "rep_call", None)
    if report is not None and report.failed:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.hookimpl(tryfirst=True, hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"rep_{report.when}", report)
