"""Template context: whether the user may organize tournaments, and see fair play's
flags across clubs (staff)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tournaments.permissions import is_organizer, may_see_account_flags


def roles(request: HttpRequest) -> dict[str, Any]:
    return {
        "is_organizer": is_organizer(request.user),
        "may_see_fair_play": may_see_account_flags(request.user),
    }
