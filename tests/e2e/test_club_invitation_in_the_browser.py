"""A personal invitation to a mail address without an account, in a real browser with a
real SMTP server (docs/rules.md, "Clubs: members, organizers, who may enter", rule 8):
the owner invites the address on the club's page, the mail arrives with a link of its
own, the invitee opens it, signs up through it and is a member at once; the link then
leads to the club."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from mail_server import Inbox
from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in
from tournaments.models import ClubInvite, JoinMode, Membership

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ADDRESS = "nieuw.lid@example.org"


def test_an_invitation_to_an_address_becomes_a_membership_through_sign_up(
    live_server: Any, page: Page, smtp: Inbox, settings: Any
) -> None:
    settings.SITE_URL = live_server.url
    owner = factories.make_user("voorzitter", email="voorzitter@example.org")
    club = factories.make_club("De Hartenvrouwen", owner=owner)
    club.join_mode = JoinMode.INVITATION  # neither the code nor a request lets anyone in
    club.save(update_fields=["join_mode"])
    base = live_server.url

    # The owner invites the address on the club's page.
    log_in(page, base, "voorzitter")
    page.goto(f"{base}/clubs/{club.slug}/")
    page.get_by_test_id("invite-username").fill(ADDRESS)
    page.get_by_test_id("invite-player").click()
    page.wait_for_url(f"**/clubs/{club.slug}/")
    expect(page.get_by_test_id("open-invites")).to_contain_text(ADDRESS)

    # The mail arrives at the SMTP server with the invitation's own link.
    (message,) = smtp.messages(ADDRESS)
    assert "De Hartenvrouwen" in message["Subject"]
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    body = str(part.get_content())
    assert "voorzitter" in body
    (link,) = re.findall(r"https?://\S+/clubs/invitations/\S+/", body)
    invite = ClubInvite.objects.get(club=club, email=ADDRESS)
    assert link.endswith(f"/clubs/invitations/{invite.token}/")

    # The invitee, without an account, opens the link in a fresh browser and signs up.
    page.context.clear_cookies()
    page.goto(link)
    expect(page.locator("h1")).to_have_text("De Hartenvrouwen")
    page.get_by_test_id("invitation-signup").click()
    page.wait_for_url("**/signup/**")
    page.fill("input[name=username]", "nieuwlid")
    if page.locator("input[name=email]").count():
        page.fill("input[name=email]", ADDRESS)
    password = "een-lang-wachtwoord-42"
    page.fill("input[name=password1]", password)
    page.fill("input[name=password2]", password)
    page.locator("form button[type=submit]").last.click()

    # A member at once: back on the club's page with the role "lid".
    page.wait_for_url(f"**/clubs/{club.slug}/")
    expect(page.get_by_test_id("club-role")).to_have_text("lid")
    membership = Membership.objects.get(club=club, user__username="nieuwlid")
    assert membership.role == Membership.Role.MEMBER
    invite.refresh_from_db()
    assert invite.accepted_by == membership.user and not invite.works
    # The link has been used: it leads its user to the club, nobody else in.
    page.goto(link)
    page.wait_for_url(f"**/clubs/{club.slug}/")
