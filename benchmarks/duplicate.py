"""Strong against basic in duplicate play, per Jokeren preset.

Every deal is played twice: strong in seats 0 and 2 against basic in 1 and 3, then the
other way round. A deal's result is the strong seats' average penalty minus the basic
seats' average over both games (negative: strong scored fewer points). Run from the
repository root::

    .venv/bin/python benchmarks/duplicate.py [--deals 300] [--preset jokeren13 ...]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine.jokeren as jokeren
from engine.match import play_round


def duplicate(preset: str, deals: int) -> tuple[float, float, int, int]:
    """Mean and standard error of strong minus basic per deal, and the number of deals
    strong won and lost."""
    variant = jokeren.PRESETS[preset]
    diffs: list[float] = []
    for d in range(deals):
        secret = d.to_bytes(4, "big") * 8
        total = 0.0
        for levels in (["strong", "basic"] * 2, ["basic", "strong"] * 2):
            state, _ = play_round(
                jokeren, variant, secret=secret, round_index=d % variant.rounds, levels=levels
            )
            scores = state.scores()
            strong = [scores[s] for s in range(4) if levels[s] == "strong"]
            basic = [scores[s] for s in range(4) if levels[s] == "basic"]
            total += statistics.mean(strong) - statistics.mean(basic)
        diffs.append(total / 2)
    mean = statistics.mean(diffs)
    se = statistics.stdev(diffs) / len(diffs) ** 0.5
    return mean, se, sum(x < 0 for x in diffs), sum(x > 0 for x in diffs)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--preset", action="append", choices=sorted(jokeren.PRESETS))
    args = p.parse_args()
    for preset in args.preset or list(jokeren.PRESETS):
        mean, se, won, lost = duplicate(preset, args.deals)
        print(
            f"{preset:12s} strong - basic = {mean:+.2f} ± {se:.2f} points per player and "
            f"round ({args.deals} deals; strong better on {won}, worse on {lost})",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
