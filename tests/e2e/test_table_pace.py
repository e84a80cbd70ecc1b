"""The bots' pace at both tables (issue 35, item 1), in a real browser: "normal" is half of
the pause of old, the choice is kept on the account and in the browser, and at "instant"
a move's answer shows every bot move at once, in the list of moves and in one
announcement for screen readers."""

from __future__ import annotations

import time

import factories
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import log_in, settle, table
from tournaments.models import Account, Game
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYER = "tempospeler"


@pytest.fixture(autouse=True)
def _fixed_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    factories.fixed_secrets(monkeypatch, "table-pace")


def _practice(game: str, preset: str) -> Game:
    """A practice game whose first action is South's (a bot may start, else the next deal)."""
    user = factories.make_user(PLAYER)
    for _ in range(40):
        g = entry_services.game_practice_start(user=user, game=game, preset=preset)
        if g.current_state().current_player == 0:
            return g
    raise AssertionError("no deal fits")


def _real_pace_page(browser: Browser) -> Page:
    """A page without the tests' short pause (``JK_TABLE_DELAY``): the table's own."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="nl-NL")
    context.set_default_timeout(30_000)
    return context.new_page()


@pytest.mark.parametrize(
    ("game", "preset", "normal_ms"),
    [("jokeren", "jokeren7", 275), ("klaverjas", "rotterdams", 325)],
)
def test_normal_is_half_the_old_pause_and_the_account_keeps_the_choice(
    live_server: object, browser: Browser, game: str, preset: str, normal_ms: int
) -> None:
    g = _practice(game, preset)
    base = str(live_server)
    page = _real_pace_page(browser)
    try:
        log_in(page, base, PLAYER)
        page.goto(f"{base}/games/{g.pk}/")
        settle(page)
        # Never chosen: normal, half of the pause of old (550 ms Jokeren, 650 ms Klaverjas).
        assert table(page, "pace") == "normal"
        assert table(page, "pace-ms") == str(normal_ms)
        expect(page.locator("[data-testid=pace]")).to_have_value("normal")
        page.select_option("[data-testid=pace]", "fast")
        assert table(page, "pace-ms") == str(round(normal_ms * 2 / 5))
        for _ in range(50):
            if Account.objects.filter(user=g.user, pace="fast").exists():
                break
            time.sleep(0.1)
        assert Account.objects.get(user=g.user).pace == "fast"
        # Another browser of the same account starts with the account's choice.
        other = _real_pace_page(browser)
        log_in(other, base, PLAYER)
        other.goto(f"{base}/games/{g.pk}/")
        settle(other)
        assert table(other, "pace") == "fast"
        other.context.close()
    finally:
        page.context.close()


def test_the_browser_keeps_the_pace_where_the_account_never_chose(
    live_server: object, page: Page
) -> None:
    g = _practice("jokeren", "jokeren7")
    base = str(live_server)
    log_in(page, base, PLAYER)
    page.evaluate("localStorage.setItem('table-pace', JSON.stringify('slow'))")
    page.goto(f"{base}/games/{g.pk}/")
    settle(page)
    assert table(page, "pace") == "slow"
    expect(page.locator("[data-testid=pace]")).to_have_value("slow")


def test_instant_shows_the_bots_moves_at_once_in_the_list_and_for_screen_readers(
    live_server: object, page: Page
) -> None:
    g = _practice("jokeren", "jokeren7")
    base = str(live_server)
    log_in(page, base, PLAYER)
    page.goto(f"{base}/games/{g.pk}/")
    settle(page)
    page.select_option("[data-testid=pace]", "instant")
    assert table(page, "pace-ms") == "0"
    page.click("[data-testid=stock]")
    settle(page)
    before = page.locator("[data-testid=log] li").count()
    # What the list of moves holds at each change while the answer is shown: at "instant"
    # it changes once, with every move of the answer.
    page.evaluate(
        """() => {
      window.__logSizes = [];
      const log = document.querySelector('[data-testid=log]');
      new MutationObserver(() => window.__logSizes.push(log.children.length))
        .observe(log, { childList: true });
    }"""
    )
    page.click("[data-testid=hand-card] >> nth=0")
    page.click("[data-testid=btn-discard]")
    settle(page)
    assert not page.eval_on_selector("[data-testid=dialog]", "d => d.open")
    assert table(page, "your-turn") == "true"
    lines = page.eval_on_selector_all("[data-testid=log] li", "els => els.map(e => e.textContent)")
    fresh = lines[before:]
    # The own discard, then each bot's draw and discard (and any melds).
    assert fresh[0].startswith("Jij")
    for name in ("West", "Noord", "Oost"):
        assert any(line.startswith(name) for line in fresh), fresh
    assert page.evaluate("window.__logSizes") == [len(lines)]
    # Screen readers hear the answer's moves together, in one announcement.
    said = page.eval_on_selector_all(
        "[data-testid=announcer] p", "els => els.map(e => e.textContent)"
    )
    assert " ".join(fresh) in said, said
