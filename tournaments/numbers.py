"""Numbers as people read them: one format for a result everywhere on the site.

A result (a player's result, the opponents' average, a field's average or best, a
season total) is shown with the game's decimals (the game module's ``RESULT_DECIMALS``:
Jokeren ONE, Klaverjassen none, whole points) and the active language's decimal sign:
Dutch ``79,3``, English ``79.3``; Klaverjassen ``123``. A difference between two results
(against par, another player, the strong bot) is said in words, never with a sign whose
meaning depends on the game: ``27,7 slechter``, ``3,0 beter``, ``gelijk``
(``format_comparison``). The pages use the template filters ``result`` and ``compared``
(``analysis_tags``), the live-updated numbers ``static/js/numbers.js``
(``Intl.NumberFormat`` with the page's language, the same decimals,
``data-result-decimals`` on the table). CSV exports are for spreadsheets: the same
decimals, a point, or a decimal comma in the ``;`` file that Dutch Excel reads
(``result_csv``). The standings API gives every figure rounded to ``API_DECIMALS``
(``figure_json``).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Final

from django.utils.formats import number_format
from django.utils.translation import gettext

#: Decimals of a result wherever a person reads it (and in the CSV exports), unless the
#: game's ``RESULT_DECIMALS`` says otherwise (Klaverjassen: 0).
RESULT_DECIMALS: Final = 1
#: Decimals of every non-integer figure of the standings API (result, average, parts,
#: percentage, against par, rating): one rounding for all of them.
API_DECIMALS: Final = 2
#: Shown for a result that does not exist (yet).
NO_RESULT: Final = "–"


def _rounded(value: float, decimals: int = RESULT_DECIMALS) -> Decimal:
    """``value`` to ``decimals``, half away from zero on its exact binary value, as
    ``Intl.NumberFormat`` rounds in the browser (the same text on both sides)."""
    return Decimal(value).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def format_result(value: float | None, decimals: int = RESULT_DECIMALS) -> str:
    """A result for people: ``decimals`` (the game's), the active language's decimal sign
    (Dutch ``79,3``, English ``79.3``, ``-2,0``; Klaverjassen ``123``); ``–`` for
    ``None``."""
    if value is None:
        return NO_RESULT
    rounded = _rounded(value, decimals)
    text = number_format(abs(rounded), decimal_pos=decimals)
    return f"-{text}" if rounded < 0 else str(text)


def format_comparison(
    value: float | None, *, lower_is_better: bool = False, decimals: int = RESULT_DECIMALS
) -> str:
    """A difference between two results in words, the one convention of every page: the
    first result against the one it is compared with (par's, another player's, the strong
    bot's), whichever way the game ranks: ``value`` is the first minus the second, and
    ``lower_is_better`` says the game ranks lower results first (Jokeren: a positive
    difference is worse; Klaverjassen: better). Dutch ``27,7 slechter``, ``3,0 beter``,
    ``gelijk``; English ``27.7 worse``, ``3.0 better``, ``equal`` (a difference that
    rounds to zero at one decimal is equal); ``–`` for ``None``."""
    if value is None:
        return NO_RESULT
    rounded = _rounded(value, decimals)
    if rounded.is_zero():
        return gettext("equal")
    text = number_format(abs(rounded), decimal_pos=decimals)
    better = (rounded < 0) if lower_is_better else (rounded > 0)
    if better:
        return gettext("%(points)s better") % {"points": text}
    return gettext("%(points)s worse") % {"points": text}


def format_percent(value: float | None) -> str:
    """A percentage for people, one decimal: ``62,5%`` / ``62.5%``; ``–`` for ``None``."""
    if value is None:
        return NO_RESULT
    return f"{format_result(value)}%"


def result_csv(
    value: float | None, decimals: int = RESULT_DECIMALS, *, decimal_comma: bool = False
) -> str:
    """A result in a CSV export: the game's decimals, with a point (``-17.7``) or, for the
    ``;`` file that Dutch Excel reads, a decimal comma (``-17,7``); empty for ``None``."""
    if value is None:
        return ""
    rounded = _rounded(value, decimals)
    text = f"{0 if rounded.is_zero() else rounded:.{decimals}f}"
    return text.replace(".", ",") if decimal_comma else text


def figure_json(value: float | None) -> float | None:
    """A figure of the standings API rounded to ``API_DECIMALS`` (half away from zero, as
    everywhere): ``144.67`` beside ``58.33``, never ``144.66666666666666``."""
    if value is None:
        return None
    return float(_rounded(value, API_DECIMALS))
