"""How much stronger one bot level plays than another, as measured, and which levels a
game offers for new play because of it (docs/rules.md, "Bot levels").

A measurement is ``benchmarks/duplicate.py``'s: both levels play the same deals with the
seats swapped, and the mean difference per deal comes with its 95% interval. The levels
``basic`` and ``strong`` are always offered; a level above them (``expert``) is offered
for new tournaments, series and practice games only while the game's current bot version
of it beats ``strong`` in every preset of the game, on at least ``MIN_DEALS`` deals each,
with the whole interval on the better side of zero. Stored games and tournaments keep
their level and version whatever is offered.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: The levels every game offers; a level above them has to earn its place.
ALWAYS_OFFERED = ("basic", "strong")
#: The level a higher one must beat.
YARDSTICK = "strong"
#: Deals a measurement needs per preset before it can earn a level its place.
MIN_DEALS = 2000


@dataclass(frozen=True)
class Strength:
    """``level`` against ``against`` on the same ``deals`` deals of ``preset``, bots of
    ``version``: the mean of ``level``'s result minus ``against``'s, in the game's unit
    (Jokeren: penalty points per player and round, lower is better; Klaverjassen: points
    per deal, higher is better), with its 95% interval [``low``, ``high``]; measured on
    ``measured`` (ISO date)."""

    level: str
    against: str
    preset: str
    version: int
    mean: float
    low: float
    high: float
    deals: int
    measured: str

    def clearly_better(self, *, lower_is_better: bool) -> bool:
        """Whether the whole interval lies on ``level``'s better side of zero."""
        return self.high < 0 if lower_is_better else self.low > 0


def earns_its_place(
    level: str,
    *,
    strengths: Iterable[Strength],
    presets: Iterable[str],
    version: int,
    lower_is_better: bool,
) -> bool:
    """Whether ``level`` of bot ``version`` beats ``YARDSTICK`` clearly, on at least
    ``MIN_DEALS`` deals, in every one of ``presets``."""
    measured = [s for s in strengths if s.level == level and s.against == YARDSTICK]
    for preset in presets:
        ok = [
            s
            for s in measured
            if s.preset == preset
            and s.version == version
            and s.deals >= MIN_DEALS
            and s.clearly_better(lower_is_better=lower_is_better)
        ]
        if not ok:
            return False
    return True


def offered_levels(
    levels: Sequence[str],
    *,
    strengths: Iterable[Strength],
    presets: Iterable[str],
    version: int,
    lower_is_better: bool,
) -> tuple[str, ...]:
    """``levels`` (weakest first) less those above ``ALWAYS_OFFERED`` that do not earn
    their place (``earns_its_place``)."""
    strengths, presets = tuple(strengths), tuple(presets)
    return tuple(
        level
        for level in levels
        if level in ALWAYS_OFFERED
        or earns_its_place(
            level,
            strengths=strengths,
            presets=presets,
            version=version,
            lower_is_better=lower_is_better,
        )
    )
