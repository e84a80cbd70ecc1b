"""What the accounts app does when allauth signs a user up or logs one in."""

from __future__ import annotations

from typing import Any

from allauth.account.signals import user_signed_up
from django.contrib import messages
from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import preferences
from accounts.signals import account_deleted
from tournaments.services import fairplay as fairplay_services
from tournaments.services import mail as mail_services


@receiver(user_signed_up)
def _signed_up(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """The language the visitor chose on the site is the one of their mail; a welcome."""
    language = translation.get_language()
    if language in mail_services.LANGUAGES:
        mail_services.account_language_set(user=user, language=language)
    messages.success(
        request,
        _("Welcome, %(name)s: your account has been created and you are logged in.")
        % {"name": user.get_username()},
    )


@receiver(user_logged_in)
def _logged_in(sender: Any, request: HttpRequest, user: Any, **kwargs: Any) -> None:
    """An account without a mail address is asked to add one at its log-in."""
    if preferences.asks_for_address(user):
        messages.warning(
            request,
            _(
                "Your account has no mail address yet: add one, so that you can reset "
                "your password, get mail and play rated."
            ),
            fail_silently=True,  # a log-in without messages (a test client's)
        )


@receiver(account_deleted)
def _fair_play_data_removed(sender: Any, user_id: int, **kwargs: Any) -> None:
    """A deleted account's fair-play data goes with it (docs/rules.md, "Accounts", rule
    7): its sightings (device, network prefix, user agent of its log-ins and entries) and
    what linked flags' evidence quotes of it (``services.fairplay.account_fairplay_forget``)."""
    fairplay_services.account_fairplay_forget(user_id=user_id)
