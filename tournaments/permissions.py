"""Who may do what."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.http import HttpRequest

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
