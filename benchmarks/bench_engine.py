"""Engine speed on one core: full rounds per second per preset and bot level, the time
of a ``strong`` Jokeren decision, and OpenSpiel's ``gin_rummy`` as a yardstick.

Run from the repository root::

    .venv/bin/python benchmarks/bench_engine.py [--seconds 3] [--out DIR] [--pure]

The figures go to ``bench_engine.json`` in the run's output folder (``--out``, default a
new ``benchmarks/out/<UTC time>-bench_engine/``).

``--pure`` measures the pure-Python engine even where its compiled modules are built
(``engine.native.prefer_pure``); the figures name the modules loaded compiled.

The process is pinned to one CPU core. Rounds are dealt from a fixed secret, so two
runs play the same rounds; every measurement plays its own rounds (far apart round
indexes) and starts with the bots' caches emptied, so none profits from another. The
strong decision time is measured in the flow of real Jokeren 13 rounds (strong bots in
every seat): each call of ``bot_action`` is timed, as a tournament server makes it (the
hand analysis cache is warm from the same bot's earlier decisions in the turn); the
same positions are then timed again with the cache emptied before every decision (the
worst case). The rules engine alone replays recorded rounds; OpenSpiel's gin_rummy
(random legal actions) runs in slices alternating with Jokeren 13 basic rounds.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from run_output import add_out_option, out_dir, write_json
from yardstick import gin_rummy_game

from engine.native import compiled_status, prefer_pure

if "--pure" in sys.argv[1:]:  # before any compiled module is imported
    prefer_pure()

from engine.cli import BENCH_SECRET, rounds_per_second
from engine.jokeren.bots import clear_caches
from engine.registry import GAMES, game_module


def _pin_one_core() -> str:
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[-1]})
        return f"pinned to CPU {cpus[-1]}"
    except (AttributeError, OSError):  # pragma: no cover - not on Linux
        return "not pinned"


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:  # pragma: no cover
        pass
    return platform.processor() or "unknown"


def bench_rounds(seconds: float) -> dict[str, dict[str, dict[str, float]]]:
    out: dict[str, dict[str, dict[str, float]]] = {}
    measured = 0
    for name in GAMES:
        game = game_module(name)
        for preset, variant in game.PRESETS.items():
            row: dict[str, dict[str, float]] = {}
            # the expert is timed per decision by bench_expert.py
            for level in (lv for lv in game.BOT_LEVELS if lv != "expert"):
                # fresh rounds and empty caches for every measurement
                measured += 1
                clear_caches()
                rate, n = rounds_per_second(
                    game, variant, level, seconds=seconds, first_round=measured * 100_000
                )
                row[level] = {"rounds_per_second": round(rate, 1), "rounds": n}
                print(f"  {name:9s} {preset:12s} {level:7s} {rate:9.1f} rounds/s ({n} rounds)")
            out[preset] = row
    return out


def bench_engine_alone(seconds: float) -> dict[str, dict[str, float]]:
    """Rounds per second of the rules engine alone: the actions of basic-bot rounds are
    recorded, then replayed (deal + apply) without any bot deciding."""
    from engine.match import play_round

    jokeren = game_module("jokeren")
    out: dict[str, dict[str, float]] = {}
    for preset in ("jokeren7", "jokeren13"):
        variant = jokeren.PRESETS[preset]
        levels = ["basic"] * variant.num_players
        games = [
            play_round(jokeren, variant, secret=BENCH_SECRET, round_index=r, levels=levels)[1]
            for r in range(50)
        ]
        n = 0
        actions = 0
        start = time.perf_counter()
        elapsed = 0.0
        while n == 0 or elapsed < seconds:
            r = n % len(games)
            state = jokeren.new_round(variant, secret=BENCH_SECRET, round_index=r)
            for action in games[r]:
                state = state.apply(action)
            actions += len(games[r])
            n += 1
            elapsed = time.perf_counter() - start
        out[preset] = {
            "rounds_per_second": round(n / elapsed, 1),
            "microseconds_per_action": round(elapsed / actions * 1e6, 1),
        }
        print(f"  engine alone {preset:10s} {n / elapsed:9.1f} rounds/s")
    return out


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_strong_decisions(rounds: int) -> dict[str, Any]:
    from engine.jokeren import PRESETS, bot_action, new_round

    variant = PRESETS["jokeren13"]
    warm: list[float] = []
    positions = []
    clear_caches()
    for r in range(rounds):
        state = new_round(variant, secret=BENCH_SECRET, round_index=60 * 100_000 + r)
        while not state.is_terminal:
            positions.append(state)
            t0 = time.perf_counter()
            action = bot_action(state, level="strong")
            warm.append(time.perf_counter() - t0)
            state = state.apply(action)
    cold: list[float] = []
    for state in positions:
        clear_caches()
        t0 = time.perf_counter()
        bot_action(state, level="strong")
        cold.append(time.perf_counter() - t0)

    def summary(xs: list[float]) -> dict[str, float]:
        return {
            "p50_ms": round(statistics.median(xs) * 1000, 3),
            "p95_ms": round(_percentile(xs, 0.95) * 1000, 3),
            "p99_ms": round(_percentile(xs, 0.99) * 1000, 3),
            "max_ms": round(max(xs) * 1000, 3),
        }

    return {"decisions": len(warm), "rounds": rounds, "warm": summary(warm), "cold": summary(cold)}


def _gin_rummy_games(game: Any, rng: Any, seconds: float) -> tuple[int, float]:
    """Random-play games of OpenSpiel's gin_rummy for at least ``seconds``."""
    n = 0
    start = time.perf_counter()
    elapsed = 0.0
    while n == 0 or elapsed < seconds:
        gin_rummy_game(game, rng)
        n += 1
        elapsed = time.perf_counter() - start
    return n, elapsed


def bench_gin_rummy(seconds: float, slices: int) -> dict[str, Any]:
    """OpenSpiel gin_rummy with random legal actions, Jokeren 13 and Jokeren 7 with basic
    bots, measured in alternating slices (the machine is shared and its speed moves by a
    third within minutes: all three see the same load)."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError as exc:
        return {"available": False, "reason": f"open_spiel not importable: {exc}"}
    import random

    from engine.jokeren import PRESETS

    jokeren = game_module("jokeren")
    j13 = PRESETS["jokeren13"]
    j7 = PRESETS["jokeren7"]
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(0)
    gin_n = 0
    gin_t = 0.0
    j13_n = 0
    j13_t = 0.0
    j7_n = 0
    j7_t = 0.0
    for i in range(slices):
        n, t = _gin_rummy_games(game, rng, seconds / slices)
        gin_n += n
        gin_t += t
        clear_caches()
        rate, n = rounds_per_second(
            jokeren, j13, "basic", seconds=seconds / slices, first_round=(50 + i) * 100_000
        )
        j13_n += n
        j13_t += n / rate
        clear_caches()
        rate, n = rounds_per_second(
            jokeren, j7, "basic", seconds=seconds / slices, first_round=(60 + i) * 100_000
        )
        j7_n += n
        j7_t += n / rate
    return {
        "available": True,
        "games_per_second": round(gin_n / gin_t, 1),
        "games": gin_n,
        "jokeren13_basic_rounds_per_second_same_slices": round(j13_n / j13_t, 1),
        "jokeren7_basic_rounds_per_second_same_slices": round(j7_n / j7_t, 1),
        "slices": slices,
    }


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=3.0, help="time per rounds/s measurement")
    p.add_argument("--decision-rounds", type=int, default=20, help="Jokeren 13 rounds timed")
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
    print(f"machine: {machine}")
    print("full rounds per second (bots in every seat):")
    rounds = bench_rounds(args.seconds)
    print("the rules engine alone (replaying basic-bot rounds):")
    engine_alone = bench_engine_alone(args.seconds)
    print("strong decision time, Jokeren 13:")
    decisions = bench_strong_decisions(args.decision_rounds)
    print(f"  {decisions}")
    print("OpenSpiel gin_rummy, random legal actions:")
    gin = bench_gin_rummy(2 * args.seconds, 6)
    print(f"  {gin}")
    j13 = rounds["jokeren13"]["basic"]["rounds_per_second"]
    j7 = rounds["jokeren7"]["basic"]["rounds_per_second"]
    targets = {
        "jokeren13_basic_vs_gin_rummy": (
            None
            if not gin.get("available")
            else gin["jokeren13_basic_rounds_per_second_same_slices"] >= gin["games_per_second"]
        ),
        "jokeren13_basic_500": j13 >= 500,
        "jokeren7_basic_1000": j7 >= 1000,
        "jokeren7_basic_1000_same_slices": (
            None
            if not gin.get("available")
            else gin["jokeren7_basic_rounds_per_second_same_slices"] >= 1000
        ),
        "strong_decision_p95_under_10ms": decisions["warm"]["p95_ms"] < 10,
    }
    machine["load_average_1m_at_end"] = round(os.getloadavg()[0], 2)
    print(f"targets met: {targets}")
    result = {
        "machine": machine,
        "rounds": rounds,
        "engine_alone": engine_alone,
        "strong_decision": decisions,
        "gin_rummy": gin,
        "targets": targets,
    }
    write_json(out_dir(args.out, "bench_engine"), "bench_engine.json", result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
