"""How the Klaverjas bot levels measured against each other, and which are offered for
new play because of it (``engine.strength``; docs/rules.md, "Bot levels").

Each figure is ``benchmarks/duplicate.py --pair <level>,<against> --deals N --preset P``
(from deal 0): the level's team points per deal minus the other's, on the same deals with
the seats swapped; higher is better. The expert of version 2 beats strong clearly in both
presets, so Klaverjassen offers all three levels.
"""

from __future__ import annotations

from typing import Final

from engine.klaverjas.bots.versions import BOT_LEVELS, BOT_VERSION
from engine.klaverjas.rules import LOWER_IS_BETTER
from engine.klaverjas.variants import PRESETS
from engine.strength import Strength, offered_levels

STRENGTHS: Final[tuple[Strength, ...]] = (
    Strength("strong", "basic", "rotterdams", 2, 8.69, 5.64, 11.73, 2000, "2026-12-03"),
    Strength("strong", "basic", "amsterdams", 2, 7.73, 4.76, 10.69, 2000, "2026-12-03"),
    Strength("expert", "strong", "rotterdams", 2, 17.74, 15.22, 20.26, 2000, "2026-12-01"),
    Strength("expert", "strong", "amsterdams", 2, 20.75, 18.22, 23.29, 2000, "2026-12-01"),
)

#: The levels new tournaments, series and practice games may choose.
OFFERED_BOT_LEVELS: Final = offered_levels(
    BOT_LEVELS,
    strengths=STRENGTHS,
    presets=PRESETS,
    version=BOT_VERSION,
    lower_is_better=LOWER_IS_BETTER,
)
