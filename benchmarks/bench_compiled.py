"""The compiled engine against the pure-Python one, in alternating slices on one core.

Run from the repository root (after ``pip install -e .`` has built the extensions)::

    .venv/bin/python benchmarks/bench_compiled.py [--seconds 2] [--slices 4] [--out DIR]

Each slice runs, one after the other, in fresh processes pinned to the same core: Jokeren
7 and Jokeren 13 basic rounds on the pure-Python engine (``engine.native.prefer_pure``),
the same rounds on the compiled modules, and OpenSpiel's ``gin_rummy`` with random legal
actions (the yardstick of benchmarks/README.md, when open_spiel is installed). Every rate
is given in wall-clock time and in CPU time (``time.process_time``, less sensitive to the
other processes of a shared machine), with the load average.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from run_output import add_out_option, out_dir, write_json

ROOT = Path(__file__).resolve().parent.parent
PRESETS = ("jokeren7", "jokeren13")


def _child(mode: str, preset: str, seconds: float, first_round: int) -> dict[str, Any]:
    """One measurement, in this (fresh) process: ``mode`` is pure, compiled or gin."""
    sys.path.insert(0, str(ROOT))
    if mode == "gin":
        import random

        import pyspiel  # type: ignore[import-not-found]
        from yardstick import gin_rummy_game

        game = pyspiel.load_game("gin_rummy")
        rng = random.Random(first_round)
    else:
        from engine.native import compiled_status, prefer_pure

        if mode == "pure":
            prefer_pure()
        from engine.cli import BENCH_SECRET
        from engine.jokeren.bots import clear_caches
        from engine.match import play_round
        from engine.registry import game_module

        status = compiled_status()
        wrong = any(status.values()) if mode == "pure" else not all(status.values())
        if wrong:
            raise SystemExit(f"{mode} measurement, but the modules loaded are {status}")
        jokeren = game_module("jokeren")
        variant = jokeren.PRESETS[preset]
        levels = ["basic"] * variant.num_players
        clear_caches()
    n = 0
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while n == 0 or time.perf_counter() - wall0 < seconds:
        if mode == "gin":
            gin_rummy_game(game, rng)
        else:
            play_round(
                jokeren, variant, secret=BENCH_SECRET, round_index=first_round + n, levels=levels
            )
        n += 1
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return {"n": n, "wall": wall, "cpu": cpu}


def _measure(mode: str, preset: str, seconds: float, first_round: int, core: int) -> dict[str, Any]:
    args = ["--child", mode, preset, str(seconds), str(first_round)]
    out = subprocess.run(
        ["taskset", "-c", str(core), sys.executable, __file__, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def _gin_available() -> bool:
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        mode, preset, seconds, first_round = sys.argv[2:6]
        print(json.dumps(_child(mode, preset, float(seconds), int(first_round))))
        return 0
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    p.add_argument("--slices", type=int, default=4, help="alternating slices")
    add_out_option(p)
    args = p.parse_args()
    core = sorted(os.sched_getaffinity(0))[-1]
    gin = _gin_available()
    modes = [(m, preset) for preset in PRESETS for m in ("pure", "compiled")]
    if gin:
        modes.append(("gin", "gin_rummy"))
    totals: dict[str, dict[str, float]] = {
        f"{m} {preset}": {"n": 0, "wall": 0.0, "cpu": 0.0} for m, preset in modes
    }
    slices: list[dict[str, float]] = []
    load = [os.getloadavg()[0]]
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    for i in range(args.slices):
        row: dict[str, float] = {}
        for mode, preset in modes:
            r = _measure(mode, preset, args.seconds, (70 + i) * 100_000, core)
            key = f"{mode} {preset}"
            for k in ("n", "wall", "cpu"):
                totals[key][k] += r[k]
            row[key] = round(r["n"] / r["cpu"], 1)
        load.append(os.getloadavg()[0])
        slices.append(row)
        print(f"slice {i + 1} (CPU-time rates): {row}, load {load[-1]:.2f}", flush=True)
    rates = {
        key: {
            "per_second_wall": round(t["n"] / t["wall"], 1),
            "per_second_cpu": round(t["n"] / t["cpu"], 1),
            "count": int(t["n"]),
        }
        for key, t in totals.items()
    }
    ratios: dict[str, float] = {}
    for preset in PRESETS:
        for clock in ("wall", "cpu"):
            c = rates[f"compiled {preset}"][f"per_second_{clock}"]
            ratios[f"{preset} compiled/pure ({clock})"] = round(
                c / rates[f"pure {preset}"][f"per_second_{clock}"], 3
            )
    for clock in ("wall", "cpu") if gin else ():
        g = rates["gin gin_rummy"][f"per_second_{clock}"]
        for m in ("pure", "compiled"):
            ratios[f"jokeren13 {m}/gin_rummy ({clock})"] = round(
                rates[f"{m} jokeren13"][f"per_second_{clock}"] / g, 3
            )
    result = {
        "started": started,
        "cpu_core": core,
        "load_average_1m": [round(x, 2) for x in load],
        "seconds": args.seconds,
        "slices": slices,
        "rates": rates,
        "ratios": ratios,
    }
    print(json.dumps({"rates": rates, "ratios": ratios}, indent=2))
    print(f"load average (1 min) from {load[0]:.2f} to {load[-1]:.2f}, max {max(load):.2f}")
    write_json(out_dir(args.out, "bench_compiled"), "bench_compiled.json", result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
