"""Template filters of the after-the-game pages (par, the field, splits, analysis)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template

from tournaments import services
from tournaments.models import ParRound
from tournaments.numbers import format_comparison, format_percent, format_result

register = template.Library()


@register.filter
def extra_for(extras: Mapping[Any, Any] | None, key: Any) -> Any:
    """``extras[key]``, or ``None`` (a leaderboard row's figures beside its result)."""
    if not extras:
        return None
    return extras.get(key)


@register.filter
def compared(value: float | None, lower_is_better: bool = False) -> str:
    """A result minus the one it is compared with, in words for the first ("27,7
    slechter", "3,0 beter", "gelijk"; ``tournaments.numbers.format_comparison``):
    ``{{ f.vs_par|compared:lower_is_better }}``, the game's ranking as the argument."""
    return format_comparison(value, lower_is_better=bool(lower_is_better))


@register.filter
def against_bot(gain: float | None) -> str:
    """The player's choice against the strong bot's, in words ("3,0 slechter"), from the
    analysis's ``gain`` (how much better the bot's choice did, in either game's sense)."""
    return format_comparison(None if gain is None else -gain)


@register.filter
def par_opponents(par: ParRound | None) -> float | None:
    """What par's South is measured against (the opponents' average, the other team's
    points), as a player's row shows it (``services.opponents_of``)."""
    if par is None:
        return None
    return services.opponents_of(int(par.scores[0]), par.result)


@register.filter
def result(value: float | None) -> str:
    """A result with one decimal in the page's language ("79,3" / "79.3"); "–" for
    ``None`` (``tournaments.numbers.format_result``)."""
    return format_result(value)


@register.filter
def percent(value: float | None) -> str:
    """A percentage with one decimal ("62,5%"); "–" for ``None``."""
    return format_percent(value)
