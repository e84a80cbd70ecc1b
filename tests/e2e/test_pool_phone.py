"""The phone table in a pooled event (issue 36 item 1): a round of a tournament dealt in
copies played by touch at 390x844 with mobile emulation: the table shows the entrant's
copy of the round and stays on one screen after every move, the round-over dialog fits,
and the tournament page's per-deal table of that copy fits the phone."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from playwright.sync_api import Browser, expect

from engine import dealing
from tests.e2e.helpers import ARTIFACTS, log_in, settle, table
from tests.e2e.test_phone import (
    FITS,
    _dialog_fits,
    _one_screen,
    _phone_page,
    _play_to_the_round_end,
    _targets_fit,
)
from tournaments.games import module_of
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

COPIES = 3


def test_a_pooled_round_is_played_by_touch_on_a_phone(live_server: Any, browser: Browser) -> None:
    t = factories.make_tournament(preset="jokeren7", rounds=1, pool_copies=COPIES, south_plays=())
    # a secret whose every copy of round 0 gives South a turn (whichever copy is drawn)
    for _ in range(200):
        if all(factories.south_gets_a_turn(t, 0, secret=t.copy_secret(c)) for c in range(COPIES)):
            break
        factories.set_secret(t, dealing.new_secret())
    me = factories.make_user("poolspeler")
    game = entry_services.entry_join(tournament_id=t.pk, user=me).game
    copy = t.copy_of(entry_id=game.entry_id, round_index=0)
    module = module_of(t.game)
    dealt = module.new_round(
        module.variant_from_json(t.variant), secret=t.copy_secret(copy), round_index=0
    )
    page = _phone_page(browser, {"width": 390, "height": 844}, mobile=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_server.url, "poolspeler")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    assert table(page, "status") == "playing"
    # the hand is South's of the entrant's copy (the bots before South only draw and
    # discard: South's cards are those dealt)
    shown = sorted(
        page.locator("[data-testid=hand-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    )
    south = sorted(str(c) for c in dealt.hands[0])
    assert shown == south
    _one_screen(page)
    _targets_fit(page)
    _play_to_the_round_end(page)
    _dialog_fits(page)
    page.screenshot(path=str(ARTIFACTS / "phone-pool-round-over.png"))
    # the tournament page: the per-deal table of the entrant's copy, no sideways scrolling
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(page.locator("#deal-0")).to_have_text(f"Ronde 1, kopie {copy + 1}")
    expect(page.locator("[data-testid=deal-copies]")).to_be_visible()
    assert not page.evaluate(FITS)
    page.context.close()
    assert not errors, errors
