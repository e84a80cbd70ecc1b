"""``load.py``'s part 1: South's moves POSTed by concurrent players, alternating with
slices of pings (the module docstring of ``load.py`` says how).
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from dataclasses import dataclass
from typing import Any

from load_site import (
    CpuMeter,
    Http,
    load_average,
    log,
    make_entrants,
    new_tournament,
    session_headers,
    summary,
)

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
