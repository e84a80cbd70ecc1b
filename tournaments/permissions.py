"""Who may do what."""

from __future__ import annotations

from typing import Any

ORGANIZERS_GROUP = "organizers"


def is_organizer(user: Any) -> bool:
    """Staff, or a member of the "organizers" group."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff:
        return True
    return bool(user.groups.filter(name=ORGANIZERS_GROUP).exists())
