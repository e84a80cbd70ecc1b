"""Ratings in a real browser (docs/rules.md, "Ratings"): the leaderboard's rating column
on request, kept by the live refresh; from it to a player's page and the rating list."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in
from tournaments.models import Rating
from tournaments.services import entries as entry_services
from tournaments.services import ratings as rating_services
from tournaments.services import results as result_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_rating_column_stays_through_the_live_refresh(
    live_server: Any, page: Page, organizer: Any
) -> None:
    before = factories.make_closed_field(organizer, 3)  # veld0000 .. veld0002
    rating_services.ratings_apply_tournament(tournament_id=before.pk)
    rated = Rating.objects.get(user__username="veld0000")
    t = factories.make_tournament(created_by=organizer, rounds=3)
    anna = entry_services.entry_join(tournament_id=t.pk, user=rated.user).game
    bram = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user("bram")).game
    factories.set_rounds(anna, [[10, 20, 30, 40]])
    factories.set_rounds(bram, [[4, 25, 25, 25]])
    result_services.standings_refresh(tournament=t)

    log_in(page, live_server.url, "bram")
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(page.locator("[data-testid=board-rating]")).to_have_count(0)
    page.click("#show-ratings")
    row = page.locator("#leaderboard tbody tr", has_text="veld0000")
    expect(row.locator("[data-testid=board-rating]")).to_have_text(str(rated.shown))
    mine = page.locator("#leaderboard tbody tr", has_text="bram")
    expect(mine.locator("[data-testid=board-rating]")).to_have_text("–")

    # veld0000 plays on: the live refresh shows the progress, the column stays.
    factories.set_rounds(anna, [[10, 20, 30, 40], [7, 41, 43, 47]])
    result_services.standings_refresh(tournament=t)
    expect(row).to_contain_text("2/3")
    expect(row.locator("[data-testid=board-rating]")).to_have_text(str(rated.shown))

    # From the rating to the player's page, and on to the rating list.
    row.locator("[data-testid=board-rating] a").click()
    expect(page.locator("h1")).to_have_text("veld0000")
    expect(page.locator("[data-testid=player-rating][data-game=jokeren]")).to_contain_text(
        str(rated.shown)
    )
    page.click("#player-ratings a >> text=Jokeren")
    expect(page.locator("#rating-list [data-testid=rating-row]")).to_have_count(2)
