"""Fair play in a real browser (docs/rules.md, "Fair play"): one browser logs in as two
accounts in turn (the device cookie outlives the log-out) and both join one tournament;
the organizer's entries page shows both entries flagged with the evidence in words, and
the organizer clears one and disqualifies the other: it leaves the leaderboard and its
entrant gets a mail."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.core import mail
from django.urls import reverse
from playwright.sync_api import Browser, Page

from tests.e2e.helpers import join, log_in
from tournaments.models import Entry

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _log_out(page: Page) -> None:
    page.click(f"form[action='{reverse('logout')}'] button[type=submit]")
    page.wait_for_load_state()


def test_linked_accounts_are_flagged_and_the_organizer_decides(
    live_server: Any, page: Page, browser: Browser, organizer: Any
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=1)
    factories.make_user("anna", email="anna@example.org")
    factories.make_user("bert", email="bert@example.org")
    base = live_server.url
    log_in(page, base, "anna")
    join(page, base, t.pk)
    _log_out(page)
    log_in(page, base, "bert")
    join(page, base, t.pk)
    flagged = Entry.objects.filter(tournament=t, fair_play=Entry.FairPlay.UNDER_REVIEW)
    assert flagged.count() == 2

    context = browser.new_context(locale="nl-NL")
    try:
        org = context.new_page()
        log_in(org, base, organizer.username)
        org.goto(f"{base}{reverse('tournament_entries', args=[t.pk])}")
        section = org.locator("section.fairplay-review")
        assert section.locator("h2").inner_text() == "Eerlijk spel: gemarkeerde inschrijvingen"
        anna = org.locator("[data-testid=fairplay-entry][data-player=anna]")
        assert "gekoppeld aan de inschrijving van bert" in anna.inner_text()
        assert "Hetzelfde apparaat" in anna.inner_text() and "inloggen op" in anna.inner_text()
        assert (
            anna.locator("[data-testid=fairplay-status]").inner_text()
            == "in onderzoek: eerlijk spel"
        )
        bert = org.locator("[data-testid=fairplay-entry][data-player=bert]")
        bert.get_by_role("button", name="Vrijgeven: weer rangschikken").click()
        org.wait_for_load_state()
        assert "De inschrijving is vrijgegeven" in org.content()
        bert = org.locator("[data-testid=fairplay-entry][data-player=bert]")
        assert (
            bert.locator("[data-testid=fairplay-status]").inner_text()
            == "vrijgegeven door een organisator"
        )
        assert f"Besloten door {organizer.username}" in bert.inner_text()
        anna = org.locator("[data-testid=fairplay-entry][data-player=anna]")
        anna.get_by_role("button", name="Diskwalificeren").click()
        org.wait_for_load_state()
        anna = org.locator("[data-testid=fairplay-entry][data-player=anna]")
        assert anna.locator("[data-testid=fairplay-status]").inner_text() == "gediskwalificeerd"
        assert anna.get_by_role("button", name="Diskwalificeren").count() == 0
    finally:
        context.close()
    states = dict(Entry.objects.filter(tournament=t).values_list("user__username", "fair_play"))
    assert states == {"anna": "disqualified", "bert": "cleared"}
    assert [m.to for m in mail.outbox] == [["anna@example.org"]]
    # The leaderboard (the API the page polls) has bert, ranked, and no anna.
    answer = page.request.get(f"{base}{reverse('api_tournament_standings', args=[t.pk])}")
    players = [r["player"] for r in answer.json()["standings"]]
    assert players == ["bert"]
