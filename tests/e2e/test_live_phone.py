"""The phone table in a live club evening (issue 36 item 2): at 390x844 with mobile
emulation the lobby fits the phone and counts down; the round opens for everyone at once
and the lobby takes the player to their table without a reload; the round is played by
touch on one screen, its end's dialog fits, and the table sends the player back to the
lobby, which waits for the next round with the board of the rounds whose slot closed."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.helpers import ARTIFACTS, log_in, settle, table
from tests.e2e.test_phone import (
    FITS,
    _dialog_fits,
    _one_screen,
    _phone_page,
    _play_to_the_round_end,
    _targets_fit,
)
from tournaments.models import Game
from tournaments.services import entries as entry_services
from tournaments.services import live as live_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: How often the lobby polls its status during tests (the page's: 2 s).
LIVE_MS = 200


def test_a_live_round_is_played_by_touch_on_a_phone(live_server: Any, browser: Browser) -> None:
    t = factories.make_live_evening(preset="jokeren7", rounds=2)
    me = factories.make_user("avondspeler")
    game = entry_services.entry_join(tournament_id=t.pk, user=me).game
    page = _phone_page(browser, {"width": 390, "height": 844}, mobile=True)
    page.context.add_init_script(f"window.JK_LIVE_MS = {LIVE_MS};")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_server.url, "avondspeler")
    # the table before the round opens: the lobby, counting down
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_url(f"**/tournaments/{t.pk}/live/")
    expect(page.locator("#live")).to_have_attribute("data-phase", "lobby")
    expect(page.locator("[data-testid=countdown]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    assert not page.evaluate(FITS)
    page.screenshot(path=str(ARTIFACTS / "phone-live-lobby.png"))
    # the round opens: the lobby sends the player to the table, no reload needed
    factories.live_clock_at(t, 0)
    page.wait_for_url(f"**/games/{game.pk}/", timeout=15_000)
    settle(page)
    assert table(page, "status") == "playing"
    _one_screen(page)
    _targets_fit(page)
    _play_to_the_round_end(page)
    _dialog_fits(page)
    page.screenshot(path=str(ARTIFACTS / "phone-live-round-over.png"))
    # after the round's end: back to the lobby, which waits for round 2
    page.tap("[data-testid=continue]")
    page.wait_for_url(f"**/tournaments/{t.pk}/live/", timeout=15_000)
    expect(page.locator("#live")).to_have_attribute("data-phase", "playing")
    expect(page.locator("[data-testid=live-mine]")).to_contain_text("ronde 2")
    assert not page.evaluate(FITS)
    # the slot ends and is closed: the board of round 1 comes to the open lobby
    factories.live_clock_at(t, 0, moment="ended")
    live_services.live_slot_close(tournament_id=t.pk)
    expect(page.locator("#live")).to_have_attribute("data-phase", "pause", timeout=10_000)
    expect(page.locator("#live")).to_have_attribute("data-board-rounds", "1")
    # the board of round 1, with the result against par, for everyone now
    expect(page.locator("#live-board [data-testid=vs-par]")).to_be_visible()
    expect(page.locator("#live-board")).to_contain_text("avondspeler")
    assert not page.evaluate(FITS)
    page.screenshot(path=str(ARTIFACTS / "phone-live-pause.png"))
    # round 2 opens: to the table again, where the round's slot counts down
    factories.live_clock_at(t, 1)
    page.wait_for_url(f"**/games/{game.pk}/", timeout=15_000)
    settle(page)
    assert table(page, "status") == "playing"
    _one_screen(page)
    assert Game.objects.get(pk=game.pk).round_index == 1
    expect(page.locator("[data-testid=live-countdown]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    # the player waits at the table until the slot ends: the table goes to the lobby
    factories.live_clock_at(t, 1, moment="ended")
    page.wait_for_url(f"**/tournaments/{t.pk}/live/", timeout=15_000)
    expect(page.locator("#live")).to_have_attribute("data-phase", "closing")
    live_services.live_slot_close(tournament_id=t.pk)
    played = Game.objects.get(pk=game.pk)
    assert played.status == Game.Status.FINISHED and len(played.round_scores) == 2
    page.context.close()
    assert not errors, errors


def test_a_live_klaverjas_round_is_played_by_touch_on_a_phone(
    live_server: Any, browser: Browser
) -> None:
    t = factories.make_live_evening(game="klaverjas", preset="rotterdams", rounds=2)
    me = factories.make_user("klaverjasavond")
    game = entry_services.entry_join(tournament_id=t.pk, user=me).game
    page = _phone_page(browser, {"width": 390, "height": 844}, mobile=True)
    page.context.add_init_script(f"window.JK_LIVE_MS = {LIVE_MS};")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_server.url, "klaverjasavond")
    page.goto(f"{live_server.url}/tournaments/{t.pk}/live/")
    expect(page.locator("#live")).to_have_attribute("data-phase", "lobby")
    factories.live_clock_at(t, 0)
    page.wait_for_url(f"**/games/{game.pk}/", timeout=15_000)
    settle(page)
    expect(page.locator("[data-testid=live-countdown]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    for _step in range(40):
        settle(page)
        if page.eval_on_selector("[data-testid=dialog]", "d => d.open"):
            break
        _targets_fit(page)
        if table(page, "phase") == "bidding":
            bids = page.locator("[data-testid^=bid-play], [data-testid=bid-pass]")
            bids.first.tap()
        else:
            page.locator("[data-testid=hand-card][data-legal=true]").last.tap()
    _dialog_fits(page)
    page.tap("[data-testid=continue]")
    page.wait_for_url(f"**/tournaments/{t.pk}/live/", timeout=15_000)
    expect(page.locator("#live")).to_have_attribute("data-phase", "playing")
    assert not page.evaluate(FITS)
    page.context.close()
    assert not errors, errors
