"""How the Jokeren bot levels measured against each other, and which are offered for new
play because of it (``engine.strength``; docs/rules.md, "Bot levels").

Each figure is ``benchmarks/duplicate.py --pair <level>,<against> --deals N --preset P``
(from deal 0): the level's penalty points per player and round minus the other's, on
the same deals with the seats swapped; lower is better. The expert (version 1) is even
with strong in both presets measured, so Jokeren offers basic and strong; stored games
and tournaments with the expert keep it and replay with its bots.
"""

from __future__ import annotations

from typing import Final

from engine.jokeren.bots.versions import BOT_LEVELS, BOT_VERSION
from engine.jokeren.scoring import LOWER_IS_BETTER
from engine.jokeren.variants import PRESETS
from engine.strength import Strength, offered_levels

STRENGTHS: Final[tuple[Strength, ...]] = (
    Strength("strong", "basic", "jokeren7", 1, -0.55, -0.78, -0.31, 2000, "2026-12-03"),
    Strength("strong", "basic", "jokeren13", 1, -1.27, -1.65, -0.89, 2000, "2026-12-03"),
    Strength("strong", "basic", "klassiek", 1, -1.74, -1.89, -1.58, 2000, "2026-12-03"),
    Strength("strong", "basic", "veertigen", 1, -3.16, -3.75, -2.56, 2000, "2026-12-03"),
    Strength("strong", "basic", "vijf-rondes", 1, -1.22, -1.35, -1.09, 2000, "2026-12-03"),
    Strength("strong", "basic", "wedstrijd", 1, -1.54, -1.69, -1.38, 2000, "2026-12-03"),
    Strength("expert", "strong", "jokeren7", 1, -0.06, -0.23, 0.11, 1117, "2026-11-30"),
    Strength("expert", "strong", "jokeren13", 1, 0.12, -0.27, 0.50, 810, "2026-11-30"),
)

#: The levels new tournaments, series and practice games may choose.
OFFERED_BOT_LEVELS: Final = offered_levels(
    BOT_LEVELS,
    strengths=STRENGTHS,
    presets=PRESETS,
    version=BOT_VERSION,
    lower_is_better=LOWER_IS_BETTER,
)
