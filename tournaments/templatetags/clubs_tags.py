"""Template tags of clubs: which leaderboard rows are bot accounts."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

from tournaments.series import bot_user_ids

register = template.Library()


@register.simple_tag
def bot_accounts(rows: Iterable[Any]) -> set[int]:
    """The user ids of the bot accounts among leaderboard rows (``Standing``)."""
    return bot_user_ids([r.user_id for r in rows])
