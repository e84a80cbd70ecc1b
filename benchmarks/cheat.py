"""How well the fair-play check catches play that knows too much (issue 33 item 3).

Run from the repository root::

    .venv/bin/python benchmarks/cheat.py [--preset jokeren7 --preset vijf-rondes
        --preset rotterdams] [--deals 150] [--entries 400] [--workers 2] [--out DIR]
    .venv/bin/python benchmarks/cheat.py --calibrate [--deals 150] ...   # NULL_RATES
    .venv/bin/python benchmarks/cheat.py --quick                         # a small run

Every simulated player plays South against the strong bots (the tournaments' default), on
the same deals, and each of its decisions is checked as the site checks it after the close
(``engine.fairplay.check_decision``: the view-best choices, every candidate played out).

- **The honest field**: the strong and the basic bot, each with human-like noise: a random
  legal move with probability 0.1 (``random``); or (``near``) a random one of the strong
  bot's near-equal choices with probability 0.3 and a random legal move with probability
  0.05. Four kinds of honest player.
- **The cheaters**: one of those four (by deal, in turn), who on a share ``p`` of the
  decisions (1, 0.5, 0.3) knows the deal and makes a deal-best choice (its own choice when
  that is one of them), with the same noise.

A round is independent of the game's other rounds, so each kind of player plays each deal
once, and an entry of ``R`` rounds (8, 16, 32, 100) is ``R`` different deals of one kind of
player drawn from the ``--deals`` played (``--entries`` entries per kind and ``R``; with
``R`` close to ``--deals`` the entries share most of their deals). The table: per preset,
``p`` and ``R``, the share of cheating entries flagged at the shipped threshold
(``engine.fairplay.THRESHOLD``) and of honest ones (the false-positive rate, every kind
together and the worst kind), and the cheaters' gain per round: their round result less
the same kind of honest player's on the same deal (positive: better for the cheater).

``--calibrate`` plays other deals (their own secret) with the honest field only and
prints the honest rate of a telling choice per context, the ``NULL_RATES`` of
``engine/fairplay.py``: the highest over the four kinds, each ``(telling + 0.5) /
(opportunities + 1)``. The benchmark's own deals never calibrate.

The yardstick is the honest field itself (the false-positive rate in the same run). Result
files: ``cheat.json`` (the table, the rounds' summary) in the run's folder.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from run_output import add_out_option, out_dir, write_json

from engine import fairplay
from engine.match import bot_move
from engine.registry import game_module, game_of_preset

HONEST: tuple[tuple[str, str], ...] = (
    ("strong", "random"),
    ("basic", "random"),
    ("strong", "near"),
    ("basic", "near"),
)
SHARES: tuple[float, ...] = (1.0, 0.5, 0.3)
ROUNDS: tuple[int, ...] = (8, 16, 32, 100)
#: the random noise: a random legal move with this probability
RANDOM_NOISE = 0.1
#: the near noise: a random near-equal choice, and a random legal move
NEAR_NOISE = 0.3
NEAR_RANDOM = 0.05


def secret_of(label: str) -> bytes:
    return hashlib.sha256(f"benchmarks/cheat.py {label}".encode()).digest()


@dataclass(frozen=True)
class Job:
    preset: str
    deal: int
    level: str
    noise: str
    share: float  # 0: honest
    secret_label: str


@dataclass(frozen=True)
class RoundRecord:
    """One round of one player: its opportunities as (kind, share, telling) and its result
    (higher better)."""

    job: Job
    opportunities: tuple[tuple[str, float, bool], ...]
    decisions: int
    value: float
    seconds: float


def choose(
    module: Any,
    state: Any,
    check: fairplay.DecisionCheck,
    *,
    level: str,
    noise: str,
    share: float,
    rng: random.Random,
    version: int,
) -> Any:
    """The simulated player's move: noise first, then (a cheater, with chance ``share``)
    a deal-best choice, else its bot's."""
    own = module.bot_action(state, level=level, version=version)
    moves = fairplay.candidates(state)
    u = rng.random()
    if noise == "random" and u < RANDOM_NOISE:
        return rng.choice(moves)
    if noise == "near":
        if u < NEAR_RANDOM:
            return rng.choice(moves)
        if u < NEAR_RANDOM + NEAR_NOISE and len(check.view_best) > 1:
            return rng.choice(check.view_best)
    if share > 0 and rng.random() < share and check.deal_best:
        if any(state.same_move(own, a) for a in check.deal_best):
            return own
        return check.deal_best[0]
    return own


def play(job: Job) -> RoundRecord:
    """One round of one simulated player, every decision checked."""
    t0 = time.process_time()
    module = game_module(game_of_preset(job.preset))
    variant = module.PRESETS[job.preset]
    version = module.BOT_VERSION
    levels = fairplay.rollout_levels(module, bot_level="strong", num_players=variant.num_players)
    state = module.new_round(variant, secret=secret_of(job.secret_label), round_index=job.deal)
    rng = random.Random(f"{job.secret_label}:{job.preset}:{job.deal}:{job}")
    opportunities = []
    decisions = 0
    while not state.is_terminal:
        if state.current_player != fairplay.PLAYER:
            state = bot_move(module, state, level="strong", version=version).state
            continue
        # the check needs the move played only for ``telling``: check with the strong
        # bot's choice, then judge the move chosen against the same rollouts
        probe = fairplay.check_decision(
            module, state, None, levels=levels, version=version, round_index=job.deal
        )
        move = choose(
            module,
            state,
            probe,
            level=job.level,
            noise=job.noise,
            share=job.share,
            rng=rng,
            version=version,
        )
        decisions += 1
        if probe.opportunity:
            telling = any(state.same_move(move, a) for a in probe.deal_best)
            opportunities.append((probe.kind, probe.share, telling))
        state = state.apply(move)
    value = float(module.results([int(s) for s in state.scores()])[fairplay.PLAYER])
    if module.LOWER_IS_BETTER:
        value = -value
    return RoundRecord(job, tuple(opportunities), decisions, value, time.process_time() - t0)


def record_json(r: RoundRecord) -> dict[str, Any]:
    return {
        "job": dataclasses.asdict(r.job),
        "opportunities": r.opportunities,
        "decisions": r.decisions,
        "value": r.value,
        "seconds": r.seconds,
    }


def record_from_json(obj: dict[str, Any]) -> RoundRecord:
    return RoundRecord(
        Job(**obj["job"]),
        tuple((k, float(s), bool(t)) for k, s, t in obj["opportunities"]),
        int(obj["decisions"]),
        float(obj["value"]),
        float(obj["seconds"]),
    )


def run_jobs(jobs: Sequence[Job], workers: int) -> list[RoundRecord]:
    if workers <= 1:
        return [play(j) for j in jobs]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(play, jobs, chunksize=4))


def evidence(records: Sequence[RoundRecord]) -> fairplay.Evidence:
    nulls = []
    telling = 0
    decisions = 0
    for r in records:
        decisions += r.decisions
        for kind, share, tell in r.opportunities:
            game = game_of_preset(r.job.preset)
            nulls.append(fairplay.null_rate(game, kind, share))
            telling += tell
    return fairplay.Evidence(decisions, tuple(nulls), telling)


def flagged_share(
    pool: Sequence[RoundRecord], rounds: int, entries: int, rng: random.Random
) -> float:
    """The share of ``entries`` entries of ``rounds`` different deals from ``pool`` that
    the check flags."""
    k = min(rounds, len(pool))
    hits = sum(evidence(rng.sample(list(pool), k)).flagged for _ in range(entries))
    return hits / entries


def calibrate(records: Sequence[RoundRecord]) -> dict[tuple[str, str, int], float]:
    counts: dict[tuple[str, str, int, str], list[int]] = defaultdict(lambda: [0, 0])
    for r in records:
        game = game_of_preset(r.job.preset)
        who = f"{r.job.level}/{r.job.noise}"
        for kind, share, tell in r.opportunities:
            c = counts[(game, kind, fairplay.share_bucket(share), who)]
            c[0] += 1
            c[1] += tell
    rates: dict[tuple[str, str, int], float] = {}
    for (game, kind, bucket, _who), (n, t) in counts.items():
        rate = (t + 0.5) / (n + 1)
        key = (game, kind, bucket)
        rates[key] = round(max(rates.get(key, 0.0), rate), 4)
    return dict(sorted(rates.items()))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", action="append", default=None)
    parser.add_argument("--deals", type=int, default=150)
    parser.add_argument("--entries", type=int, default=400)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--quick", action="store_true", help="a small run (a test)")
    parser.add_argument(
        "--rounds-file",
        type=Path,
        default=None,
        help="evaluate the rounds of an earlier run (its rounds.jsonl) instead of playing",
    )
    add_out_option(parser)
    args = parser.parse_args(argv)
    presets = args.preset or ["jokeren7", "vijf-rondes", "rotterdams"]
    rounds_list = ROUNDS
    if args.quick:
        presets = args.preset or ["jokeren7", "rotterdams"]
        args.deals, args.entries, rounds_list = 6, 20, (4,)
    label = "calibrate" if args.calibrate else "evaluate"
    jobs = []
    for preset in presets:
        for deal in range(args.deals):
            for level, noise in HONEST:
                jobs.append(Job(preset, deal, level, noise, 0.0, label))
            if not args.calibrate:
                level, noise = HONEST[deal % len(HONEST)]
                for share in SHARES:
                    jobs.append(Job(preset, deal, level, noise, share, label))
    load0 = os.getloadavg()[0]
    t0 = time.time()
    if args.rounds_file is not None:
        records = [record_from_json(json.loads(line)) for line in args.rounds_file.open()]
        records = [r for r in records if r.job.preset in presets]
    else:
        records = run_jobs(jobs, args.workers)
    wall = time.time() - t0
    load1 = os.getloadavg()[0]
    folder = out_dir(args.out, "cheat")
    if args.rounds_file is None:
        with (folder / "rounds.jsonl").open("w") as f:
            for r in records:
                f.write(json.dumps(record_json(r)) + "\n")
    cpu = sum(r.seconds for r in records)
    print(
        f"{len(records)} rounds in {wall:.0f} s wall, {cpu:.0f} s CPU;"
        f" load {load0:.2f} -> {load1:.2f}",
        file=sys.stderr,
    )
    if args.calibrate:
        rates = calibrate(records)
        print("NULL_RATES = {")
        for key, rate in rates.items():
            print(f"    {key!r}: {rate},")
        print("}")
        write_json(folder, "cheat.json", {"calibrate": [[*k, v] for k, v in rates.items()]})
        return 0
    rng = random.Random(1)
    table = []
    for preset in presets:
        mine = [r for r in records if r.job.preset == preset]
        honest = {
            (lv, nz): [
                r for r in mine if r.job.share == 0 and (r.job.level, r.job.noise) == (lv, nz)
            ]
            for lv, nz in HONEST
        }
        by_deal = {(r.job.deal, r.job.level, r.job.noise): r for r in mine if r.job.share == 0}
        for rounds in rounds_list:
            fp = [flagged_share(pool, rounds, args.entries, rng) for pool in honest.values()]
            row: dict[str, Any] = {
                "preset": preset,
                "rounds": rounds,
                "honest_flagged": statistics.fmean(fp),
                "honest_flagged_worst": max(fp),
            }
            for share in SHARES:
                cheats = [r for r in mine if r.job.share == share]
                row[f"caught_p{share}"] = flagged_share(cheats, rounds, args.entries, rng)
                gains = [
                    r.value - by_deal[(r.job.deal, r.job.level, r.job.noise)].value for r in cheats
                ]
                row[f"gain_p{share}"] = statistics.fmean(gains)
            table.append(row)
        opp = [len(r.opportunities) / 1 for r in mine if r.job.share == 0]
        tell = [sum(t for *_x, t in r.opportunities) for r in mine if r.job.share == 0]
        print(
            f"{preset}: honest opportunities/round {statistics.fmean(opp):.2f},"
            f" telling/round {statistics.fmean(tell):.3f};"
            f" CPU s/round {statistics.fmean(r.seconds for r in mine):.3f}",
            file=sys.stderr,
        )
    print(
        "| preset | rounds | honest flagged (worst kind) | caught p=1 | p=0.5 | p=0.3 |"
        " gain/round p=1, 0.5, 0.3 |"
    )
    print("|---|---|---|---|---|---|---|")
    for row in table:
        print(
            f"| {row['preset']} | {row['rounds']} | {100 * row['honest_flagged']:.1f}%"
            f" ({100 * row['honest_flagged_worst']:.1f}%) | {100 * row['caught_p1.0']:.0f}%"
            f" | {100 * row['caught_p0.5']:.0f}% | {100 * row['caught_p0.3']:.0f}%"
            f" | {row['gain_p1.0']:+.2f}, {row['gain_p0.5']:+.2f}, {row['gain_p0.3']:+.2f} |"
        )
    write_json(
        folder,
        "cheat.json",
        {
            "presets": presets,
            "deals": args.deals,
            "entries": args.entries,
            "threshold": fairplay.THRESHOLD,
            "wall_seconds": wall,
            "cpu_seconds": cpu,
            "load": [load0, load1],
            "table": table,
        },
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
