"""Where a bot level loses penalty points in Jokeren: the points left in the losers'
hands at a round's end, by cause, with the same level in every seat.

Per loser (every seat but the one that went out) the points are split into: the hand's
best split into melds (``hand_partition``) left in hand, loose jokers, loose cards that
fit a meld on the table, loose high cards (10 points or more) and loose low cards; and
the share of losers that never came out (with their points). Run from the repository
root::

    .venv/bin/python benchmarks/penalty_causes.py [--rounds 400] [--level strong]
        [--preset jokeren7 ...]

The rounds are those of ``duplicate.py``: secret ``d.to_bytes(4, "big") * 8``, round
``d mod rounds``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.jokeren import PRESETS, JokerenState, bot_action, new_round
from engine.jokeren.bots import JOKER_KIND, KIND_POINTS, hand_partition, table_view


def causes(state: JokerenState, c: Counter[str]) -> None:
    """Add the round's losers' points by cause to ``c``."""
    fit = table_view(state.table).fit
    scores = state.scores()
    for seat, hand in enumerate(state.hands):
        if seat == state.winner:
            continue
        c["losers"] += 1
        c["points"] += scores[seat]
        part = hand_partition(hand)
        c["in melds"] += sum(KIND_POINTS[k] for m in part.melds for k in m.naturals)
        c["in melds"] += KIND_POINTS[JOKER_KIND] * sum(len(m.jokers) for m in part.melds)
        c["loose jokers"] += KIND_POINTS[JOKER_KIND] * part.loose_jokers
        for k in part.loose:
            pts = KIND_POINTS[k]
            if k in fit:
                c["loose, fits the table"] += pts
            elif pts >= 10:
                c["loose high (10+)"] += pts
            else:
                c["loose low (2-9)"] += pts
        if not state.out[seat]:
            c["never came out"] += 1
            c["points of those"] += scores[seat]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=400)
    p.add_argument("--level", default="strong")
    p.add_argument("--preset", action="append", help="presets (default jokeren7, jokeren13)")
    args = p.parse_args()
    for preset in args.preset or ["jokeren7", "jokeren13"]:
        variant = PRESETS[preset]
        c: Counter[str] = Counter()
        for d in range(args.rounds):
            secret = d.to_bytes(4, "big") * 8
            state = new_round(variant, secret=secret, round_index=d % variant.rounds)
            while not state.is_terminal:
                state = state.apply(bot_action(state, level=args.level))
            c["turns"] += state.turn
            c["no winner"] += state.winner is None
            causes(state, c)
        n = c["losers"]
        turns = c["turns"] / args.rounds
        print(f"{preset} ({args.level}, {args.rounds} rounds, {turns:.1f} turns a round)")
        keys = ("points", "in melds", "loose jokers", "loose, fits the table")
        for key in (*keys, "loose high (10+)", "loose low (2-9)", "points of those"):
            print(f"  {key:24s} {c[key] / n:6.2f} points per loser")
        print(f"  never came out: {c['never came out'] / n:.1%} of the losers")
        print(f"  rounds without a winner: {c['no winner']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
