"""The strong Jokeren bot's weights, changed one at a time, in duplicate play against the
strong bot itself: where it loses points that another weight would save.

A policy is the strong bot with some of its weights changed (``Weights``; the defaults
are the strong bot's own, and with them the policy plays exactly as the strong bot: the
result is 0.00). Its discard is chosen again among the strong bot's loose cards by the
strong bot's discard score with the changed weights (ties drawn from the bot's stream);
its draw applies the strong bot's rules for the open card with the changed weights; with
``hold_min`` it keeps the melds of its hand (lays none) while every opponent holds at
least that many cards and it cannot go out. Each deal is played twice, seats swapped, as
in ``duplicate.py``; the result is the policy's seats' average penalty minus the strong
bot's per player and round (negative: the change helps). Run from the repository root::

    .venv/bin/python benchmarks/strong_weights.py --deals 300 out_value=0.8 go_out=60 ...

(one policy per argument; ``name=value,name=value`` changes several weights at once).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.dealing import Stream
from engine.jokeren import PRESETS, Action, JokerenObservation, LayMelds, new_round
from engine.jokeren import bots as B
from engine.jokeren.actions import DISCARDS, DRAW_OPEN, DRAW_STOCK, Discard
from engine.jokeren.bots import hand as H
from engine.jokeren.bots import lanes as L
from engine.jokeren.bots import play as P
from engine.jokeren.bots import strong as S


class Weights(NamedTuple):
    """The strong bot's weights (``engine/jokeren/bots/strong.py``), and its defaults."""

    #: a discard's points are multiplied by this when an opponent holds at most 2 cards
    near2: float = 2.5
    #: ... or at most 4
    near4: float = 1.5
    #: per unseen card that would meld a loose card (``_OUT_VALUE``)
    out_value: float = 1.6
    #: going out next turn (``_GO_OUT``), and the loose cards from which it is weighed
    go_out: float = 30.0
    look: int = 7
    #: a card that fits the table (``_FITS_TABLE``)
    fits: float = 40.0
    #: a card near one the next player took (``_FEED_NEXT``)
    feed: float = 6.0
    #: take a cheap open card (at most ``near_take`` points) with ``near_outs`` outs
    near_take: int = 5
    near_outs: int = 4
    #: take an open card that lowers the split's penalty (1), by more than ``take_bias``
    lower: int = 1
    take_bias: float = 0.0
    #: keep the hand's melds while every opponent holds at least this many cards
    hold_min: int = 99


def _score(view: B.BotView, part: B.Partition, k: int, w: Weights) -> float:
    """``strong.discard_score`` with the weights ``w``."""
    others = [n for s, n in enumerate(view.hand_counts) if s != view.seat]
    fewest = min(others) if others else 99
    value = 1.0 + H.KIND_POINTS[k] / 20 if view.by_cards else float(H.KIND_POINTS[k])
    if fewest <= 2:
        value *= w.near2
    elif fewest <= 4:
        value *= w.near4
    if view.lay_off_next and len(part.loose) + part.loose_jokers <= w.look:
        rest = list(view.naturals)
        rest.remove(k)
        jokers = view.jokers
        for m in part.melds:
            for c in m.naturals:
                rest.remove(c)
            jokers -= len(m.jokers)
        value += w.go_out * S.go_out_chance(tuple(rest), jokers, view, S.unseen_all(view))
    keep = w.out_value * S.outs(view, k, part.loose, part.melds)
    if view.by_cards:
        keep /= 4
    if k in view.table.fit or k in view.table.swaps:
        keep += w.fits
    suit, ri = divmod(k, 13)
    for t in view.next_taken:
        if t == B.JOKER_KIND:
            continue
        ts, tri = divmod(t, 13)
        if tri == ri or (ts == suit and abs(tri - ri) <= 2):
            keep += w.feed
            break
    return value - keep


def _take_open(view: B.BotView, w: Weights) -> bool:
    """``strong.take_open`` with the weights ``w``."""
    top = view.open_top
    if top is None:
        return False
    tk = H.KIND[top]
    naturals, jokers = view.naturals, view.jokers
    table = view.table if view.lay_off_now else None
    verdict = S.open_card_verdict(L.lane_mask(naturals), jokers, tk, table)
    if verdict is not None:
        return verdict
    weights = H.CARD_WEIGHTS if view.by_cards else H.POINT_WEIGHTS
    now = B.partition(naturals, jokers, view.by_cards)
    after = B.partition(tuple(sorted((*naturals, tk))), jokers, view.by_cards)
    bias = w.take_bias * (H.CARD_WEIGHT if view.by_cards else 1)
    if w.lower and after.cost < now.cost + weights[tk] - bias:
        return True
    if not view.by_cards:
        near = S.outs(view, tk, (*now.loose,), now.melds) >= w.near_outs
        return H.KIND_POINTS[tk] <= w.near_take and near
    return False


def _no_lay(view: B.BotView) -> Action | None:
    """The strong bot's swap or lay-off when it lays no meld, else ``None`` (discard)."""
    part = B.partition(view.naturals, view.jokers, view.by_cards)
    if not view.lay_off_now:
        return None
    if not view.table.swaps.keys().isdisjoint(view.naturals):
        swap = P.swap(view, part)
        if swap is not None:
            return swap
    fit = view.table.fit
    if (part.loose_jokers and B.JOKER_KIND in fit) or not fit.keys().isdisjoint(part.loose):
        lay_off = P.lay_off(view, part)
        return None if lay_off is None else S.safe_lay_off(view, lay_off)
    return None


def choose(obs: JokerenObservation, rng: Stream, w: Weights) -> Action:
    """The policy's action (the strong bot's where ``w`` changes nothing)."""
    view = B.view_of(obs, strong=True)
    if obs.phase == "draw":
        if _take_open(view, w) or B.open_card_goes_out(obs):
            return DRAW_OPEN
        return DRAW_STOCK
    line = B.going_out_line(obs)
    if line is not None:
        return line[0]
    action: Action | None
    try:
        action = S.decide(view, None)
    except ValueError:  # a tie among the discards: drawn from the stream below
        action = None
    if isinstance(action, LayMelds):
        others = [n for s, n in enumerate(view.hand_counts) if s != view.seat]
        if min(others) >= w.hold_min:
            action = _no_lay(view)
    if action is not None and not isinstance(action, Discard):
        return action
    part = B.partition(view.naturals, view.jokers, view.by_cards)
    loose = [k for k in dict.fromkeys(part.loose) if k != view.taken_kind]
    if not loose:
        return action if action is not None else S.decide(view, rng)
    scores = {k: _score(view, part, k, w) for k in loose}
    top = max(scores.values())
    best = sorted(k for k in loose if scores[k] == top)
    k = best[0] if len(best) == 1 else rng.choice(best)
    return DISCARDS[P.lowest_id(view.hand, k)]


def _round(preset: str, deal: int, mine: tuple[int, ...], w: Weights) -> float:
    """One game of a deal: the policy in seats ``mine``; its average minus the others'."""
    variant = PRESETS[preset]
    secret = deal.to_bytes(4, "big") * 8
    state = new_round(variant, secret=secret, round_index=deal % variant.rounds)
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        if seat in mine:
            rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
            action = choose(state.observe(seat), rng, w)
        else:
            action = B.bot_action(state, level="strong")
        state = state.apply(action)
    scores = state.scores()
    theirs = [s for i, s in enumerate(scores) if i not in mine]
    return statistics.mean(scores[i] for i in mine) - statistics.mean(theirs)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=300)
    p.add_argument("--preset", action="append", help="default: jokeren7 and jokeren13")
    p.add_argument("changes", nargs="*", help="name=value[,name=value] per policy")
    args = p.parse_args()
    presets = args.preset or ["jokeren7", "jokeren13"]
    for spec in args.changes or [""]:
        defaults = Weights._field_defaults
        changes = dict(part.split("=") for part in spec.split(",") if part)
        w = Weights(**{k: type(defaults[k])(v) for k, v in changes.items()})
        started = time.time()
        row = []
        for preset in presets:
            diffs = [
                (_round(preset, d, (0, 2), w) + _round(preset, d, (1, 3), w)) / 2
                for d in range(args.deals)
            ]
            half = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
            row.append(f"{preset} {statistics.mean(diffs):+.2f} ± {half:.2f}")
        took = time.time() - started
        print(f"{spec or 'strong':32s} {'  '.join(row)}  ({args.deals} deals, {took:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
