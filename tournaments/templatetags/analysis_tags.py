"""Template filters of the after-the-game pages (par, the field, splits, analysis)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from tournaments.numbers import format_percent, format_result, format_signed

register = template.Library()


@register.filter
def extra_for(extras: Mapping[Any, Any] | None, key: Any) -> Any:
    """``extras[key]``, or ``None`` (a leaderboard row's figures beside its result)."""
    if not extras:
        return None
    return extras.get(key)


@register.filter
def signed(value: float | None) -> str:
    """A difference with its sign and one decimal ("+1,5", "−2,0", "0,0"); "–" for
    ``None`` (``tournaments.numbers.format_signed``)."""
    return format_signed(value)


@register.filter
def result(value: float | None) -> str:
    """A result with one decimal in the page's language ("79,3" / "79.3"); "–" for
    ``None`` (``tournaments.numbers.format_result``)."""
    return format_result(value)


@register.filter
def percent(value: float | None) -> str:
    """A percentage with one decimal ("62,5%"); "–" for ``None``."""
    return format_percent(value)
