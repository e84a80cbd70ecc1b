"""Who may do what."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments.errors import BotsNotAdmitted
from tournaments.models import Account, Tournament

ORGANIZERS_GROUP = "organizers"


class AuthenticatedHttpRequest(HttpRequest):
    """The request of a view behind ``login_required``: its user is logged in (for the type
    checker only; Django never makes one)."""

    user: User


def is_organizer(user: Any) -> bool:
    """Staff, or a member of the "organizers" group."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    return bool(user.groups.filter(name=ORGANIZERS_GROUP).exists())


def is_bot(user: Any) -> bool:
    """A logged-in bot account (``Account.is_bot``)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return Account.objects.filter(user_id=user.pk, is_bot=True).exists()


def check_admits(*, tournament: Tournament, user: Any) -> None:
    """Refuse a bot account's entry into a tournament that does not admit bots."""
    if not tournament.admits_bots and is_bot(user):
        raise BotsNotAdmitted.of(_("This tournament does not admit bot accounts."))
