"""The time of one ``expert`` decision, per preset, on one core, with a yardstick.

Run from the repository root::

    .venv/bin/python benchmarks/bench_expert.py [--rounds 6] [--preset jokeren7 ...]
        [--version N] [--out DIR]

The figures go to ``bench_expert.json`` in the run's output folder (``--out``, default a
new ``benchmarks/out/<UTC time>-bench_expert/``).

The process is pinned to one CPU core. For each preset, rounds dealt from a fixed
secret are played with the expert in seats 0 and 2 and the strong bot in 1 and 3 (as at
a tournament table the bots play each other too), and every call of
``bot_action(state, level="expert")`` is timed (wall clock on the pinned core, and the
process's CPU time). The figures are p50, p95 and max per decision, with the machine's
load average before and after, and the CPU time the cyclic garbage collector took inside
the decisions (``gc``: its largest share of one decision, and the decision times without
it): a full collection walks every object the process keeps, so the decision that
triggers one pays for caches other games' bots filled in the same process. The
yardstick, OpenSpiel's ``gin_rummy`` with random legal actions (as in
``bench_engine.py``), runs in slices alternating with the presets, so it sees the same
load: a slower machine shows both slower.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

# (``--pure``: bench_engine switches to the pure-Python engine as it is imported)
from bench_engine import _cpu_model, _gin_rummy_games, _percentile, _pin_one_core
from run_output import add_out_option, out_dir, write_json

from engine.cli import BENCH_SECRET
from engine.native import compiled_status
from engine.registry import GAMES, game_module, game_of_preset

#: the issue's budget per expert decision
P95_MS = 25.0
MAX_MS = 150.0


def time_decisions(preset: str, rounds: int, version: int | None = None) -> dict[str, Any]:
    """Every expert decision of ``rounds`` rounds of ``preset``, timed (the bots of
    ``version``, default the game's current ``BOT_VERSION``)."""
    game = game_module(game_of_preset(preset))
    variant = game.PRESETS[preset]
    v = game.BOT_VERSION if version is None else version
    levels = ["expert", "strong"] * 2
    wall: list[float] = []
    cpu: list[float] = []
    in_gc: list[float] = []
    spent = [0.0, 0.0]

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            spent[1] = time.process_time()
        else:
            spent[0] += time.process_time() - spent[1]

    gc.callbacks.append(on_gc)
    for r in range(rounds):
        state = game.new_round(variant, secret=BENCH_SECRET, round_index=70 * 100_000 + r)
        while not state.is_terminal:
            level = levels[state.current_player]
            if level == "expert":
                g0 = spent[0]
                c0 = time.process_time()
                t0 = time.perf_counter()
                action = game.bot_action(state, level=level, version=v)
                wall.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                in_gc.append(spent[0] - g0)
            else:
                action = game.bot_action(state, level=level, version=v)
            state = state.apply(action)
    gc.callbacks.remove(on_gc)

    def ms(xs: list[float]) -> dict[str, float]:
        return {
            "p50_ms": round(statistics.median(xs) * 1000, 2),
            "p95_ms": round(_percentile(xs, 0.95) * 1000, 2),
            "max_ms": round(max(xs) * 1000, 2),
        }

    out: dict[str, Any] = {
        "rounds": rounds,
        "decisions": len(wall),
        "wall": ms(wall),
        "cpu": ms(cpu),
        "gc": {"max_ms": round(max(in_gc) * 1000, 2), "total_ms": round(sum(in_gc) * 1000, 1)},
        "cpu_without_gc": ms([c - g for c, g in zip(cpu, in_gc, strict=True)]),
    }
    out["within_budget"] = out["wall"]["p95_ms"] < P95_MS and out["wall"]["max_ms"] < MAX_MS
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=6, help="rounds timed per preset")
    p.add_argument("--preset", action="append", help="presets (default: every preset)")
    p.add_argument("--version", type=int, help="the bots' version (default: the current)")
    p.add_argument("--yardstick-seconds", type=float, default=1.0, help="gin_rummy per slice")
    add_out_option(p)
    p.add_argument("--pure", action="store_true", help="the pure-Python engine only")
    args = p.parse_args()
    pinned = _pin_one_core()
    machine = {
        "python": sys.version.split()[0],
        "compiled_modules": [name for name, c in compiled_status().items() if c],
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "affinity": pinned,
        "load_average_1m_at_start": round(os.getloadavg()[0], 2),
    }
    print(f"machine: {machine}", flush=True)
    try:
        import pyspiel  # type: ignore[import-not-found]

        gin = pyspiel.load_game("gin_rummy")
    except ImportError:
        gin = None
    rng = random.Random(0)
    gin_n = 0
    gin_t = 0.0
    presets = args.preset or [p for g in GAMES for p in game_module(g).PRESETS]
    results: dict[str, Any] = {}
    for preset in presets:
        if gin is not None:
            n, t = _gin_rummy_games(gin, rng, args.yardstick_seconds)
            gin_n += n
            gin_t += t
        results[preset] = time_decisions(preset, args.rounds, args.version)
        row = results[preset]
        print(
            f"  {preset:12s} {row['decisions']:5d} decisions: p50 {row['wall']['p50_ms']:6.2f} "
            f"ms, p95 {row['wall']['p95_ms']:6.2f} ms, max {row['wall']['max_ms']:7.2f} ms "
            f"(cpu p95 {row['cpu']['p95_ms']:.2f} ms, max {row['cpu']['max_ms']:.2f} ms; "
            f"gc max {row['gc']['max_ms']:.2f} ms)",
            flush=True,
        )
    machine["load_average_1m_at_end"] = round(os.getloadavg()[0], 2)
    yardstick: dict[str, Any] = (
        {"available": True, "gin_rummy_games_per_second": round(gin_n / gin_t, 1), "games": gin_n}
        if gin is not None and gin_t
        else {"available": False}
    )
    print(f"yardstick: {yardstick}; load average at the end {machine['load_average_1m_at_end']}")
    result = {
        "machine": machine,
        "budget": {"p95_ms": P95_MS, "max_ms": MAX_MS},
        "expert_decisions": results,
        "yardstick": yardstick,
    }
    write_json(out_dir(args.out, "bench_expert"), "bench_expert.json", result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
