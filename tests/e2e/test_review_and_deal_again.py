"""In a real browser: the review shows, beside each of your decisions, the hand and the
table you saw then; after the close "opnieuw spelen" on a per-deal row opens a practice
table on that round's deal."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in, screenshot, settle
from tests.e2e.test_accessibility import axe_violations, describe
from tournaments.games import module_of
from tournaments.models import Game, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_review_shows_your_hand_and_play_again_opens_the_deal(
    live_server: Any, page: Page
) -> None:
    t = factories.make_tournament(rounds=2, south_plays=(0, 1))
    anna_user = factories.make_user("anna")
    anna, _ = factories.play_to_end(
        entry_services.entry_join(tournament_id=t.pk, user=anna_user).game, anna_user
    )
    log_in(page, live_server.url, "anna")

    # Before the close: the review shows Anna's hand at her first decision, and the
    # tournament page offers no "opnieuw spelen".
    page.goto(f"{live_server.url}/games/{anna.pk}/review/?round=1")
    first = page.locator("[data-testid=position]").first
    expect(first.locator("[data-testid=position-hand] .seen-card").first).to_be_visible()
    module = module_of(anna.game)
    deal = module.new_round(
        module.variant_from_json(anna.variant), secret=anna.secret_bytes, round_index=1
    )
    actions = replay_selectors.game_record(game=anna).actions[1]
    state = deal
    for a in actions[: int(first.get_attribute("data-step") or 0)]:
        state = state.apply(module.action_from_json(a.action))
    codes = first.locator("[data-testid=position-hand]").get_attribute("data-codes") or ""
    assert sorted(codes.split()) == sorted(state.observation(0)["hand_codes"])
    expect(first.locator("[data-testid=position-hand] .seen-card")).to_have_count(
        len(state.hands[0])
    )
    screenshot(page, "review-position.png")
    found = axe_violations(page)
    assert not found, describe(found)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(page.locator("table.deal [data-testid=deal-percentage]").first).to_be_visible()
    expect(page.locator("[data-testid=play-deal-again]")).to_have_count(0)

    # Leave the page first: its live update reloads it when the tournament closes, which
    # would race the navigation below.
    page.goto("about:blank")
    Tournament.objects.filter(pk=t.pk).update(closes_at=timezone.now())
    closing_services.tournament_close(tournament_id=t.pk)

    # After the close: round 2's button opens a practice table on round 2's deal.
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    found = axe_violations(page)
    assert not found, describe(found)
    round_two = page.locator("#deal-1 + .table-scroll table.deal")
    round_two.locator("[data-testid=play-deal-again]").first.click()
    page.wait_for_url("**/games/*/")
    settle(page)
    practice = Game.objects.get(pk=int(page.url.rstrip("/").split("/")[-1]))
    assert practice.entry is None and practice.round_index == 1
    expect(page.locator("[data-testid=round-label]")).to_contain_text("Ronde 2")
    shown = page.locator("[data-testid=hand-card]")
    now = module.state_from_json(practice.state)
    expect(shown).to_have_count(len(now.hands[0]))
    cards = sorted(int(c.get_attribute("data-card") or -1) for c in shown.all())
    assert cards == sorted(deal.hands[0]) == sorted(now.hands[0])
