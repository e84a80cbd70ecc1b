"""A table of three in a real browser (seed 001: "Er kan met 3 of 4 personen aan een tafel
worden gespeeld"): the bots sit West and East and North stays empty, two rounds are played
by clicking, the round's scores and the score panel (with its subtotal, seed 001: "na vijf
beurten wordt een tussentotaal geteld") have three columns, the result is measured against
the average of the two opponents, and the score sheet shows the "−" of each round's winner."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from playwright.sync_api import Page, expect

from engine.jokeren import PRESETS
from tests.e2e.helpers import dialog_open, join, screenshot, settle, sign_up, table
from tests.e2e.test_table import play_turn
from tournaments.models import Game
from tournaments.selectors import standings as standing_selectors

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_table_of_three_plays_two_rounds(live_server: Any, page: Page) -> None:
    # Jokeren 7 at a table of three, counting the cards kept, a subtotal after one round
    variant = {
        **PRESETS["jokeren7"].to_json(),
        "num_players": 3,
        "scoring": "cards",
        "subtotal_after": 1,
    }
    tournament = factories.make_tournament(
        name="Drie aan tafel", preset="jokeren7", variant=variant, rounds=2, south_plays=(0, 1)
    )
    sign_up(page, live_server.url, "drie_zuid")
    game_id = join(page, live_server.url, tournament.pk)

    expect(page.locator("[data-testid=seat-2]")).to_be_hidden()
    expect(page.locator("[data-testid=seat-1] .jk-seat-name")).to_have_text("West")
    expect(page.locator("[data-testid=seat-3] .jk-seat-name")).to_have_text("Oost")
    expect(page.locator("[data-testid=hand-size-1]")).to_be_visible()
    expect(page.locator("[data-testid=hand-size-2]")).to_be_visible()
    expect(page.locator("[data-testid=hand-size-3]")).to_have_count(0)

    skip: set[frozenset[int]] = set()
    taken: list[int] = []
    dialogs = 0
    for _ in range(800):
        settle(page)
        if dialog_open(page):
            expect(page.locator("[data-testid^=round-score-]")).to_have_count(3)
            dialogs += 1
            page.click("[data-testid=continue]")
            continue
        if table(page, "status") == "finished":
            break
        assert table(page, "your-turn") == "true"
        play_turn(page, skip, taken)
    else:
        pytest.fail("the game did not end")
    assert dialogs == 2

    game = Game.objects.get(pk=game_id)
    assert len(game.totals) == 3 and len(game.round_scores) == 2
    expect(page.locator("[data-testid=final]")).to_be_visible()
    opponents = (game.totals[1] + game.totals[2]) / 2
    _total, against, result = standing_selectors.game_result(game)
    assert against == pytest.approx(opponents)
    assert page.inner_text("[data-testid=final-total]") == str(game.totals[0])

    # the score panel: three columns, the subtotal after round 1
    page.click("[data-testid=btn-scores]")
    scores = page.locator("[data-testid=scores]")
    expect(scores.locator("thead th")).to_have_count(4)
    subtotal = scores.locator("tr[data-testid=jk-subtotal]")
    expect(subtotal).to_have_count(1)
    expect(subtotal.locator("th")).to_have_text("Tussentotaal na 1")
    expect(subtotal.locator("td")).to_have_text([str(s) for s in game.round_scores[0]])

    # the score sheet of the game, as its player sees it
    page.goto(f"{live_server.url}/games/{game_id}/sheet/")
    rows = page.locator("[data-testid=sheet-round]")
    expect(rows).to_have_count(2)
    for r, outcome in enumerate(game.round_results):
        winner = outcome.get("winner")
        cells = rows.nth(r).locator("td")
        expect(cells).to_have_count(3)
        for seat in range(3):
            text = "−" if seat == winner else str(game.round_scores[r][seat])
            expect(cells.nth(seat)).to_have_text(text)
    expect(page.locator("[data-testid=sheet-total] td")).to_have_text([str(t) for t in game.totals])
    screenshot(page, "score-sheet.png")
    # printed: the site's header and the buttons are left out
    page.emulate_media(media="print")
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator("[data-print]")).to_be_hidden()
    expect(page.locator("[data-testid=score-sheet]")).to_be_visible()
    screenshot(page, "score-sheet-print.png")
    assert result == pytest.approx(game.totals[0] - opponents)
