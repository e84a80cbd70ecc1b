"""Template filters of the after-the-game pages (par, the field, splits, analysis)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.template.defaultfilters import floatformat

register = template.Library()


@register.filter
def extra_for(extras: Mapping[Any, Any] | None, key: Any) -> Any:
    """``extras[key]``, or ``None`` (a leaderboard row's figures beside its result)."""
    if not extras:
        return None
    return extras.get(key)


@register.filter
def signed(value: float | None) -> str:
    """A difference with its sign and two decimals ("+1,50", "−2,00", "0,00"); "–" for
    ``None``."""
    if value is None:
        return "–"
    text = floatformat(abs(value), 2)
    if round(value, 9) > 0:
        return f"+{text}"
    if round(value, 9) < 0:
        return f"−{text}"
    return str(text)


@register.filter
def percent(value: float | None) -> str:
    """A percentage with one decimal ("62,5%"); "–" for ``None``."""
    if value is None:
        return "–"
    return f"{floatformat(value, 1)}%"
