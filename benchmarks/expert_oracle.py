"""How much the Jokeren expert's search could gain with more knowledge: its decisions
searched with the cards seen.

Run from the repository root::

    .venv/bin/python benchmarks/expert_oracle.py [--deals 200] [--first 0]
        [--preset jokeren7 ...] [--horizon turn|round]
        [--know all|hands|next|none|infer|model] [--worlds 8] [--pool 32]
        [--select top|resample] [--beta 1.5] [--out DIR]
    .venv/bin/python benchmarks/expert_oracle.py --diagnose [--deals 20] [--pool 32] ...

Each deal's result goes to ``expert_oracle.jsonl`` in the run's output folder (``--out``,
default a new ``benchmarks/out/<UTC time>-expert_oracle/``; ``duplicate.py --merge``
summarises such files).

Not a bot (docs/rules.md §4: no bot sees what its seat cannot): a measuring stick for what
the expert's decisions could gain. The ``oracle`` level plays like the strong bot but,
where the released expert searches (the draw: open card or stock; the discard: the
strong bot's card and the two loose cards with the most points, none that fits the
table: ``expert._candidates``), it plays each candidate out with strong bots in every
seat, to the end of its next turn (``--horizon turn``, as the expert's rollouts) or to
the round's end (``round``), and takes the candidate of the best total value over the
worlds (``expert._value``: the opponents' average penalty minus its own; the strong
bot's choice on a tie). ``--know`` says what the worlds know:

- ``all``: the true round (every hand, the stock's order, the reshuffles): one world, a
  clairvoyant search without sampling noise;
- ``hands``: ``--worlds`` worlds with every hand true and the stock shuffled;
- ``next``: the next player's hand true, the rest sampled as the expert samples;
- ``none``: sampled from the seat's observation alone, as the expert samples
  (``expert._world``), with no budget: an honest search of ``--worlds`` worlds;
- ``infer``: sampled as ``none``, keeping at the seat's draw only the worlds where the
  strong bot in the previous seat would have made the discard it just made (honest too);
- ``model``: ``--pool`` worlds sampled as ``none``, weighted by the likelihood of every
  other seat's public actions since the deal under a reasonable player's model
  (``engine.jokeren.bots.inference``, not a bot's code), and ``--worlds`` of them kept:
  the most likely (``--select top``) or drawn by weight (``resample``); or (``mcmc``)
  ``--worlds`` worlds of a Metropolis chain over the hidden cards
  (``inference.sample_posterior``) started at one sampled world, after ``--pool``
  steps, one every ``--thin`` steps. Honest.

``--diagnose`` plays strong bots in every seat instead and, at every decision the oracle
would search, compares the worlds with the true hands: the share of the hidden cards
(those not placed from the log) that a world puts in the right seat, for the uniform
pool, the kept worlds and the pool weighted; and how many pool worlds the true world's
weight beats; and the other seats' mean loose penalty (``expert._penalty``) in the pool,
the kept worlds and the truth, and its correlation with the truth's across the decisions.

In duplicate play against the strong bot (same deals and sign as ``duplicate.py``:
negative, the oracle better) the results bound what a determinized search over these
candidates with this rollout policy can reach with that much knowledge.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from duplicate import summary
from run_output import add_out_option, out_dir

from engine.dealing import Stream
from engine.errors import IllegalMove
from engine.jokeren import PRESETS, bots, new_round
from engine.jokeren.bots import expert, inference

#: the ``model`` worlds: how many are sampled (``--pool``), how they are kept
#: (``--select``) and the model's parameters (``--beta``)
POOL: dict[str, int | str] = {"size": 32, "select": "top", "thin": 20}
MODEL = inference.Model()


def _model_worlds(state: expert.JokerenState, seat: int, n: int, rng: Stream) -> list[Any]:
    obs = state.observe(seat)
    known = expert._known_in_hands(obs)
    unseen = expert._unseen(obs)
    events = inference.public_events(obs)
    if POOL["select"] == "mcmc":
        start = expert._world(obs, known, unseen, rng)
        burn, thin = int(POOL["size"]), int(POOL["thin"])
        return inference.sample_posterior(start, seat, known, events, MODEL, rng, n, burn, thin)
    pool = [expert._world(obs, known, unseen, rng) for _ in range(int(POOL["size"]))]
    weights = [inference.world_log_weight(w, seat, events, MODEL) for w in pool]
    return inference.select_worlds(pool, weights, n, rng, str(POOL["select"]))


def _worlds(state: expert.JokerenState, seat: int, know: str, n: int, rng: Stream) -> list[Any]:
    """The worlds the search plays on: the true round (``all``), ``n`` with the true
    hands and the stock shuffled (``hands``), ``n`` with the next player's true hand and
    the rest sampled (``next``), or ``n`` sampled from the seat's observation alone as the
    expert samples them (``none``)."""
    if know == "all":
        return [state]
    if know == "model":
        return _model_worlds(state, seat, n, rng)
    obs = state.observe(seat)
    unseen = expert._unseen(obs)
    if know == "infer":
        known = expert._known_in_hands(obs)
        out = []
        for _ in range(4 * n):
            world = expert._world(obs, known, unseen, rng)
            if obs.phase != "draw" or _consistent(world, obs):
                out.append(world)
                if len(out) == n:
                    break
        return out or [expert._world(obs, known, unseen, rng)]
    if know == "hands":
        known = [list(h) if s != seat else [] for s, h in enumerate(state.hands)]
    else:
        known = expert._known_in_hands(obs)
        if know == "next":
            nxt = (seat + 1) % len(state.hands)
            known[nxt] = list(state.hands[nxt])
    return [expert._world(obs, known, unseen, rng) for _ in range(n)]


def _consistent(world: expert.JokerenState, obs: Any) -> bool:
    """Whether the strong bot in the previous player's seat, holding in ``world`` its hand
    and the card it has just discarded, would have discarded that card (at the seat's
    draw, when the last action was that discard; the table has not changed since)."""
    log = obs.log
    if not log:
        return True
    kind, o, action, _ = log[-1]
    if kind != "action" or not isinstance(action, expert.Discard) or o == obs.seat:
        return True
    taken = None
    laid = False
    start = len(log) - 1
    while start > 0:
        kind, who, act, data = log[start - 1]
        if kind != "action" or who != o:
            break
        start -= 1
        if data:
            taken = data[0]
        laid = laid or isinstance(act, expert.LayMelds)
    earlier = any(
        k == "action" and w == o and isinstance(a, expert.LayMelds) for k, w, a, _ in log[:start]
    )
    hands = list(world.hands)
    hands[o] = tuple(sorted((*hands[o], action.card)))
    past = world._evolve(
        current_player=o,
        phase="discard",
        hands=tuple(hands),
        open_pile=world.open_pile[:-1],
        taken_from_open=taken,
        came_out_this_turn=laid and not earlier,
        turn=world.turn - 1,
        move_count=world.move_count - 1,
    )
    try:
        choice = bots.bot_action(past, level="strong")
    except (IllegalMove, ValueError):
        return True
    if not isinstance(choice, expert.Discard):
        return False
    return expert.kind_of(choice.card) == expert.kind_of(action.card)


def oracle_action(
    state: expert.JokerenState, horizon: str, know: str = "all", worlds: int = 1
) -> expert.Action:
    seat = state.current_player
    assert seat is not None
    obs = state.observe(seat)
    rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
    strong = bots.choose(obs, level="strong", rng=rng)
    candidates = expert._candidates(obs, strong)
    if len(candidates) < 2:
        return strong
    by_cards = obs.variant.scoring == "cards"
    end_turn = obs.turn + obs.variant.num_players + 1
    totals = [0.0] * len(candidates)
    for world in _worlds(state, seat, know, worlds, rng):
        for i, action in enumerate(candidates):
            s = world.apply(action)
            while not s.is_terminal and (horizon == "round" or s.turn < end_turn):
                try:
                    s = s.apply(bots.bot_action(s, level="strong"))
                except IllegalMove:
                    break
            totals[i] += expert._value(s, seat, by_cards)
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


#: the CPU seconds of every ``oracle_action`` of the run's current preset
TIMES: list[float] = []


def deal_result(preset: str, deal: int, horizon: str, know: str = "all", worlds: int = 1) -> float:
    """``duplicate.deal_result`` of the oracle (A) against strong (B)."""
    variant = PRESETS[preset]
    secret = deal.to_bytes(4, "big") * 8
    total = 0.0
    for a_seats in ((0, 2), (1, 3)):
        state = new_round(variant, secret=secret, round_index=deal % variant.rounds)
        while not state.is_terminal:
            seat = state.current_player
            if seat in a_seats:
                t = time.process_time()
                action = oracle_action(state, horizon, know, worlds)
                TIMES.append(time.process_time() - t)
            else:
                action = bots.bot_action(state, level="strong")
            state = state.apply(action)
        scores = state.scores()
        mine = [scores[s] for s in range(4) if s in a_seats]
        theirs = [scores[s] for s in range(4) if s not in a_seats]
        total += statistics.mean(mine) - statistics.mean(theirs)
    return total / 2


def _overlap(world: Any, state: expert.JokerenState, seat: int, known: list[list[int]]) -> float:
    """The share of the hidden cards of the other seats (their true hands less the cards
    placed from the log) that ``world`` puts in the right seat, counted by kind."""
    right = hidden = 0
    for s, hand in enumerate(state.hands):
        if s == seat:
            continue
        true = Counter(expert.kind_of(c) for c in hand if c not in known[s])
        mine = Counter(expert.kind_of(c) for c in world.hands[s] if c not in known[s])
        right += sum((true & mine).values())
        hidden += sum(true.values())
    return right / hidden if hidden else 1.0


def _closeness(world: Any, seat: int) -> float:
    """The other seats' mean penalty in ``world`` (``expert._penalty``: their loose
    cards; lower: closer to going out)."""
    by_cards = world.variant.scoring == "cards"
    others = [s for s in range(len(world.hands)) if s != seat]
    return statistics.mean(expert._penalty(world, s, by_cards) for s in others)


def diagnose(preset: str, first: int, deals: int, n: int) -> dict[str, float]:
    """See the module text: strong bots in every seat, the worlds at every decision the
    oracle would search compared with the true hands (means over the decisions)."""
    variant = PRESETS[preset]
    rows: list[tuple[float, ...]] = []
    for d in range(first, first + deals):
        state = new_round(variant, secret=d.to_bytes(4, "big") * 8, round_index=d % variant.rounds)
        while not state.is_terminal:
            seat = state.current_player
            assert seat is not None
            obs = state.observe(seat)
            rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
            strong = bots.choose(obs, level="strong", rng=rng)
            if len(expert._candidates(obs, strong)) > 1:
                known = expert._known_in_hands(obs)
                unseen = expert._unseen(obs)
                events = inference.public_events(obs)
                pool = [expert._world(obs, known, unseen, rng) for _ in range(int(POOL["size"]))]
                lw = [inference.world_log_weight(w, seat, events, MODEL) for w in pool]
                kept = _model_worlds(state, seat, n, rng)
                top = max(lw)
                w = [math.exp(x - top) for x in lw]
                ov = [_overlap(x, state, seat, known) for x in pool]
                truth = inference.world_log_weight(state, seat, events, MODEL)
                rows.append(
                    (
                        statistics.mean(ov),
                        statistics.mean(_overlap(x, state, seat, known) for x in kept),
                        sum(a * b for a, b in zip(w, ov, strict=True)) / sum(w),
                        sum(x < truth for x in lw) / len(lw),
                        sum(w) ** 2 / sum(x * x for x in w),
                        statistics.mean(_closeness(x, seat) for x in pool),
                        statistics.mean(_closeness(x, seat) for x in kept),
                        _closeness(state, seat),
                    )
                )
            state = state.apply(strong)
    names = ("uniform", "kept", "weighted", "truth_beats", "ess")
    names += ("loose_uniform", "loose_kept", "loose_true")
    out = {k: statistics.mean(r[i] for r in rows) for i, k in enumerate(names)}
    true = [r[7] for r in rows]
    # across the decisions: does a world see the opponents close to going out when they are?
    out["corr_uniform"] = statistics.correlation([r[5] for r in rows], true)
    out["corr_kept"] = statistics.correlation([r[6] for r in rows], true)
    out["decisions"] = len(rows)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--deals", type=int, default=200)
    p.add_argument("--first", type=int, default=0)
    p.add_argument("--preset", action="append")
    p.add_argument("--horizon", choices=("turn", "round"), default="turn")
    p.add_argument(
        "--know", choices=("all", "hands", "next", "none", "infer", "model"), default="all"
    )
    p.add_argument("--worlds", type=int, default=8, help="worlds per decision (not with all)")
    p.add_argument("--pool", type=int, default=32, help="model: worlds sampled to weigh")
    p.add_argument("--select", choices=("top", "resample", "mcmc"), default="top")
    p.add_argument("--thin", type=int, default=20, help="mcmc: steps between worlds kept")
    p.add_argument(
        "--beta", type=float, default=inference.Model().beta, help="model: discard softmax"
    )
    p.add_argument(
        "--param", action="append", default=[], help="model: NAME=VALUE (inference.Model)"
    )
    p.add_argument("--diagnose", action="store_true", help="compare the worlds with the truth")
    add_out_option(p)
    args = p.parse_args()
    global MODEL
    params = {k: float(v) for k, v in (x.split("=") for x in args.param)}
    MODEL = replace(MODEL, beta=args.beta, **params)
    POOL.update(size=args.pool, select=args.select, thin=args.thin)
    if args.diagnose:
        for preset in args.preset or ["jokeren7", "jokeren13"]:
            t = time.process_time()
            res = diagnose(preset, args.first, args.deals, args.worlds)
            text = ", ".join(f"{k} {v:.3f}" for k, v in res.items())
            print(f"{preset}: {text} ({time.process_time() - t:.0f} s CPU)", flush=True)
        return 0
    deals = out_dir(args.out, "expert_oracle") / "expert_oracle.jsonl"
    print(f"each deal's result: {deals}", file=sys.stderr)
    name = f"oracle-{args.know}-{args.horizon}" + ("" if args.know == "all" else f"-{args.worlds}")
    if args.know == "model":
        name += f"-of{args.pool}-{args.select}-b{args.beta:g}" + "".join(
            f"-{x}" for x in args.param
        )
    for preset in args.preset or ["jokeren7", "jokeren13"]:
        diffs = []
        for d in range(args.first, args.first + args.deals):
            x = deal_result(preset, d, args.horizon, args.know, args.worlds)
            diffs.append(x)
            with deals.open("a") as f:
                row = {"preset": preset, "deal": d, "a": name}
                f.write(json.dumps({**row, "b": "strong", "result": x}) + "\n")
        print(summary(preset, name, "strong", diffs), flush=True)
        ms = sorted(1000 * t for t in TIMES)
        p95 = ms[int(0.95 * (len(ms) - 1))]
        print(f"  {len(ms)} decisions: CPU p95 {p95:.1f} ms, max {ms[-1]:.1f} ms", flush=True)
        TIMES.clear()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
