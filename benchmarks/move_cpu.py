"""CPU time of a move POST in this process, against the trivial view's: South's moves of N
Jokeren 7 tournament games (8 rounds, basic bots) POSTed to ``/api/games/<id>/moves/``
through Django's whole request handling (every middleware, a logged-in session, the CSRF
check), alternating with blocks of ``GET /api/ping/``. CPU time (``time.process_time``) is
what a busy machine disturbs least; the database's own work runs in the PostgreSQL
server and is not counted (its queries are, and the wall time beside the CPU time shows
the waiting). South's moves are computed beforehand (``load_moves.south_moves``), untimed.

Run against a database of your own (it is migrated; the games stay in it)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/jokeren_mine \\
        REDIS_URL=redis://127.0.0.1:6379/11 \\
        .venv/bin/python benchmarks/move_cpu.py --games 6 [--repeat 3] [--profile 40]

It prints its figures; with ``--profile`` it also saves the profile as ``move_cpu.prof``
in the run's output folder (``--out``, default a new ``benchmarks/out/<UTC time>-move_cpu/``).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from datetime import timedelta
from typing import Any

from in_process import site_setup
from run_output import add_out_option, out_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--block", type=int, default=50, help="moves (and pings) per block")
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="play the same moves in this many groups of --games games (the same deals);"
        " also report the sum over blocks of each block's least CPU time over the groups,"
        " which a busy machine disturbs least (interference only adds)",
    )
    parser.add_argument("--profile", type=int, default=0, help="print the N top functions")
    add_out_option(parser)
    parser.add_argument(
        "--split",
        action="store_true",
        help="also time each move alone and report CPU and wall percentiles of the moves"
        " that end a round (the round's scores and results written) apart from the others",
    )
    parser.add_argument(
        "--secret",
        default="6d6f76652d637075",
        help="the tournament's deal secret (hex): the same deals, so runs compare",
    )
    args = parser.parse_args()
    site_setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone
    from load_moves import south_moves

    from tournaments.models import Tournament
    from tournaments.services import clubs as club_services
    from tournaments.services import entries as entry_services
    from tournaments.services import tournaments as tournament_services

    call_command("migrate", verbosity=0)
    organizer, _ = User.objects.get_or_create(username="move-cpu-organizer")
    now = timezone.now()
    t = tournament_services.tournament_create(
        created_by=organizer,
        club=club_services.club_default(),
        name="move cpu",
        game="jokeren",
        preset="jokeren7",
        rounds=8,
        max_entrants=10_000,
        bot_level="basic",
        opens_at=now - timedelta(minutes=1),
        closes_at=now + timedelta(days=1),
    )
    Tournament.objects.filter(pk=t.pk).update(secret=bytes.fromhex(args.secret))
    posts: list[tuple[Client, str, bytes, int]] = []
    for i in range(args.games * args.repeat):
        user = User.objects.create_user(username=f"move-cpu-{t.pk}-{i}", password=None)
        game = entry_services.entry_join(tournament_id=t.pk, user=user).game
        client = Client(enforce_csrf_checks=True, HTTP_HOST="127.0.0.1")
        client.force_login(user)
        client.cookies["csrftoken"] = "x" * 32
        url = f"/api/games/{game.pk}/moves/"
        posts += [(client, url, body, answer) for _seq, body, answer in south_moves(game)]
    pinger = Client(HTTP_HOST="127.0.0.1")
    for _ in range(20):
        pinger.get("/api/ping/")
    backend = _backend_pid(connection)
    backend_move = backend_ping = 0.0

    profile = cProfile.Profile(time.process_time)  # CPU time, not the waits
    move_cpu = move_wall = ping_cpu = ping_wall = 0.0
    pings = 0
    queries = 0
    group = len(posts) // args.repeat
    starts = [(k * group, b) for k in range(args.repeat) for b in range(0, group, args.block)]
    least_move: dict[int, float] = {}  # block (offset in its group) -> least CPU over groups
    least_ping: dict[int, float] = {}
    rounds_seen: dict[str, int] = {}  # url -> round index of its last answer
    split: dict[str, list[tuple[float, float]]] = {}  # kind of move -> (CPU, wall) each
    for first, offset in starts:
        block = posts[first + offset : first + min(offset + args.block, group)]
        # The server's CPU is read outside the client's timed window (a /proc read).
        server = _cpu_of(backend)
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in block:
            pinger.get("/api/ping/")
        spent = time.process_time() - cpu
        backend_ping += _cpu_of(backend) - server
        least_ping[offset] = min(least_ping.get(offset, spent), spent)
        ping_cpu += spent
        ping_wall += time.perf_counter() - wall
        pings += len(block)
        with CaptureQueriesContext(connection) as captured:
            if args.profile:
                profile.enable()
            server = _cpu_of(backend)
            cpu, wall = time.process_time(), time.perf_counter()
            for client, url, body, answer in block:
                one_cpu, one_wall = time.process_time(), time.perf_counter()
                response = client.post(
                    url, body, content_type="application/json", HTTP_X_CSRFTOKEN="x" * 32
                )
                if args.split:
                    one_cpu, one_wall = (
                        time.process_time() - one_cpu,
                        time.perf_counter() - one_wall,
                    )
                if response.status_code != 200 or response.json()["seq"] != answer:
                    raise SystemExit(f"{url}: {response.status_code} {response.content[:300]!r}")
                if args.split:
                    ended = response.json()["round"] != rounds_seen.get(url, 0)
                    rounds_seen[url] = response.json()["round"]
                    finished = response.json()["status"] != "playing"
                    kind = "round ends" if ended or finished else "in a round"
                    split.setdefault(kind, []).append((one_cpu, one_wall))
            spent = time.process_time() - cpu
            backend_move += _cpu_of(backend) - server
            least_move[offset] = min(least_move.get(offset, spent), spent)
            move_cpu += spent
            move_wall += time.perf_counter() - wall
            profile.disable()
        queries += len(captured)
        if first + offset == 0 and args.profile:
            for q in captured.captured_queries[:12]:
                print("  query:", q["sql"][:300])
    n = len(posts)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{n} moves of {args.games * args.repeat} games: {1000 * move_cpu / n:.2f} ms CPU a move"
        f" (wall {1000 * move_wall / n:.2f} ms), {queries / n:.2f} queries a move;"
        f" ping {1000 * ping_cpu / pings:.3f} ms CPU (wall {1000 * ping_wall / pings:.3f} ms);"
        f" CPU ratio ping/move {ping_cpu / pings / (move_cpu / n):.3f}; load average {load}"
    )
    if backend is not None:
        print(
            f"PostgreSQL backend (pid {backend}) CPU: {1000 * backend_move / n:.2f} ms a move,"
            f" {1000 * backend_ping / pings:.3f} ms a ping (/proc, 10 ms ticks summed over"
            f" the blocks)"
        )
    if args.repeat > 1:
        best_move, best_ping = sum(least_move.values()), sum(least_ping.values())
        print(
            f"least over {args.repeat} groups: {1000 * best_move / group:.2f} ms CPU a move,"
            f" ping {1000 * best_ping / group:.3f} ms CPU; ratio ping/move"
            f" {best_ping / best_move:.3f}"
        )
    for kind, times in sorted(split.items()):
        print(
            f"{kind}: {len(times)} moves; CPU {_percentiles([c for c, _w in times])};"
            f" wall {_percentiles([w for _c, w in times])}"
        )
    if args.profile:
        stats: Any = pstats.Stats(profile)
        saved = out_dir(args.out, "move_cpu") / "move_cpu.prof"
        stats.dump_stats(saved)
        print(f"profile saved to {saved}", file=sys.stderr)
        stats.sort_stats("cumulative").print_stats(args.profile)
        stats.sort_stats("tottime").print_stats(args.profile)


def _backend_pid(connection: Any) -> int | None:
    """The PostgreSQL server process of this connection, where /proc shows it (``None``
    on another database or without /proc)."""
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = int(cursor.fetchone()[0])
    return pid if os.path.exists(f"/proc/{pid}/stat") else None


def _cpu_of(pid: int | None) -> float:
    """User and system CPU seconds of a process so far (0 without one)."""
    from load_site import cpu_seconds

    return 0.0 if pid is None else cpu_seconds(pid)


def _percentiles(seconds: list[float]) -> str:
    ordered = sorted(seconds)
    at = {q: ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] for q in (50, 95, 99)}
    return " ".join(f"p{q} {1000 * v:.2f}" for q, v in at.items()) + " ms"


if __name__ == "__main__":
    main()
