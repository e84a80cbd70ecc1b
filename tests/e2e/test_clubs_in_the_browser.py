"""Clubs in a real browser (docs/rules.md, "Clubs: members, organizers, who may enter"):
a player opens the club's invite link, joins the club, finds the members-only tournament
on the club's page and enters it; someone who is no member gets "not found" for it and
never sees it on the home page."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in, settle
from tournaments.models import Access, Entry

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SECRET = "Ledenavond Kwartet"


def test_join_a_club_by_invite_link_then_enter_its_members_only_tournament(
    live_server: Any, page: Page
) -> None:
    owner = factories.make_user("voorzitter")
    club = factories.make_club("De Vrolijke Kaartschudders", owner=owner)
    t = factories.make_tournament(created_by=owner, club=club, access=Access.MEMBERS, name=SECRET)
    factories.make_user("nieuwkomer")
    factories.make_user("buitenstaander")
    base = live_server.url

    # Before joining: the tournament is not found and not listed.
    log_in(page, base, "nieuwkomer")
    assert SECRET not in page.content()
    response = page.goto(f"{base}/tournaments/{t.pk}/")
    assert response is not None and response.status == 404

    # The owner's invite link (as the club's page shows it to them).
    page.goto(f"{base}/clubs/{club.slug}/join/?code={club.invite_code}")
    page.get_by_test_id("join-club").click()
    page.wait_for_url(f"**/clubs/{club.slug}/")
    expect(page.get_by_test_id("club-role")).to_have_text("lid")
    expect(page.get_by_test_id("club-members-count")).to_contain_text("2 leden")

    # The members-only tournament is on the club's page now; enter it.
    page.get_by_test_id("club-open").get_by_role("link", name=SECRET).click()
    page.wait_for_url(f"**/tournaments/{t.pk}/")
    expect(page.get_by_test_id("tournament-club")).to_contain_text("alleen clubleden")
    page.click(f"form[action='/tournaments/{t.pk}/join/'] button[type=submit]")
    page.wait_for_url("**/games/*/")
    settle(page)
    assert Entry.objects.filter(tournament=t, user__username="nieuwkomer").exists()

    # Someone else, not a member: not found, and not on the home page.
    page.context.clear_cookies()
    log_in(page, base, "buitenstaander")
    assert SECRET not in page.content()
    response = page.goto(f"{base}/tournaments/{t.pk}/")
    assert response is not None and response.status == 404
    assert SECRET not in page.content()
