"""The reminder before a live club evening (docs/rules.md §5, "Live club evening", rule 7):
an hour before its first round, through a real SMTP server, to its entrants with a
verified address in their language, at most once, its kind turned off by its own link."""

from __future__ import annotations

import re
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from mail_server import Inbox

from tournaments import tasks
from tournaments.models import Account, MailSent, Tournament
from tournaments.services import entries as entry_services
from tournaments.services import live as live_services
from tournaments.services import mail as mail_services

pytestmark = pytest.mark.django_db


def _player(name: str, *, language: str = "nl", verified: bool = True, **account: Any) -> Any:
    user = factories.make_user(name, email=f"{name}@example.org", verified=verified)
    Account.objects.create(user=user, language=language, **account)
    return user


def _text(message: EmailMessage) -> str:
    part = message.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def test_the_reminder_goes_to_verified_entrants_an_hour_before_once(
    smtp: Inbox, django_capture_on_commit_callbacks: Any, settings: Any
) -> None:
    assert settings.CELERY_BEAT_SCHEDULE["remind-live-evenings"]["task"] == (
        "tournaments.tasks.live_reminders_due"
    )
    t = factories.make_live_evening(name="Dinsdagavond", rounds=3, starts_in=timedelta(hours=2))
    anna = _player("anna", language="nl")
    bill = _player("bill", language="en")
    carl = _player("carl", verified=False)
    dora = _player("dora", mail_reminders=False)
    for user in (anna, bill, carl, dora):
        entry_services.entry_join(tournament_id=t.pk, user=user)
    # two hours before: not yet
    assert live_services.live_reminders_due() == []
    factories.live_move_clock(t, timedelta(minutes=90))
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.live_reminders_due.delay().get() == [t.pk]
    lobby = f"https://kaarten.example.org{reverse('tournament_live', args=[t.pk])}"
    (dutch,) = smtp.messages("anna@example.org")
    assert dutch["Subject"] == "Dinsdagavond begint zo"
    body = _text(dutch)
    assert "Hallo anna," in body and lobby in body
    assert "Er zijn 3 rondes" in body and "telt niet voor je mee" in body
    assert dutch["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    (english,) = smtp.messages("bill@example.org")
    assert english["Subject"] == "Dinsdagavond starts soon"
    assert "It has 3 rounds" in _text(english) and lobby in _text(english)
    # no mail to an address that is not verified, nor with the kind off
    assert smtp.messages("carl@example.org") == [] and smtp.messages("dora@example.org") == []
    # once: beat again, and the task delivered again, send nothing more
    assert live_services.live_reminders_due() == []
    tasks.live_reminder_mail.delay(t.pk)
    assert len(smtp.envelopes) == 2
    assert MailSent.objects.filter(kind="reminders", object_id=t.pk).count() == 2
    # the mail's own link turns that kind off, without logging in
    match = re.fullmatch(
        r"<https://kaarten\.example\.org(/mail/off/[^>]+/)>", english["List-Unsubscribe"].strip()
    )
    assert match is not None
    Client().post(match.group(1), {"List-Unsubscribe": "One-Click"})
    account = Account.objects.get(user=bill)
    assert account.mail_reminders is False and account.mail_results is True


def test_no_reminder_once_the_first_round_has_opened(smtp: Inbox) -> None:
    t = factories.make_live_evening(rounds=1, starts_in=timedelta(minutes=30))
    anna = _player("anna")
    entry_services.entry_join(tournament_id=t.pk, user=anna)
    factories.live_clock_at(t, 0)
    assert live_services.live_reminders_due() == []
    assert mail_services.live_reminder_recipients(tournament_id=t.pk) == []
    assert mail_services.live_reminder_mail(tournament_id=t.pk, user_ids=[anna.pk]) == 0
    # not a live evening: nothing
    other = factories.make_tournament()
    assert mail_services.live_reminder_recipients(tournament_id=other.pk) == []
    assert Tournament.objects.get(pk=t.pk).live_reminded_at is None
    assert smtp.envelopes == []


def test_the_account_page_turns_the_reminder_off_and_on(client: Client) -> None:
    anna = _player("anna")
    client.force_login(anna)
    page = client.get(reverse("account"))
    assert 'name="mail_reminders"' in page.content.decode()
    client.post(reverse("account"), {"action": "mail_settings", "language": "nl"})
    assert Account.objects.get(user=anna).mail_reminders is False
    client.post(
        reverse("account"), {"action": "mail_settings", "language": "nl", "mail_reminders": "on"}
    )
    assert Account.objects.get(user=anna).mail_reminders is True
