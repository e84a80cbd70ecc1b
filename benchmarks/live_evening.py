"""A live club evening of 500 players (issue 36 item 2): how long after a round's slot ends
its board is there for everyone, with a real Celery worker and beat's task sent every
second as beat sends it (``CELERY_BEAT_SCHEDULE["close-due-live-slots"]``), and what the
lobby's polling costs. Yardstick: ``GET /api/ping/`` in this process, in blocks
alternating with the lobby's status request; the load average at the start and the end.

The evening: a Jokeren 7 tournament of three rounds (basic bots), 500 entrants. In each
round most play it to its end (South playing as the basic bot, through the move service
in this process, untimed), some draw once and leave (the dropouts), some never play
(``--played 0.9,0.05``: the share to the end and the share that leaves). Then the
round's slot ends (the schedule moves: the site reads the real clock) and the script
waits until every entry's board row of that round is written and the slot is closed,
polling every 10 ms: the time from the slot's end to the board. The worker's CPU in
that time is read from /proc. The last slot's board comes the same way, then the close
(its audit of every game by replay), timed to the announcement.

Run against a database and a Redis database of your own (the database is migrated; the
evening stays in it)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/jokeren_live_bench \\
        REDIS_URL=redis://127.0.0.1:6379/13 \\
        .venv/bin/python benchmarks/live_evening.py --players 500 [--workers 2]

It prints its figures and writes ``live_evening.json`` to the run's folder (``--out``,
default a new ``benchmarks/out/<UTC time>-live_evening/``), and the worker's log.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from in_process import site_setup
from run_output import add_out_option, out_dir, write_json

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--played",
        default="0.9,0.05",
        help="the share of the field that plays each round to its end, and the share that"
        " draws once and leaves (the rest never plays)",
    )
    parser.add_argument("--workers", type=int, default=2, help="the Celery worker's processes")
    parser.add_argument("--beat", type=float, default=1.0, help="beat's period, seconds")
    parser.add_argument("--pings", type=int, default=2000, help="status requests (and pings)")
    parser.add_argument(
        "--board-viewers", type=int, default=100, help="entrants whose board is timed"
    )
    parser.add_argument(
        "--secret", default="6c6976652d6576656e696e67", help="the deal secret (hex)"
    )
    add_out_option(parser)
    args = parser.parse_args()
    out = out_dir(args.out, "live_evening")
    site_setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.test import Client
    from django.utils import timezone
    from load_site import cpu_seconds

    from jokeren.celery import app
    from tournaments import tasks
    from tournaments.games import PLAYER_SEAT, module_of
    from tournaments.models import EntryResult, Game, Tournament
    from tournaments.services import clubs as club_services
    from tournaments.services import entries as entry_services
    from tournaments.services import live as live_services
    from tournaments.services import play as play_services
    from tournaments.services import tournaments as tournament_services

    assert os.environ.get("DATABASE_URL", "").startswith("postgres"), "PostgreSQL, please"
    assert os.environ.get("REDIS_URL"), "a Redis database of your own, please"
    load_start = os.getloadavg()
    call_command("migrate", verbosity=0)
    full, leave = (float(x) for x in args.played.split(","))
    organizer, _ = User.objects.get_or_create(username="live-bench-organizer")
    now = timezone.now()
    t = tournament_services.tournament_create(
        created_by=organizer,
        club=club_services.club_default(),
        name="live evening bench",
        game="jokeren",
        preset="jokeren7",
        rounds=args.rounds,
        max_entrants=args.players,
        bot_level="basic",
        opens_at=now - timedelta(minutes=5),
        closes_at=now + timedelta(days=1),
        live_start=now + timedelta(hours=1),
        live_slot_minutes=[20],
        live_pause_minutes=5,
    )
    Tournament.objects.filter(pk=t.pk).update(secret=bytes.fromhex(args.secret))
    started = time.perf_counter()
    games = []
    for i in range(args.players):
        user = User.objects.create_user(username=f"live-bench-{t.pk}-{i}", password=None)
        games.append((user, entry_services.entry_join(tournament_id=t.pk, user=user).game.pk))
    joins = time.perf_counter() - started
    print(f"{args.players} entrants joined in {joins:.1f} s", flush=True)
    module = module_of("jokeren")

    def move_clock(to: datetime) -> None:
        """The schedule moved so that now is ``to`` on the evening's old clock."""
        t.refresh_from_db()
        by = to - timezone.now()
        slots = [
            [
                (datetime.fromisoformat(o) - by).isoformat(),
                (datetime.fromisoformat(c) - by).isoformat(),
            ]
            for o, c in t.live_slots
        ]
        Tournament.objects.filter(pk=t.pk).update(
            live_slots=slots, opens_at=t.opens_at - by, closes_at=t.closes_at - by
        )
        live_services.live_status_forget(tournament_id=t.pk)

    def south(game: Game) -> dict[str, Any]:
        state = game.current_state()
        assert state.current_player == PLAYER_SEAT
        return dict(module.bot_action(state, level="basic").to_json())

    def play(user: Any, game_id: int, r: int, moves: int | None) -> int:
        game = Game.objects.select_related("entry__tournament").get(pk=game_id)
        made = 0
        while game.status == Game.Status.PLAYING and game.round_index == r:
            if moves is not None and made >= moves:
                break
            game = play_services.game_play_move(
                game_id=game_id, user=user, seq=game.seq, action=south(game)
            ).game
            made += 1
        return made

    # the real worker, and beat's task every second
    log = (out / "celery.log").open("w")
    worker = subprocess.Popen(
        [
            str(ROOT / ".venv" / "bin" / "celery"),
            "-A",
            "jokeren",
            "worker",
            "-c",
            str(args.workers),
            "--without-gossip",
            "--without-mingle",
            "-l",
            "warning",
        ],
        cwd=ROOT,
        env=os.environ.copy(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    stop = threading.Event()

    def beat() -> None:
        while not stop.is_set():
            tasks.live_slots_close_due.delay()
            stop.wait(args.beat)

    def worker_cpu() -> float:
        pids = [worker.pid]
        children = Path(f"/proc/{worker.pid}/task/{worker.pid}/children")
        if children.exists():
            pids += [int(p) for p in children.read_text().split()]
        return sum(cpu_seconds(p) for p in pids if Path(f"/proc/{p}/stat").exists())

    app.control.purge()
    time.sleep(3)  # the worker's start
    threading.Thread(target=beat, daemon=True).start()
    rounds = []
    try:
        for r in range(args.rounds):
            t.refresh_from_db()
            move_clock(t.live_slot(r)[0] + timedelta(seconds=1))
            n_full, n_leave = int(full * args.players), int(leave * args.players)
            cpu, wall = time.process_time(), time.perf_counter()
            moves = sum(play(u, g, r, None) for u, g in games[:n_full])
            played_cpu, played_wall = time.process_time() - cpu, time.perf_counter() - wall
            for u, g in games[n_full : n_full + n_leave]:
                play(u, g, r, 1)
            left = Game.objects.filter(
                entry__tournament=t, status=Game.Status.PLAYING, round_index=r
            ).count()
            cpu_before = worker_cpu()
            t.refresh_from_db()
            move_clock(t.live_slot(r)[1] + timedelta(milliseconds=1))
            ended = time.perf_counter()
            while True:
                t.refresh_from_db()
                done = t.live_slots_closed > r and (
                    EntryResult.objects.filter(
                        tournament=t, upto=r + 1, rounds_played=r + 1
                    ).count()
                    == args.players
                )
                if done:
                    break
                if time.perf_counter() - ended > 120:
                    raise SystemExit(f"round {r + 1}: no board after 120 s")
                time.sleep(0.01)
            latency = time.perf_counter() - ended
            spent = worker_cpu() - cpu_before
            row = {
                "round": r + 1,
                "moves": moves,
                "move_ms_cpu": 1000 * played_cpu / max(1, moves),
                "move_ms_wall": 1000 * played_wall / max(1, moves),
                "left_to_the_bot": left,
                "board_seconds": latency,
                "worker_cpu_seconds": spent,
            }
            rounds.append(row)
            print(
                f"round {r + 1}: {moves} moves ({row['move_ms_cpu']:.2f} ms CPU a move);"
                f" {left} games left to the bot; board {latency:.2f} s after the slot's end,"
                f" worker CPU {spent:.2f} s",
                flush=True,
            )
        wall = time.perf_counter()
        while Tournament.objects.get(pk=t.pk).closed_at is None:
            if time.perf_counter() - wall > 600:
                raise SystemExit("no close after 600 s")
            time.sleep(0.05)
        close_seconds = time.perf_counter() - wall
        print(f"the close announced {close_seconds:.1f} s after the last board", flush=True)
    finally:
        stop.set()
        worker.terminate()
        worker.wait(timeout=60)
        log.close()

    # the lobby's polling against the yardstick, alternating blocks
    live_services.live_status_forget(tournament_id=t.pk)
    client = Client(HTTP_HOST="127.0.0.1")
    status_url = f"/api/tournaments/{t.pk}/live/"
    for _ in range(50):
        client.get(status_url)
        client.get("/api/ping/")
    block = 100
    status_cpu = ping_cpu = 0.0
    for _ in range(max(1, args.pings // block)):
        cpu = time.process_time()
        for _ in range(block):
            client.get("/api/ping/")
        ping_cpu += time.process_time() - cpu
        cpu = time.process_time()
        for _ in range(block):
            response = client.get(status_url)
        status_cpu += time.process_time() - cpu
        assert response.status_code == 200, response.content
    n = max(1, args.pings // block) * block
    per_status, per_ping = status_cpu / n, ping_cpu / n
    # after a slot's close every lobby takes the board (its first page, the same for
    # everyone, rendered once and kept in the cache): for logged-in entrants, alternating
    # with pings; the first one renders it
    board_url = f"/tournaments/{t.pk}/live/board/"
    viewers = []
    for user, _game in games[: args.board_viewers]:
        viewer = Client(HTTP_HOST="127.0.0.1")
        viewer.force_login(user)
        viewers.append(viewer)
    cpu = time.process_time()
    viewers[0].get(board_url) if viewers else None
    first_board = time.process_time() - cpu
    board_cpu = board_wall = board_ping_cpu = 0.0
    for viewer in viewers:
        cpu = time.process_time()
        client.get("/api/ping/")
        board_ping_cpu += time.process_time() - cpu
        cpu, wall = time.process_time(), time.perf_counter()
        response = viewer.get(board_url)
        board_cpu += time.process_time() - cpu
        board_wall += time.perf_counter() - wall
        assert response.status_code == 200
    per_board = board_cpu / max(1, len(viewers))
    # every player's lobby asks every 2 s
    share = args.players / 2 * per_status
    load_end = os.getloadavg()
    result = {
        "players": args.players,
        "rounds": rounds,
        "close_seconds_after_last_board": close_seconds,
        "status_ms_cpu": 1000 * per_status,
        "ping_ms_cpu": 1000 * per_ping,
        "status_over_ping": per_status / per_ping,
        "polling_cpu_share_of_one_core": share,
        "board_first_ms_cpu": 1000 * first_board,
        "board_ms_cpu": 1000 * per_board,
        "board_ms_wall": 1000 * board_wall / max(1, len(viewers)),
        "board_over_ping": per_board / max(1e-9, board_ping_cpu / max(1, len(viewers))),
        "board_cpu_seconds_all_lobbies": per_board * args.players,
        "joins_seconds": joins,
        "workers": args.workers,
        "beat_seconds": args.beat,
        "load_start": load_start,
        "load_end": load_end,
        "at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }
    print(
        f"lobby status {1000 * per_status:.3f} ms CPU a request against ping"
        f" {1000 * per_ping:.3f} ms ({per_status / per_ping:.2f} times); {args.players} lobbies"
        f" polling every 2 s take {100 * share:.1f}% of one core;"
        f" load average {load_start[0]:.2f} -> {load_end[0]:.2f}"
    )
    print(
        f"the lobby's board rendered in {1000 * first_board:.1f} ms CPU, then"
        f" {1000 * per_board:.2f} ms CPU a lobby"
        f" ({result['board_over_ping']:.0f} times a ping); {args.players} lobbies taking it"
        f" after a slot: {per_board * args.players:.1f} s of CPU"
    )
    write_json(out, "live_evening.json", result)


if __name__ == "__main__":
    main()
