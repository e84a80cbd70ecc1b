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
import http.client
import json
import os
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from run_output import add_out_option, out_dir, write_json

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation; 0 without values."""
    if not values:
        return 0.0
    data = sorted(values)
    k = (len(data) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (k - lo)


def summary(latencies: list[float], seconds: float) -> dict[str, float]:
    return {
        "requests": len(latencies),
        "per_second": round(len(latencies) / seconds, 1) if seconds else 0.0,
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p95_ms": round(percentile(latencies, 95) * 1000, 1),
        "p99_ms": round(percentile(latencies, 99) * 1000, 1),
    }


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds of a process so far (0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _process_group(pgid: int) -> list[int]:
    """The processes of a process group (gunicorn's master and its workers)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == pgid:
                pids.append(int(entry))
    return pids


class CpuMeter:
    """CPU seconds spent by the site's processes during a slice, read from /proc, so other
    work on the machine does not count: gunicorn (its process group), the PostgreSQL
    backends connected to the benchmark's database (the benchmark's own excepted) and the
    benchmark's process itself (the client threads). Linux only."""

    def __init__(self, gunicorn_pgid: int) -> None:
        self.gunicorn_pgid = gunicorn_pgid

    def _backends(self) -> list[int]:
        from django.db import connection

        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid <> pg_backend_pid()"
            )
            return [int(row[0]) for row in cursor.fetchall()]

    def sample(self) -> dict[str, dict[int, float]]:
        return {
            "gunicorn": {p: cpu_seconds(p) for p in _process_group(self.gunicorn_pgid)},
            "postgres": {p: cpu_seconds(p) for p in self._backends()},
            "client": {0: time.process_time()},
        }

    @staticmethod
    def spent(
        before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]
    ) -> dict[str, float]:
        """CPU seconds of each class between two samples (a process born in between
        counts from 0)."""
        return {
            name: sum(after[name][p] - before[name].get(p, 0.0) for p in after[name])
            for name in after
        }


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S', time.gmtime())}] {message}", flush=True)


# --- Services ------------------------------------------------------------------------


def port_open(host: str, port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def process(
    cmd: list[str], env: dict[str, str], name: str, logs: Path
) -> Iterator[subprocess.Popen[bytes]]:
    """A child process in its own process group, stopped (SIGTERM, then SIGKILL) on exit;
    its output goes to ``logs/<name>.log``."""
    logfile = open(logs / f"{name}.log", "wb")  # noqa: SIM115
    proc = subprocess.Popen(
        cmd, env=env, cwd=ROOT, stdout=logfile, stderr=subprocess.STDOUT, start_new_session=True
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        logfile.close()


def wait_for(check: Callable[[], bool], what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not come up in {timeout:.0f} s")


# --- HTTP ----------------------------------------------------------------------------


class Http:
    """One request per connection (gunicorn's sync workers close it after each answer)."""

    def __init__(self, host: str, port: int) -> None:
        self.host = host
        self.port = port

    def request(
        self, method: str, path: str, *, body: bytes | None = None, headers: dict[str, str]
    ) -> tuple[int, bytes, float]:
        start = time.perf_counter()
        conn = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            data = response.read()
        finally:
            conn.close()
        return response.status, data, time.perf_counter() - start


def session_headers(user: Any) -> dict[str, str]:
    """Cookies of a logged-in session for ``user`` (made in the session store directly)
    and the CSRF token a POST quotes."""
    from importlib import import_module

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]  # what a log-in stores
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    csrf = secrets.token_hex(16)
    return {
        "Cookie": f"{settings.SESSION_COOKIE_NAME}={store.session_key}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "Host": "127.0.0.1",
    }


# --- 1. Moves ------------------------------------------------------------------------


@dataclass
class PoolGame:
    """A pool game: its id, its player's session headers and South's moves precomputed
    (``south_moves``); ``next`` is how many of them are posted."""

    game_id: int
    headers: dict[str, str]
    moves: list[tuple[int, bytes, int]]
    next: int = 0


def south_moves(game: Any) -> list[tuple[int, bytes, int]]:
    """Every South move of ``game`` (just joined, nothing played) as the server will take
    them: (seq, the POST's body, the seq the answer must carry). The game is played here
    with the engine from its deal secret, variant and bot version, exactly as the server
    plays it (``engine.match.bot_move`` for every seat, the stored bot level for the bots,
    the basic bot for South; ``record.game_is_over`` ends it), so the timed threads only
    POST and do no engine work of their own."""
    from engine import record
    from engine.match import bot_move
    from tournaments.games import PLAYER_SEAT, module_of

    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    seq = 0
    scores: list[list[int]] = []
    moves: list[tuple[int, bytes, int]] = []
    round_index = 0
    state = module.new_round(variant, secret=game.secret_bytes, round_index=round_index)
    while True:
        if state.is_terminal:
            scores.append([int(x) for x in state.scores()])
            if record.game_is_over(module, variant, rounds=game.rounds, round_scores=scores):
                break
            round_index += 1
            state = module.new_round(variant, secret=game.secret_bytes, round_index=round_index)
            continue
        seat = state.current_player
        level = "basic" if seat == PLAYER_SEAT else game.bot_level
        move = bot_move(module, state, level=level, version=game.bot_version)
        if seat == PLAYER_SEAT:
            body = json.dumps({"seq": seq, "action": move.action.to_json()}).encode()
            moves.append((seq, body, -1))
        seq += 1
        state = move.state
    # The answer to a move carries the seq of the next South move (the bots have played
    # in between), the last one the game's final seq.
    answers = [m[0] for m in moves[1:]] + [seq]
    return [(s, b, a) for (s, b, _), a in zip(moves, answers, strict=True)]


class Players:
    """A pool of tournament games, each with its player's session and South's moves; a
    thread takes one and posts its moves until the game is over (then takes the next) or
    the slice ends (then puts it back)."""

    def __init__(self, http: Http, games: list[PoolGame]) -> None:
        self.http = http
        self.games = list(games)
        self.lock = threading.Lock()
        self.errors: list[str] = []

    def take(self) -> PoolGame:
        with self.lock:
            if not self.games:
                raise RuntimeError("the pool of games ran out: raise --games")
            return self.games.pop()

    def give_back(self, game: PoolGame) -> None:
        with self.lock:
            self.games.append(game)


def move_slice(players: Players, threads: int, seconds: float) -> tuple[list[float], float]:
    """``threads`` players post their precomputed moves for ``seconds``. Every answer must
    be 200 with the seq the precomputation expects; anything else is an error
    (``Players.errors``, reported) and that game is dropped."""
    latencies: list[float] = []
    stop = time.monotonic() + seconds
    lock = threading.Lock()

    def run() -> None:
        game = players.take()
        headers = {**game.headers, "Content-Type": "application/json"}
        mine: list[float] = []
        try:
            while time.monotonic() < stop:
                if game.next >= len(game.moves):
                    game = players.take()
                    headers = {**game.headers, "Content-Type": "application/json"}
                    continue
                _seq, body, answer = game.moves[game.next]
                status, data, elapsed = players.http.request(
                    "POST", f"/api/games/{game.game_id}/moves/", body=body, headers=headers
                )
                got = json.loads(data).get("seq") if status == 200 else None
                if status != 200 or got != answer:
                    with lock:
                        players.errors.append(
                            f"game {game.game_id} move {game.next}: {status}, seq {got} for"
                            f" {answer}: {data[:200]!r}"
                        )
                    game.next = len(game.moves)  # dropped: not given back
                    continue
                game.next += 1
                mine.append(elapsed)
        finally:
            if game.next < len(game.moves):
                players.give_back(game)
            with lock:
                latencies.extend(mine)

    started = time.monotonic()
    workers = [threading.Thread(target=run) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return latencies, time.monotonic() - started


def ping_slice(http: Http, threads: int, seconds: float) -> tuple[list[float], float]:
    latencies: list[float] = []
    stop = time.monotonic() + seconds
    lock = threading.Lock()

    def run() -> None:
        mine = []
        while time.monotonic() < stop:
            status, _data, elapsed = http.request(
                "GET", "/api/ping/", headers={"Host": "127.0.0.1"}
            )
            if status == 200:
                mine.append(elapsed)
        with lock:
            latencies.extend(mine)

    started = time.monotonic()
    workers = [threading.Thread(target=run) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return latencies, time.monotonic() - started


def make_entrants(t: Any, count: int, prefix: str) -> list[Any]:
    from django.contrib.auth.models import User

    from tournaments.services import entries as entry_services

    games = []
    for i in range(count):
        user = User.objects.create_user(username=f"{prefix}{i}", password=None)
        games.append(entry_services.entry_join(tournament_id=t.pk, user=user).game)
    return games


def play_south(game: Any, south_moves: int | None) -> Any:
    """South's moves in ``game`` through the services (``game_play_move``, as the API makes
    them), each the strong bot's choice where the tournament's bots are basic (so South
    plays otherwise than the bot that would finish the game): to the game's end, or
    ``south_moves`` of them. The game as it then is."""
    from tournaments.games import module_of
    from tournaments.services import play as play_services

    module = module_of(game.game)
    made = 0
    game.refresh_from_db()
    while game.status == "playing" and (south_moves is None or made < south_moves):
        state = module.state_from_json(game.state)
        action = module.bot_action(state, level="strong").to_json()
        game = play_services.game_play_move(
            game_id=game.pk, user=game.user, seq=game.seq, action=action
        ).game
        made += 1
    return game


def clone_play(template: Any, games: Sequence[Any]) -> None:
    """Give each of ``games`` (just joined, of the same tournament) the play of
    ``template``: its row's play and its stored rounds. In a duplicate tournament entrants
    may play the same cards the same way; the close finishes and audits each game on its
    own all the same (nothing of it is shared between games but the bots' rounds from
    their deal), so a field of copies costs the close what a field of such games costs."""
    from tournaments.models import Game, GameRound

    fields = (
        "status", "seq", "round_index", "round_actions", "totals", "round_scores",
        "round_results", "finished_at",
    )  # fmt: skip
    ids = [g.pk for g in games]
    Game.objects.filter(pk__in=ids).update(**{f: getattr(template, f) for f in fields})
    rounds = list(GameRound.objects.filter(game=template))
    GameRound.objects.filter(game_id__in=ids).delete()
    GameRound.objects.bulk_create(
        [
            GameRound(
                game_id=game_id,
                round_index=r.round_index,
                moves=r.moves,
                bot_from=r.bot_from,
                actions=r.actions,
            )
            for game_id in ids
            for r in rounds
        ],
        batch_size=2000,
    )


def played_field(games: Sequence[Any], finished: float, part_way: float) -> dict[str, int]:
    """Make a share ``finished`` of the just-joined ``games`` played to their end and a
    share ``part_way`` played to the middle of round 4 (two South moves into it), South
    playing otherwise than the bots (``play_south``); one game of each kind is played
    through the services and copied to the others of its kind (``clone_play``). The
    number of games of each kind."""
    n_finished = round(len(games) * finished)
    n_part = round(len(games) * part_way)
    out = {"finished": n_finished, "part_way": n_part, "nothing": len(games) - n_finished - n_part}
    if n_finished:
        template = play_south(games[0], None)
        clone_play(template, games[1:n_finished])
    if n_part:
        template = games[n_finished]
        while template.round_index < 3 and template.status == "playing":
            template = play_south(template, 1)
        template = play_south(template, 2)
        clone_play(template, games[n_finished + 1 : n_finished + n_part])
    return out


def new_tournament(name: str, *, rounds: int, max_entrants: int) -> Any:
    from datetime import timedelta

    from django.contrib.auth.models import User
    from django.utils import timezone

    from tournaments.services import clubs as club_services
    from tournaments.services import tournaments as tournament_services

    organizer, _ = User.objects.get_or_create(username="bench-organizer")
    now = timezone.now()
    return tournament_services.tournament_create(
        created_by=organizer,
        club=club_services.club_default(),
        name=name,
        game="jokeren",
        preset="jokeren7",
        rounds=rounds,
        max_entrants=max_entrants,
        bot_level="basic",
        opens_at=now - timedelta(minutes=1),
        closes_at=now + timedelta(days=1),
    )


def bench_moves(http: Http, args: argparse.Namespace, meter: CpuMeter) -> dict[str, Any]:
    levels = [int(x) for x in args.levels.split(",")]
    t = new_tournament("Load: moves", rounds=8, max_entrants=10_000)
    log(f"moves: {args.games} entrants join")
    games = make_entrants(t, args.games, "speler")
    # South's moves, computed before anything is timed. The games of one tournament share
    # their deals and bots (a duplicate tournament) and South plays like the basic bot in
    # each, so one computation serves every game with the same secret, variant and bots.
    start = time.process_time()
    computed: dict[Any, list[tuple[int, bytes, int]]] = {}
    pool = []
    for g in games:
        key = (g.secret_bytes, json.dumps(g.variant, sort_keys=True), g.bot_level, g.bot_version)
        if key not in computed:
            computed[key] = south_moves(g)
        if computed[key][0][0] != g.seq:
            raise RuntimeError(f"game {g.pk}: the precomputed first move is not at its seq")
        pool.append(PoolGame(g.pk, session_headers(g.user), computed[key]))
    log(
        f"  South's moves computed ({len(computed)} distinct game(s),"
        f" {len(pool[0].moves)} moves a game) in {time.process_time() - start:.1f} s CPU"
    )
    players = Players(http, pool)
    # Every worker's first moves import the engine and open its connections: untimed.
    move_slice(players, 2 * args.workers, 3.0)
    out: dict[str, Any] = {}
    for level in levels:
        log(f"moves and ping at {level} concurrent, load average {load_average()}")
        moves: list[float] = []
        pings: list[float] = []
        move_time = ping_time = 0.0
        cpu: dict[str, dict[str, float]] = {"moves": {}, "ping": {}}
        for _ in range(args.alternations):
            for kind in ("ping", "moves"):
                before = meter.sample()
                if kind == "ping":
                    lat, secs = ping_slice(http, level, args.slice)
                    pings += lat
                    ping_time += secs
                else:
                    lat, secs = move_slice(players, level, args.slice)
                    moves += lat
                    move_time += secs
                for name, spent in meter.spent(before, meter.sample()).items():
                    cpu[kind][name] = cpu[kind].get(name, 0.0) + spent
        m, p = summary(moves, move_time), summary(pings, ping_time)
        for kind, figures in (("moves", m), ("ping", p)):
            n = figures["requests"] or 1
            figures["cpu_ms"] = {name: round(1000 * v / n, 3) for name, v in cpu[kind].items()}
            figures["cpu_ms"]["server"] = round(
                figures["cpu_ms"]["gunicorn"] + figures["cpu_ms"]["postgres"], 3
            )
        out[str(level)] = {
            "moves": m,
            "ping": p,
            "ratio": round(m["per_second"] / p["per_second"], 3) if p["per_second"] else None,
            "server_cpu_ratio": round(p["cpu_ms"]["server"] / m["cpu_ms"]["server"], 3)
            if m["cpu_ms"]["server"]
            else None,
            "load_average": load_average(),
        }
        log(f"  moves {m}\n  ping  {p}\n  ratio {out[str(level)]['ratio']}")
    out["errors"] = len(players.errors)
    if players.errors:
        log(f"  ERROR: {len(players.errors)} moves not answered as expected, e.g.")
        for e in players.errors[:5]:
            log(f"    {e}")
    return out


#: Issue 10's targets for the move POST at 10 concurrent players.
TARGET_P95_MS = 50.0
TARGET_RATIO = 0.35


def moves_table(moves: dict[str, Any]) -> str:
    """The moves' figures as a table, with issue 10's targets at 10 players."""
    lines = [
        "players | moves/s | p50 ms | p95 ms | p99 ms | ping req/s | ping p95 ms | ratio"
        " | load average",
        "---|--:|--:|--:|--:|--:|--:|--:|--",
    ]
    for level, f in moves.items():
        if not isinstance(f, dict):
            continue
        m, p = f["moves"], f["ping"]
        lines.append(
            f"{level} | {m['per_second']} | {m['p50_ms']} | {m['p95_ms']} | {m['p99_ms']}"
            f" | {p['per_second']} | {p['p95_ms']} | {f['ratio']} | {f['load_average']}"
        )
    if "10" in moves:
        f = moves["10"]
        p95_ok = f["moves"]["p95_ms"] < TARGET_P95_MS
        ratio_ok = f["ratio"] is not None and f["ratio"] >= TARGET_RATIO
        lines.append(
            f"targets at 10 players: move p95 < {TARGET_P95_MS:.0f} ms"
            f" {'met' if p95_ok else 'NOT met'} ({f['moves']['p95_ms']} ms);"
            f" ratio >= {TARGET_RATIO} {'met' if ratio_ok else 'NOT met'} ({f['ratio']})"
        )
    lines += [
        "",
        "CPU a request, ms (/proc: gunicorn's processes, the PostgreSQL backends of the"
        " benchmark's database, the benchmark's client threads):",
        "players | move: gunicorn | postgres | client | ping: gunicorn | postgres | client"
        " | server ping ÷ server move",
        "---|--:|--:|--:|--:|--:|--:|--:",
    ]
    for level, f in moves.items():
        if isinstance(f, dict):
            m, p = f["moves"]["cpu_ms"], f["ping"]["cpu_ms"]
            lines.append(
                f"{level} | {m['gunicorn']} | {m['postgres']} | {m['client']}"
                f" | {p['gunicorn']} | {p['postgres']} | {p['client']} | {f['server_cpu_ratio']}"
            )
    lines.append(f"moves not answered as expected: {moves.get('errors', 0)}")
    return "\n".join(lines)


# --- 2. Close ------------------------------------------------------------------------


def bench_close(env: dict[str, str], args: argparse.Namespace) -> dict[str, Any]:
    from django.db.models import Max

    from tournaments import tasks
    from tournaments.models import Entry, Tournament
    from tournaments.services import results as result_services

    out: dict[str, Any] = {}
    celery = str(VENV_BIN / "celery")
    for workers in [int(w) for w in args.close_workers.split(",")]:
        t = new_tournament(f"Load: close {workers}", rounds=8, max_entrants=10_000)
        log(f"close with {workers} worker(s): {args.close_entrants} entrants join")
        joined = make_entrants(t, args.close_entrants, f"sluit{workers}-")
        finished, part_way = (float(x) for x in args.close_played.split(","))
        kinds = played_field(joined, finished, part_way)
        log(f"  the field: {kinds}")
        cmd = [
            celery, "-A", "jokeren", "worker", "-c", str(workers), "-P", "prefork",
            "--without-gossip", "--without-mingle", "--without-heartbeat", "-l", "WARNING",
        ]  # fmt: skip
        with process(cmd, env, f"celery{workers}", args.out):
            from jokeren.celery import app

            wait_for(lambda: bool(app.control.ping(timeout=0.5)), "the celery worker")
            log(f"  closing, load average {load_average()}")
            start = time.monotonic()
            tasks.tournament_close.delay(t.pk)
            wait_for(
                lambda pk=t.pk: Tournament.objects.filter(pk=pk, closed_at__isnull=False).exists(),
                "the close",
                timeout=3600,
            )
            seconds = time.monotonic() - start
        # The rebuild's share of the close: from the last game's audit to the announcement
        # (the rebuild's parts and the announcing step), from the database's own times.
        closed = Tournament.objects.get(pk=t.pk)
        last_audit = Entry.objects.filter(tournament=closed).aggregate(m=Max("audited_at"))["m"]
        share = (closed.closed_at - last_audit).total_seconds()
        # The close's last step again, timed alone: the rebuild of every entry's results.
        start = time.monotonic()
        result_services.standings_rebuild(tournament=Tournament.objects.get(pk=t.pk))
        rebuild = time.monotonic() - start
        out[str(workers)] = {
            "games": args.close_entrants,
            "seconds": round(seconds, 1),
            "games_per_second": round(args.close_entrants / seconds, 1),
            "field": kinds,
            "rebuild_share_seconds": round(share, 1),
            "rebuild_seconds": round(rebuild, 1),
            "load_average": load_average(),
        }
        log(f"  {out[str(workers)]}")
    if "1" in out and "2" in out:
        out["speed_up"] = round(out["2"]["games_per_second"] / out["1"]["games_per_second"], 2)
    return out


# --- 3. Bytes per round --------------------------------------------------------------

#: Tables that are not a game's own record (the leaderboard's are counted apart).
NOT_GAME_TABLES = {"tournaments_tournament", "tournaments_entry"}
RESULT_TABLES = {"tournaments_entryresult", "tournaments_dealresult"}


def bench_bytes() -> dict[str, Any]:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "SELECT tablename, pg_total_relation_size(quote_ident(tablename)) FROM pg_tables"
            " WHERE schemaname = 'public' AND tablename LIKE 'tournaments\\_%%'"
        )
        sizes = dict(cur.fetchall())
        cur.execute(
            "SELECT COALESCE(SUM(jsonb_array_length(round_scores)), 0) FROM tournaments_game"
        )
        rounds = int(cur.fetchone()[0])
    game_tables = {k: v for k, v in sizes.items() if k not in NOT_GAME_TABLES | RESULT_TABLES}
    results = {k: v for k, v in sizes.items() if k in RESULT_TABLES}
    return {
        "rounds": rounds,
        "tables": game_tables,
        "bytes_per_round": round(sum(game_tables.values()) / rounds) if rounds else None,
        "result_tables": results,
        "result_bytes_per_round": round(sum(results.values()) / rounds) if rounds else None,
    }


# --- 4. Leaderboard ------------------------------------------------------------------


def fake_field(size: int, rounds: int) -> tuple[Any, Any, Any]:
    """A tournament with ``size`` entrants bulk-inserted, each 0 to ``rounds`` rounds in
    with random seat scores; returns it, an entrant half-way (round ``rounds // 2``) and
    one whose game is over."""
    from django.contrib.auth.models import User

    from tournaments.models import Entry, Game
    from tournaments.services import results as result_services

    t = new_tournament(f"Load: board {size}", rounds=rounds, max_entrants=size)
    rng = random.Random(size)
    users = User.objects.bulk_create(
        [User(username=f"b{size}-{i:05d}", password="!") for i in range(size)], batch_size=2000
    )
    entries = Entry.objects.bulk_create(
        [Entry(tournament=t, user=u) for u in users], batch_size=2000
    )
    games = []
    for i, (u, e) in enumerate(zip(users, entries, strict=True)):
        played = (
            rounds // 2 if i == 0 else min(rounds, rng.choice([rounds] * 3 + list(range(rounds))))
        )
        scores = [[rng.randint(0, 60) for _ in range(4)] for _ in range(played)]
        games.append(
            Game(
                user=u,
                entry=e,
                game=t.game,
                preset=t.preset,
                variant=t.variant,
                rounds=rounds,
                bot_level=t.bot_level,
                bot_version=t.bot_version,
                round_index=min(played, rounds - 1),
                round_scores=scores,
                totals=[sum(r[s] for r in scores) for s in range(4)],
                round_results=[{} for _ in scores],
                status=Game.Status.FINISHED if played == rounds else Game.Status.PLAYING,
            )
        )
    Game.objects.bulk_create(games, batch_size=2000)
    start = time.monotonic()
    result_services.standings_rebuild(tournament=t)
    log(f"  results of {size} entrants written in {time.monotonic() - start:.1f} s")
    # What autovacuum does soon after a bulk insert in production: statistics for the
    # planner and the visibility map for index-only counts.
    from django.db import connection

    with connection.cursor() as cur:
        for table in ("tournaments_entryresult", "tournaments_dealresult", "tournaments_game"):
            cur.execute(f"VACUUM ANALYZE {table}")
    finished = next(g.user for g in games if g.status == Game.Status.FINISHED)
    return t, users[0], finished


def timed_gets(http: Http, path: str, headers: dict[str, str], n: int) -> dict[str, Any]:
    """The first request (cold) and p50/p95 of the next ``n``, each followed by a ping
    (``/api/ping/``, the yardstick) in the same loop: the ping's p50/p95 beside."""
    status, body, cold = http.request("GET", path, headers=headers)
    assert status == 200, (path, status, body[:300])
    warm: list[float] = []
    pings: list[float] = []
    ping_headers = {"Host": "127.0.0.1"}
    for _ in range(n):
        warm.append(http.request("GET", path, headers=headers)[2])
        pings.append(http.request("GET", "/api/ping/", headers=ping_headers)[2])
    return {
        "cold_ms": round(cold * 1000, 1),
        "p50_ms": round(percentile(warm, 50) * 1000, 1),
        "p95_ms": round(percentile(warm, 95) * 1000, 1),
        "ping_p50_ms": round(percentile(pings, 50) * 1000, 1),
        "ping_p95_ms": round(percentile(pings, 95) * 1000, 1),
        "bytes": len(body),
    }


def organizer_headers() -> dict[str, str]:
    """The session of the benchmark's organizer (``new_tournament``'s), in the organizers'
    group and staff (who may manage every club's tournaments): the entries page is theirs
    to see."""
    from django.contrib.auth.models import Group, User

    organizer = User.objects.get(username="bench-organizer")
    organizer.groups.add(Group.objects.get_or_create(name="organizers")[0])
    User.objects.filter(pk=organizer.pk).update(is_staff=True)
    organizer.refresh_from_db()
    return session_headers(organizer)


def _result_tables_mb() -> dict[str, Any]:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute(
            "SELECT relname, pg_total_relation_size(relid), n_dead_tup FROM pg_stat_user_tables"
            " WHERE relname IN ('tournaments_entryresult', 'tournaments_dealresult')"
        )
        rows = cur.fetchall()
    return {
        "mb": round(sum(r[1] for r in rows) / 2**20, 1),
        "dead_rows": sum(r[2] for r in rows),
    }


def bench_vacuum(t: Any) -> dict[str, Any]:
    """What autovacuum is for (deploy/README.md): the results tables of the field after
    its first write, after each further rebuild with autovacuum off (every row written
    again leaves a dead one: the tables grow), then after a ``VACUUM`` and one more
    rebuild (the freed room used again: they stay)."""
    from django.db import connection

    from tournaments.services import results as result_services

    tables = ("tournaments_entryresult", "tournaments_dealresult")
    out: dict[str, Any] = {"first": _result_tables_mb()}
    with connection.cursor() as cur:
        for table in tables:
            cur.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
    try:
        for i in (2, 3):
            result_services.standings_rebuild(tournament=t)
            time.sleep(1)  # the statistics collector's counts
            out[f"rebuild_{i}_no_vacuum"] = _result_tables_mb()
        with connection.cursor() as cur:
            for table in tables:
                cur.execute(f"VACUUM {table}")
        out["after_vacuum"] = _result_tables_mb()
        result_services.standings_rebuild(tournament=t)
        time.sleep(1)
        out["rebuild_4_after_vacuum"] = _result_tables_mb()
    finally:
        with connection.cursor() as cur:
            for table in tables:
                cur.execute(f"ALTER TABLE {table} RESET (autovacuum_enabled)")
    log(f"  results tables: {out}")
    return out


def bench_board(http: Http, args: argparse.Namespace) -> dict[str, Any]:
    """Every page and answer of issue 28's list at each field size, open and after the
    close, each beside the ping in the same loop (``timed_gets``)."""
    from django.utils import timezone

    from tournaments.models import Tournament

    out: dict[str, Any] = {}
    anonymous = {"Host": "127.0.0.1"}
    for size in [int(x) for x in args.board_sizes.split(",")]:
        log(f"leaderboard at {size} entrants: bulk insert, load average {load_average()}")
        t, entrant, finished = fake_field(size, 8)
        me, done = session_headers(entrant), session_headers(finished)
        organizer = organizer_headers()
        api = f"/api/tournaments/{t.pk}/standings/"
        page = f"/tournaments/{t.pk}/"
        board = f"/tournaments/{t.pk}/leaderboard/"
        deep = page + f"?page={max(1, min(150, size // 50 * 3 // 4))}"
        entries = f"/tournaments/{t.pk}/entries/"
        csv = f"/tournaments/{t.pk}/standings.csv"
        n = args.requests
        figures: dict[str, Any] = {}
        for when in ("open", "closed"):
            if when == "closed":
                Tournament.objects.filter(pk=t.pk).update(closed_at=timezone.now())
            log(f"  {when}, load average {load_average()}")
            figures[f"api_visitor_{when}"] = timed_gets(http, api, anonymous, n)
            figures[f"api_entrant_{when}"] = timed_gets(http, api, me, n)
            figures[f"page_visitor_{when}"] = timed_gets(http, page, anonymous, n)
            figures[f"page_entrant_{when}"] = timed_gets(http, page, me, n)
            figures[f"page_finished_entrant_{when}"] = timed_gets(http, page, done, n)
            figures[f"leaderboard_entrant_{when}"] = timed_gets(http, board, me, n)
            figures[f"page_deep_entrant_{when}"] = timed_gets(http, deep, me, n)
            figures[f"page_search_{when}"] = timed_gets(http, page + "?q=-0042", anonymous, n)
            figures[f"entries_organizer_{when}"] = timed_gets(http, entries, organizer, n)
            figures[f"csv_visitor_{when}"] = timed_gets(http, csv, anonymous, max(3, n // 4))
        figures["deep_page"] = deep
        if size == max(int(x) for x in args.board_sizes.split(",")):
            figures["vacuum"] = bench_vacuum(t)
        figures["load_average"] = load_average()
        for k, v in figures.items():
            log(f"  {k}: {v}")
        out[str(size)] = figures
    return out


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
