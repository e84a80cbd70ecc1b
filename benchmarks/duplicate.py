"""Two bot levels against each other in duplicate play, per preset of either game.

Every deal is played twice: level A in seats 0 and 2 against level B in 1 and 3, then
the other way round (same deal, seats swapped). A deal's result is the mean over the
two games of:

- Jokeren: A's seats' average penalty minus B's (points, or cards where the variant
  scores cards): negative means A is better;
- Klaverjassen: the score of A's team minus the score of B's team in the round:
  positive means A is better.

The deals are those of secret ``d.to_bytes(4, "big") * 8``, round ``d mod rounds``, for
``d`` from ``--first``. Each deal's result goes to ``duplicate.jsonl`` in the run's output
folder (``--out``, default a new ``benchmarks/out/<UTC time>-duplicate/``), so that runs
on parts of the deals can be merged with ``--merge``. Run from the repository root::

    .venv/bin/python benchmarks/duplicate.py [--deals 300] [--pair strong,basic]
        [--preset jokeren13 ...] [--first 0] [--version N] [--out DIR]
    .venv/bin/python benchmarks/duplicate.py --merge run1/duplicate.jsonl run2/duplicate.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from run_output import add_out_option, out_dir

from engine.match import play_round
from engine.registry import game_module, game_of_preset

#: Student's t quantile for a two-sided 95% interval is within 1% of 1.96 from 120
#: deals on; below that the interval is a little too narrow.
Z95 = 1.96


def deal_result(preset: str, deal: int, a: str, b: str, version: int | None = None) -> float:
    """The result of one deal (see the module text) of level ``a`` against ``b``, the
    bots of ``version`` (default: the game's current ``BOT_VERSION``)."""
    game = game_module(game_of_preset(preset))
    variant = game.PRESETS[preset]
    secret = deal.to_bytes(4, "big") * 8
    total = 0.0
    for levels in ([a, b] * 2, [b, a] * 2):
        state, _ = play_round(
            game,
            variant,
            secret=secret,
            round_index=deal % variant.rounds,
            levels=levels,
            version=version,
        )
        scores = state.scores()
        mine = [scores[s] for s in range(4) if s % 2 == levels.index(a)]
        theirs = [scores[s] for s in range(4) if s % 2 != levels.index(a)]
        if game.LOWER_IS_BETTER:
            total += statistics.mean(mine) - statistics.mean(theirs)
        else:  # each seat scores its team's points: seat 0 or 1 speaks for its team
            total += mine[0] - theirs[0]
    return total / 2


def summary(preset: str, a: str, b: str, diffs: list[float]) -> str:
    game = game_module(game_of_preset(preset))
    n = len(diffs)
    mean = statistics.mean(diffs)
    half = Z95 * statistics.stdev(diffs) / n**0.5 if n > 1 else float("nan")
    better = sum(x < 0 for x in diffs) if game.LOWER_IS_BETTER else sum(x > 0 for x in diffs)
    worse = sum(x > 0 for x in diffs) if game.LOWER_IS_BETTER else sum(x < 0 for x in diffs)
    unit = (
        "points per player and round" if game.LOWER_IS_BETTER else "points per deal (team scores)"
    )
    return (
        f"{preset:12s} {a} - {b} = {mean:+.2f}, 95% CI [{mean - half:+.2f}, {mean + half:+.2f}] "
        f"{unit} ({n} deals; {a} better on {better}, worse on {worse})"
    )


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--first", type=int, default=0, help="the first deal's number")
    p.add_argument("--pair", default="strong,basic", help="levels A,B (default strong,basic)")
    p.add_argument("--preset", action="append", help="presets (default: every Jokeren one)")
    p.add_argument("--version", type=int, help="the bots' version (default: the current)")
    add_out_option(p)
    p.add_argument("--merge", nargs="+", type=Path, help="summarise JSON-lines files instead")
    args = p.parse_args()
    if args.merge:
        groups: dict[tuple[str, str, str], dict[int, float]] = {}
        for path in args.merge:
            for line in path.read_text().splitlines():
                row = json.loads(line)
                key = (row["preset"], row["a"], row["b"])
                groups.setdefault(key, {})[row["deal"]] = row["result"]
        for (preset, a, b), by_deal in sorted(groups.items()):
            print(summary(preset, a, b, list(by_deal.values())), flush=True)
        return 0
    a, b = args.pair.split(",")
    deals = out_dir(args.out, "duplicate") / "duplicate.jsonl"
    print(f"each deal's result: {deals}", file=sys.stderr)
    presets = args.preset or list(game_module("jokeren").PRESETS)
    for preset in presets:
        diffs: list[float] = []
        for deal in range(args.first, args.first + args.deals):
            result = deal_result(preset, deal, a, b, args.version)
            diffs.append(result)
            with deals.open("a") as out:
                row = {"preset": preset, "a": a, "b": b, "deal": deal, "result": result}
                out.write(json.dumps(row) + "\n")
        print(summary(preset, a, b, diffs), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
