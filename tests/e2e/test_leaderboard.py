"""The live leaderboard in a real browser: it polls the standings API with the visitor's
session, so it shows an entrant only the rounds they have finished, also when another
entrant plays on; when the visitor finishes a round the page loads again with it."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _row(page: Page, name: str) -> Any:
    return page.locator("#leaderboard tbody tr", has_text=name)


def test_the_live_leaderboard_shows_only_the_rounds_you_have_finished(
    live_server: Any, page: Page
) -> None:
    t = factories.make_tournament(rounds=3)
    anna = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user("anna")).game
    bram = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user("bram")).game
    factories.set_rounds(anna, [[10, 20, 30, 40]])
    factories.set_rounds(bram, [[4, 25, 25, 25]])
    result_services.standings_refresh(tournament=t)

    log_in(page, live_server.url, "bram")
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(_row(page, "anna")).to_contain_text("-20,0")
    expect(_row(page, "anna")).to_contain_text("1/3")

    # Anna plays her second round (7 - 131/3 = -36.67): Bram's page updates her progress
    # but still shows her result over round 1 only.
    factories.set_rounds(anna, [[10, 20, 30, 40], [7, 41, 43, 47]])
    result_services.standings_refresh(tournament=t)
    expect(_row(page, "anna")).to_contain_text("2/3")
    expect(_row(page, "anna")).to_contain_text("-20,0")
    # The refreshed row is built like the server's: the same cells, found the same way.
    expect(_row(page, "anna").locator("[data-testid=avg-percentage]")).to_have_text("0,0%")
    expect(_row(page, "bram").locator("[data-testid=avg-percentage]")).to_have_text("100,0%")
    expect(page.locator("#leaderboard")).not_to_contain_text("56,7")
    assert page.locator("h3", has_text="Ronde 2").count() == 0

    # Bram finishes his second round: the page loads again with both rounds.
    factories.set_rounds(bram, [[4, 25, 25, 25], [0, 1, 1, 1]])
    result_services.standings_refresh(tournament=t)
    expect(_row(page, "anna")).to_contain_text("-56,7")
    expect(page.locator("h3", has_text="Ronde 2")).to_be_visible()
    expect(page.locator("#leaderboard")).to_have_attribute("data-visible-rounds", "2")
