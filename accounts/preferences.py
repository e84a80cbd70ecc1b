"""What the site keeps and asks of a logged-in account besides its pages: the language of
its mail, a mail address (docs/rules.md, "Accounts")."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tournaments import permissions
from tournaments.services import mail as mail_services


def asks_for_address(user: Any) -> bool:
    """Whether the site asks this user to add a mail address: a logged-in human account
    without one (a bot account needs none)."""
    return permissions.is_logged_in(user) and not user.email and not permissions.is_bot(user)


def remember_language(request: HttpRequest, language: str | None) -> None:
    """A logged-in user's choice of a language of the site is also the language of their
    mail (``Account.language``)."""
    if permissions.is_logged_in(request.user) and language in mail_services.LANGUAGES:
        mail_services.account_language_set(user=request.user, language=language)
