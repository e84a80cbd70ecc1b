"""CPU time of one tournament's rating update (``tournaments/rating_model.py``, our own
Plackett–Luce update) at 10,000 and 100,000 entrants, one core, beside openskill's
``PlackettLuce.rate`` (the update it replaced, O(n²)) on a smaller field in the same run
as the yardstick. The fields: random beliefs (mu 5-45, sigma 0.5-25/3) and random
standings with ties (a fifth as many places as entrants), seeded. The figures are CPU time
(``time.process_time``), the best of ``--repeat`` runs, with the load average (1 min).

    .venv/bin/python benchmarks/ratings.py --sizes 10000,100000 --yardstick 2000
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000", help="the fields' entrants")
    parser.add_argument("--yardstick", type=int, default=2000, help="openskill's field")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from run_output import add_out_option, out_dir, write_json

    add_out_option(parser)
    args = parser.parse_args()
    from openskill.models import PlackettLuce

    from tournaments.rating_model import Prior, rate

    rng = random.Random(args.seed)

    def field(n: int) -> tuple[list[Prior], list[int]]:
        priors = [Prior(mu=rng.uniform(5, 45), sigma=rng.uniform(0.5, 25 / 3)) for _ in range(n)]
        places = max(2, n // 5)
        return priors, [rng.randint(1, places) for _ in range(n)]

    def best(run: object, repeat: int) -> float:
        times = []
        for _ in range(repeat):
            start = time.process_time()
            run()  # type: ignore[operator]
            times.append(time.process_time() - start)
        return min(times)

    load_before = os.getloadavg()[0]
    library = PlackettLuce()
    y_priors, y_ranks = field(args.yardstick)
    teams = [[library.rating(mu=p.mu, sigma=p.sigma)] for p in y_priors]
    y_ranks_f = [float(r) for r in y_ranks]
    yardstick = best(lambda: library.rate(teams, ranks=y_ranks_f), 1)
    ours_at_yardstick = best(lambda: rate(y_priors, y_ranks), args.repeat)
    results: dict[str, object] = {
        "yardstick": {"entrants": args.yardstick, "openskill_s": yardstick},
        "ours_at_yardstick_s": ours_at_yardstick,
        "fields": [],
    }
    print(
        f"openskill at {args.yardstick:,}: {yardstick:.2f} s CPU; "
        f"ours {ours_at_yardstick * 1000:.1f} ms"
    )
    for n in (int(s) for s in args.sizes.split(",")):
        priors, ranks = field(n)
        took = best(lambda priors=priors, ranks=ranks: rate(priors, ranks), args.repeat)
        results["fields"].append(  # type: ignore[attr-defined]
            {"entrants": n, "ours_s": took, "ratio_to_yardstick": took / yardstick}
        )
        print(f"ours at {n:,}: {took:.3f} s CPU ({took / yardstick:.3f} × the yardstick)")
    load_after = os.getloadavg()[0]
    results["load"] = [load_before, load_after]
    print(f"load {load_before:.2f} → {load_after:.2f}")
    write_json(out_dir(args.out, "ratings"), "ratings.json", results)


if __name__ == "__main__":
    main()
