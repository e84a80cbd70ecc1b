"""The bot levels on a rules page (docs/rules.md, "Bot levels"): for each level of the
game, whether new play may choose it, and how much it beat the level below it in the
page's preset as measured (``engine.strength``), stated from the stronger side: a
positive ``gain`` is the level's advantage, in the game's unit (Jokeren: penalty points
per player and round; Klaverjassen: points per deal)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.protocol import GameModule


@dataclass(frozen=True)
class LevelFigure:
    """``level`` against ``against`` in one preset: the mean gain and its 95% interval
    [``low``, ``high``] (positive: ``level`` plays better), over ``deals`` deals;
    ``better``: the whole interval is above zero."""

    level: str
    offered: bool
    against: str | None = None
    gain: float = 0.0
    low: float = 0.0
    high: float = 0.0
    deals: int = 0
    measured: str = ""
    version: int = 0

    @property
    def better(self) -> bool:
        return self.against is not None and self.low > 0


def level_figures(module: GameModule, preset: str) -> list[LevelFigure]:
    """Every level of ``module`` (weakest first), with its measurement against the level
    below it in ``preset`` (the latest of the current bot version; none for the weakest or
    an unmeasured preset)."""
    sign = -1.0 if module.LOWER_IS_BETTER else 1.0
    out = []
    for i, level in enumerate(module.BOT_LEVELS):
        offered = level in module.OFFERED_BOT_LEVELS
        below = module.BOT_LEVELS[i - 1] if i else None
        found = [
            s
            for s in module.STRENGTHS
            if s.level == level
            and s.against == below
            and s.preset == preset
            and s.version == module.BOT_VERSION
        ]
        if not found:
            out.append(LevelFigure(level, offered))
            continue
        s = max(found, key=lambda m: m.measured)
        low, high = sorted((sign * s.low, sign * s.high))
        out.append(
            LevelFigure(
                level,
                offered,
                against=s.against,
                gain=sign * s.mean,
                low=low,
                high=high,
                deals=s.deals,
                measured=s.measured,
                version=s.version,
            )
        )
    return out
