"""Mail settings in a real browser: the link of a mail turns its kind off without logging
in (one button), and the account page sets the mail's language and kinds; both pages
without a serious accessibility violation."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.urls import reverse
from playwright.sync_api import Page

from tests.e2e.helpers import log_in
from tests.e2e.test_accessibility import axe_violations, describe
from tournaments import mail_links
from tournaments.models import Account, MailKind

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_link_of_a_mail_turns_it_off_without_logging_in(live_server: Any, page: Page) -> None:
    anna = factories.make_user("anna", email="anna@example.org")
    token = mail_links.mail_off_token(user_id=anna.pk, kind=MailKind.RESULTS)
    page.goto(f"{live_server.url}{reverse('mail_off', args=[token])}")
    assert page.locator("h1").inner_text() == "Mailinstellingen"
    assert "Wil je geen mail meer over definitieve uitslagen?" in page.content()
    found = axe_violations(page)
    assert not found, describe(found)
    page.get_by_role("button", name="Zet deze mail uit").click()
    page.wait_for_load_state()
    done = page.locator("[data-testid=mail-off-done]").inner_text()
    assert done == "Klaar: je krijgt geen mail meer over definitieve uitslagen."
    account = Account.objects.get(user=anna)
    assert (account.mail_results, account.mail_series, account.mail_invites) == (False, True, True)


def test_the_account_page_sets_the_language_and_kinds_of_mail(live_server: Any, page: Page) -> None:
    anna = factories.make_user("anna", email="anna@example.org")
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}{reverse('account')}")
    found = axe_violations(page)
    assert not found, describe(found)
    page.get_by_label("Taal van mijn mail").select_option("en")
    page.get_by_label("Mail me als een nieuwe editie").uncheck()
    page.get_by_role("button", name="Mailinstellingen bewaren").click()
    page.wait_for_load_state()
    # the site follows the mail's language
    assert "Your mail settings are saved." in page.content()
    assert page.get_by_label("Language of my mail").input_value() == "en"
    assert not page.get_by_label("Mail me when a new edition").is_checked()
    account = Account.objects.get(user=anna)
    assert (account.language, account.mail_results, account.mail_series) == ("en", True, False)
    # the language switch in the header is remembered for the mail too
    page.click("button[name=language][value=nl]")
    page.wait_for_load_state()
    assert Account.objects.get(user=anna).language == "nl"
