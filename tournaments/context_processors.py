"""Template context: whether the user may organize tournaments."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from tournaments.permissions import is_organizer


def roles(request: HttpRequest) -> dict[str, Any]:
    return {"is_organizer": is_organizer(request.user)}
