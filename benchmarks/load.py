"""Load benchmark of the site: gunicorn + PostgreSQL + Redis + Celery, in one run.

Run from the repository root (PostgreSQL must be running; Redis is started when none
answers; the database named by ``--database`` is dropped and created again):

    .venv/bin/python benchmarks/load.py --database jokeren_bench --redis-db 9

It reports, each part measured in the same run beside a yardstick:

1. moves: South's moves POSTed to ``/api/games/<id>/moves/`` by 1, 10 and 50 concurrent
   players (threads, one game each), alternating with slices of the same concurrency on
   the trivial JSON view ``/api/ping/``: requests per second and p50/p95/p99 of both, and
   the ratio moves/s / ping req/s. South's moves (the basic bot's choices) are computed
   before anything is timed (``south_moves``: the game played with the engine from its
   deal secret, variant and bot version, as the server plays it), so the players' threads
   only POST them; each answer must be 200 with the seq the computation expects (any
   other answer is counted and reported as an error). gunicorn runs as
   ``deploy/gunicorn.conf.py`` does by default (sync workers, 2 x cores + 1;
   ``--workers``/``--threads`` change it). Beside them, the CPU time a request took in
   each part, read from /proc around each slice (``CpuMeter``: gunicorn's processes, the
   PostgreSQL backends of the benchmark's database, the benchmark's own client threads),
   which other work on the machine does not disturb, and the server's CPU a ping over its
   CPU a move (what the ratio would be with the clients elsewhere). The last lines
   printed are the moves' tables with issue 10's targets at 10 players;
2. the close of a tournament whose games are unfinished (just joined; ``--close-played
   0.3,0.4``: that share played to the end and that share part-way, ``played_field``),
   with 1 and with 2 Celery worker processes: seconds and games per second, the
   rebuild's share of it (from the last audit to the announcement), and the rebuild
   timed alone after it;
3. bytes per stored round: the size on disk (``pg_total_relation_size``, indexes and
   TOAST included) of the tables that hold the games, divided by the rounds they hold;
4. the leaderboard at 1,000 and 10,000 entrants (bulk-inserted, a fake but valid set of
   scores: random seat scores per round, every entrant 0 to all rounds in), during the
   window and after the close: the standings API for a visitor and an entrant, the
   tournament page for a visitor, an entrant half-way and an entrant whose game is over,
   the leaderboard's own page (its live refresh) for the entrant, the tournament page's
   page 150 for the entrant, a name search, the organizer's entries page and the
   standings CSV: the first request (cold) and p50/p95 of the next ones, each followed by
   a ping (``/api/ping/``) whose p50/p95 are reported beside, with the body's size. At
   the largest size also the results tables' size and dead rows after rebuilds with
   autovacuum off, after a ``VACUUM`` and after one more rebuild (deploy/README.md).
   ``--close-entrants 10000 --close-workers 2`` closes a field of that size.

The load average is printed before each part. The figures go to ``load.json``, and the
logs of gunicorn and the Celery workers to ``<name>.log``, in the run's output folder
(``--out``, default a new ``benchmarks/out/<UTC time>-load/``).
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from typing import Any
from urllib.parse import urlsplit

from load_board import bench_board, bench_bytes
from load_close import bench_close
from load_moves import bench_moves, moves_table
from load_site import (
    ROOT,
    VENV_BIN,
    CpuMeter,
    Http,
    free_port,
    load_average,
    log,
    port_open,
    process,
    wait_for,
)
from run_output import add_out_option, out_dir, write_json

# --- Main ----------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgres", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="jokeren_bench")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument("--redis-db", type=int, default=9)
    parser.add_argument("--levels", default="1,10,50", help="concurrent players")
    parser.add_argument("--slice", type=float, default=6.0, help="seconds per slice")
    parser.add_argument("--alternations", type=int, default=2, help="ping/move slice pairs")
    parser.add_argument("--games", type=int, default=300, help="games in the players' pool")
    parser.add_argument("--close-entrants", type=int, default=200)
    parser.add_argument("--close-workers", default="1,2", help="Celery worker counts")
    parser.add_argument(
        "--close-played",
        default="0,0",
        help="shares of the close's field played to the end and part-way (played_field); "
        "the rest just joined",
    )
    parser.add_argument("--board-sizes", default="1000,10000")
    parser.add_argument("--requests", type=int, default=20, help="warm requests per figure")
    parser.add_argument("--parts", default="moves,close,bytes,board")
    # deploy/gunicorn.conf.py's defaults on this machine (sync workers, 2 x cores + 1).
    parser.add_argument(
        "--workers", type=int, default=2 * (os.cpu_count() or 1) + 1, help="gunicorn workers"
    )
    parser.add_argument("--threads", type=int, default=1, help="threads per gunicorn worker")
    add_out_option(parser)
    args = parser.parse_args()
    out = args.out = out_dir(args.out, "load")
    parts = set(args.parts.split(","))

    redis = urlsplit(args.redis)
    redis_proc: Any = None
    if not port_open(redis.hostname or "127.0.0.1", redis.port or 6379):
        if not shutil.which("redis-server"):
            raise SystemExit("no Redis answers and redis-server is not installed")
        log("starting redis-server")
        redis_proc = subprocess.Popen(
            ["redis-server", "--port", str(redis.port or 6379), "--save", ""],
            stdout=subprocess.DEVNULL,
            start_new_session=True,
        )
        wait_for(lambda: port_open(redis.hostname or "127.0.0.1", redis.port or 6379), "redis")
    pg = urlsplit(args.postgres)
    psql = ["psql", "-h", pg.hostname or "127.0.0.1", "-p", str(pg.port or 5432)]
    psql += ["-U", pg.username or "postgres", "-q", "postgres", "-c"]
    subprocess.run([*psql, f'DROP DATABASE IF EXISTS "{args.database}"'], check=True)
    subprocess.run([*psql, f'CREATE DATABASE "{args.database}"'], check=True)

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "jokeren.settings",
        "DATABASE_URL": f"{args.postgres}/{args.database}",
        "REDIS_URL": f"{args.redis}/{args.redis_db}",
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_hex(32),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SESSION_COOKIE_SECURE": "false",
        "CSRF_COOKIE_SECURE": "false",
        # plain HTTP on 127.0.0.1 (DEBUG off redirects to HTTPS by default)
        "SECURE_SSL_REDIRECT": "false",
        "MOVE_RATE_LIMIT": "",
        "LOG_LEVEL": "WARNING",
        "STATIC_ROOT": f"/tmp/load-bench-static-{os.getpid()}",
    }
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.cache import cache
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    cache.clear()

    port = free_port()
    gunicorn = [
        str(VENV_BIN / "gunicorn"), "jokeren.wsgi", "-w", str(args.workers),
        "--threads", str(args.threads), "-b", f"127.0.0.1:{port}",
        "--backlog", "2048", "--log-level", "warning",
    ]  # fmt: skip
    report: dict[str, Any] = {
        "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
        "command": " ".join(sys.argv),
        "cpus": os.cpu_count(),
        "gunicorn": {"workers": args.workers, "threads": args.threads},
        "load_average_start": load_average(),
    }
    try:
        with process(gunicorn, env, "gunicorn", args.out) as gunicorn_proc:
            http = Http("127.0.0.1", port)
            wait_for(lambda: port_open("127.0.0.1", port), "gunicorn")
            # Warm the workers up (imports, first connections) before anything is timed.
            for _ in range(20 * args.workers):
                http.request("GET", "/api/ping/", headers={"Host": "127.0.0.1"})
            if "moves" in parts:
                report["moves"] = bench_moves(http, args, CpuMeter(gunicorn_proc.pid))
            if "close" in parts:
                report["close"] = bench_close(env, args)
            if "bytes" in parts:
                report["bytes"] = bench_bytes()
                log(f"bytes: {report['bytes']}")
            if "board" in parts:
                report["board"] = bench_board(http, args)
    finally:
        if redis_proc is not None:
            os.killpg(redis_proc.pid, signal.SIGTERM)
    report["load_average_end"] = load_average()
    print(json.dumps(report, indent=2))
    if "moves" in report:
        print(moves_table(report["moves"]))
    write_json(out, "load.json", report)


if __name__ == "__main__":
    main()
