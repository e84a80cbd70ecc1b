"""``load.py``'s parts 3 and 4: the bytes a stored round takes, and every page and answer
of a 10,000-entrant leaderboard, open and closed, beside a ping.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from load_site import Http, load_average, log, new_tournament, percentile, session_headers

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
