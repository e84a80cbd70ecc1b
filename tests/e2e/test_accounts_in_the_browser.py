"""The accounts' flows in the browser, with a real SMTP server (aiosmtpd, in a thread)
that receives the site's mail (docs/rules.md, "Accounts"): sign up, verify the address,
log out, reset the password, log in; change the address; set up TOTP and log in with a
code and with a recovery code; download one's data and delete an account that played a
closed tournament (the standings unchanged but its name)."""

from __future__ import annotations

import email
import io
import json
import re
import socket
import zipfile
from collections.abc import Iterator
from email.message import EmailMessage
from email.policy import default as default_policy
from typing import Any

import factories
import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, Envelope, Session
from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value
from django.contrib.auth import get_user_model
from helpers import enter_second_factor
from playwright.sync_api import Page, expect

from tournaments import permissions

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "Harten-Vrouw-77"
NEW_PASSWORD = "Klaveren-Boer-31"


class Inbox:
    """An aiosmtpd handler that keeps every message it is given."""

    def __init__(self) -> None:
        self.envelopes: list[Envelope] = []

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        self.envelopes.append(envelope)
        return "250 Message accepted for delivery"

    def messages(self, to: str) -> list[EmailMessage]:
        out = []
        for envelope in self.envelopes:
            if to in envelope.rcpt_tos:
                content = envelope.content
                assert isinstance(content, bytes)
                message = email.message_from_bytes(content, policy=default_policy)
                assert isinstance(message, EmailMessage)
                out.append(message)
        return out

    def last_link(self, to: str, base: str) -> str:
        """The site's address in the latest mail to ``to``."""
        body = self.messages(to)[-1].get_body(preferencelist=("plain",))
        assert body is not None
        (link,) = re.findall(r"https?://[^\s>]+", body.get_content())
        return base + re.sub(r"^https?://[^/]+", "", link)


@pytest.fixture
def smtp(settings: Any) -> Iterator[Inbox]:
    """A real SMTP server on a free port, in its own thread; the site's mail goes to it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_USE_SSL = False
    try:
        yield inbox
    finally:
        controller.stop()


def _submit(page: Page, field: str) -> None:
    """Send the form that holds ``field`` (Enter in it)."""
    page.press(field, "Enter")
    page.wait_for_load_state()


def _log_in(page: Page, base: str, login: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", login)
    page.fill("input[name=password]", password)
    _submit(page, "input[name=password]")


def _log_out(page: Page, base: str) -> None:
    page.click("header form[action='/accounts/logout/'] button")
    page.wait_for_url(f"{base}/")


def test_sign_up_verify_reset_and_change_the_address(
    page: Page, live_server: Any, smtp: Inbox
) -> None:
    base = live_server.url
    page.goto(f"{base}/accounts/signup/")
    page.fill("input[name=username]", "nieuweling")
    page.fill("input[name=email]", "nieuweling@example.org")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    _submit(page, "input[name=password2]")
    page.wait_for_url(f"{base}/")
    user = get_user_model().objects.get(username="nieuweling")
    assert not permissions.has_verified_address(user)
    # the mail's link, then its page's button, verifies the address
    page.goto(smtp.last_link("nieuweling@example.org", base))
    page.locator("main form button").first.click()
    page.wait_for_load_state()
    assert permissions.has_verified_address(user)

    _log_out(page, base)
    # "Wachtwoord vergeten": the mail's link sets a new password, once
    page.goto(f"{base}/accounts/login/")
    page.click("#forgot-password")
    page.fill("input[name=email]", "nieuweling@example.org")
    _submit(page, "input[name=email]")
    reset = smtp.last_link("nieuweling@example.org", base)
    page.goto(reset)
    page.fill("input[name=password1]", NEW_PASSWORD)
    page.fill("input[name=password2]", NEW_PASSWORD)
    _submit(page, "input[name=password2]")
    page.goto(reset)
    assert page.locator("input[name=password1]").count() == 0  # used up
    _log_in(page, base, "nieuweling@example.org", PASSWORD)
    assert "/accounts/login/" in page.url  # the old password no longer works
    _log_in(page, base, "nieuweling@example.org", NEW_PASSWORD)
    page.wait_for_url(f"{base}/")
    expect(page.locator("header")).to_contain_text("nieuweling")

    # a new address replaces the old one only once verified
    page.goto(f"{base}/account/")
    page.click("#change-address")
    page.fill("input[name=email]", "ander-adres@example.org")
    _submit(page, "input[name=email]")
    user.refresh_from_db()
    assert user.email == "nieuweling@example.org"
    page.goto(smtp.last_link("ander-adres@example.org", base))
    page.locator("main form button").first.click()
    page.wait_for_load_state()
    user.refresh_from_db()
    assert user.email == "ander-adres@example.org" and permissions.has_verified_address(user)
    page.goto(f"{base}/account/")
    expect(page.locator("#my-address")).to_have_text("ander-adres@example.org")


def test_set_up_totp_then_log_in_with_a_code_and_with_a_recovery_code(
    page: Page, live_server: Any, smtp: Inbox
) -> None:
    base = live_server.url
    factories.make_user("tweestap")
    _log_in(page, base, "tweestap", factories.PASSWORD)
    page.wait_for_url(f"{base}/")
    page.goto(f"{base}/account/")
    page.click("#manage-second-factor")
    page.goto(f"{base}/accounts/2fa/totp/activate/")
    if "/accounts/reauthenticate/" in page.url:  # allauth asks for the password again
        page.fill("input[name=password]", factories.PASSWORD)
        _submit(page, "input[name=password]")
    secret = page.locator("#authenticator_secret").input_value()
    page.fill("input[name=code]", format_hotp_value(hotp_value(secret, _counter())))
    _submit(page, "input[name=code]")
    page.goto(f"{base}/accounts/2fa/recovery-codes/")
    codes = page.locator("#recovery_codes").input_value().split()
    assert len(codes) == 10
    _log_out(page, base)

    _log_in(page, base, "tweestap", factories.PASSWORD)
    assert "/accounts/2fa/authenticate/" in page.url
    enter_second_factor(page, "tweestap", format_hotp_value(hotp_value(secret, _counter())))
    page.wait_for_url(f"{base}/")
    _log_out(page, base)

    _log_in(page, base, "tweestap", factories.PASSWORD)
    enter_second_factor(page, "tweestap", codes[0])
    page.wait_for_url(f"{base}/")
    _log_out(page, base)
    # a recovery code works once
    _log_in(page, base, "tweestap", factories.PASSWORD)
    page.fill("input[name=code]", codes[0])
    _submit(page, "input[name=code]")
    assert "/accounts/2fa/authenticate/" in page.url


def _counter() -> int:
    import time

    return int(time.time()) // 30


def test_download_the_data_then_delete_an_account_that_played_a_closed_tournament(
    page: Page, live_server: Any, smtp: Inbox
) -> None:
    base = live_server.url
    organizer = factories.make_user("organisator", organizer=True)
    t = factories.make_closed_field(organizer, 4)
    board = f"{base}/tournaments/{t.pk}/"
    page.goto(board)
    before = page.locator("#leaderboard tbody tr").all_inner_texts()
    leaver = get_user_model().objects.get(username="veld0001")
    leaver.set_password(factories.PASSWORD)
    leaver.save()
    _log_in(page, base, "veld0001", factories.PASSWORD)
    page.wait_for_url(f"{base}/")

    page.goto(f"{base}/account/")
    href = page.locator("#download-data").get_attribute("href")
    answer = page.request.get(f"{base}{href}")  # the link, with the page's session
    assert answer.headers["content-type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(answer.body()))
    assert json.loads(archive.read("profile.json"))["username"] == "veld0001"
    (entry,) = json.loads(archive.read("entries.json"))
    assert entry["tournament_id"] == t.pk
    assert any(n.startswith("games/game-") for n in archive.namelist())

    page.click("#delete-account-link")
    page.fill("#delete-password", factories.PASSWORD)
    page.click("#delete-account")
    page.wait_for_url(f"{base}/")
    page.goto(board)
    after = page.locator("#leaderboard tbody tr").all_inner_texts()
    name = f"verwijderde speler {leaver.pk}"
    assert after == [row.replace("veld0001", name) for row in before]
    assert any(name in row for row in after)
    _log_in(page, base, "veld0001", factories.PASSWORD)
    assert "/accounts/login/" in page.url  # the account is gone
