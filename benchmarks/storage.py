"""Move responses and stored bytes per round, through the site's own views on the
configured database (PostgreSQL for figures that mean something).

For each preset, in a throwaway database (``<name>_storage_bench``, created and dropped
here): a tournament with the preset's rounds, entrants who play their whole game through
``POST /api/games/<id>/moves/`` (South choosing like the basic bot), then:

- the size of every move response whose move is a discard (median, p90, max), and of a
  move's events alone;
- the bytes the games take on disk: ``pg_total_relation_size`` (table, TOAST and indexes)
  of the game table and the round table, measured after the first ``--games`` games and
  again after twice as many, the difference divided by the rounds the second half played
  (what one more round costs, without the fixed size of empty tables and indexes), both as
  written and after ``VACUUM FULL`` (without the dead row versions of the games' updates);
- what a move pays for its round's state: rebuilding it from the round's actions (what
  the site does) against reading a snapshot (what it did), alternated, with the load.

Run from the repository root, e.g.::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/jokeren_lean \\
        .venv/bin/python benchmarks/storage.py --games 20 [--out DIR]

The figures go to ``storage.json`` in the run's output folder (``--out``, default a new
``benchmarks/out/<UTC time>-storage/``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jokeren.settings")

import django  # noqa: E402

django.setup()

from datetime import timedelta  # noqa: E402

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402
from django.utils import timezone  # noqa: E402
from run_output import add_out_option, out_dir, write_json  # noqa: E402

from tournaments.games import module_of  # noqa: E402
from tournaments.models import Game, GameRound, Tournament, compact_json  # noqa: E402
from tournaments.services import clubs as club_services  # noqa: E402
from tournaments.services import entries as entry_services  # noqa: E402
from tournaments.services import tournaments as tournament_services  # noqa: E402

TABLES = (Game._meta.db_table, GameRound._meta.db_table)


def _bytes() -> dict[str, int]:
    """pg_total_relation_size of each table (with its TOAST table and indexes)."""
    with connection.cursor() as cursor:
        out = {}
        for table in TABLES:
            cursor.execute("SELECT pg_total_relation_size(%s)", [table])
            out[table] = int(cursor.fetchone()[0])
        return out


def _vacuum_full() -> None:
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f"VACUUM FULL {connection.ops.quote_name(table)}")


def _play(client: Client, game: Game, sizes: list[int], event_sizes: list[int]) -> None:
    module = module_of(game.game)
    url = reverse("api_game_move", args=[game.pk])
    while game.status == Game.Status.PLAYING:
        state = module.state_from_json(game.state)
        action = module.bot_action(state, level="basic").to_json()
        body = json.dumps({"seq": game.seq, "action": action})
        response = client.post(url, data=body, content_type="application/json")
        if response.status_code != 200:
            raise SystemExit(f"move refused: {response.status_code} {response.content[:200]!r}")
        if action["type"] == "discard":
            sizes.append(len(response.content))
            events = json.loads(response.content)["events"]
            event_sizes.append(len(json.dumps(events, separators=(",", ":"))))
        game.refresh_from_db()


def _entrants(t: Tournament, first: int, count: int) -> tuple[int, list[int], list[int]]:
    sizes: list[int] = []
    event_sizes: list[int] = []
    rounds = 0
    for i in range(first, first + count):
        user = User.objects.create_user(f"{t.preset}-{i}", password="x")
        entry = entry_services.entry_join(tournament_id=t.pk, user=user)
        client = Client()
        client.force_login(user)
        game = Game.objects.get(entry=entry)
        _play(client, game, sizes, event_sizes)
        game.refresh_from_db()
        rounds += len(game.round_scores)
    return rounds, sizes, event_sizes


def measure(preset: str, games: int) -> dict[str, Any]:
    Game.objects.all().delete()
    _vacuum_full()
    module = module_of("jokeren")
    now = timezone.now()
    organizer = User.objects.get_or_create(username="bench-organizer")[0]
    t = tournament_services.tournament_create(
        created_by=organizer,
        club=club_services.club_default(),
        name=preset,
        game="jokeren",
        preset=preset,
        rounds=module.PRESETS[preset].rounds,
        max_entrants=2 * games,
        opens_at=now - timedelta(minutes=1),
        closes_at=now + timedelta(days=1),
    )
    rounds_a, sizes_a, events_a = _entrants(t, 0, games)
    _vacuum_full()
    full_a = _bytes()
    rounds_b, sizes_b, events_b = _entrants(t, games, games)
    written_b = _bytes()
    _vacuum_full()
    full_b = _bytes()
    sizes = sorted(sizes_a + sizes_b)
    per_round = {
        "as_written": {k: (written_b[k] - full_a[k]) / rounds_b for k in TABLES},
        "after_vacuum_full": {k: (full_b[k] - full_a[k]) / rounds_b for k in TABLES},
    }
    return {
        "preset": preset,
        "games": 2 * games,
        "rounds": rounds_a + rounds_b,
        "discard_response_bytes": {
            "count": len(sizes),
            "median": statistics.median(sizes),
            "p90": sizes[int(0.9 * (len(sizes) - 1))],
            "max": sizes[-1],
        },
        "discard_events_bytes_median": statistics.median(events_a + events_b),
        "bytes_per_round": {
            kind: {**by_table, "total": sum(by_table.values())}
            for kind, by_table in per_round.items()
        },
        "total_bytes_after": {"as_written": written_b, "after_vacuum_full": full_b},
        "rounds_first_half": rounds_a,
    }


def rebuild_timing(preset: str, rounds: int = 20) -> dict[str, Any]:
    """What a move pays to get its round's state: rebuilding it (deal + every action of
    the round applied: what the site does) against reading a stored snapshot
    (``state_from_json`` of the state's JSON: what it did), at the end of ``rounds``
    rounds played by basic bots; alternated, the same load for both, with the load
    average."""
    module = module_of("jokeren")
    variant = module.PRESETS[preset]
    cases = []
    for r in range(rounds):
        state = module.new_round(variant, secret=bytes(32), round_index=r)
        actions = []
        while not state.is_terminal:
            action = module.bot_action(state, level="basic")
            actions.append(action.to_json())
            state = state.apply(action)
        cases.append((r, compact_json(actions), json.dumps(state.to_json())))
    rebuild = snapshot = 0.0
    for _ in range(5):
        start = time.perf_counter()
        for r, actions_json, _snapshot in cases:
            state = module.new_round(variant, secret=bytes(32), round_index=r)
            for action in json.loads(actions_json):
                state = state.apply(module.action_from_json(action))
        rebuild += time.perf_counter() - start
        start = time.perf_counter()
        for _r, _actions, snapshot_json in cases:
            module.state_from_json(json.loads(snapshot_json))
        snapshot += time.perf_counter() - start
    n = 5 * len(cases)
    return {
        "preset": preset,
        "rebuild_ms": round(1000 * rebuild / n, 3),
        "snapshot_ms": round(1000 * snapshot / n, 3),
        "ratio": round(rebuild / snapshot, 2),
        "actions_json_bytes": statistics.median(len(c[1]) for c in cases),
        "snapshot_json_bytes": statistics.median(len(c[2]) for c in cases),
        "load_average": os.getloadavg(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games per half (default 20)")
    parser.add_argument("--presets", nargs="+", default=["jokeren7", "jokeren13"])
    add_out_option(parser)
    parser.add_argument(
        "--timing-only", action="store_true", help="only the rebuild against snapshot timing"
    )
    args = parser.parse_args()
    out = out_dir(args.out, "storage")
    timing = [rebuild_timing(preset) for preset in args.presets]
    for t in timing:
        print(json.dumps(t))
    if args.timing_only:
        write_json(out, "storage.json", {"rebuild_timing": timing})
        return
    if connection.vendor != "postgresql":
        raise SystemExit("set DATABASE_URL to a PostgreSQL database (pg_total_relation_size)")
    settings.MOVE_RATE_LIMIT = ""
    settings.ALLOWED_HOSTS = ["*"]
    old_name = connection.settings_dict["NAME"]
    # A database of its own (not the test suite's test_<name>, which a test run may use).
    connection.settings_dict["TEST"]["NAME"] = f"{old_name}_storage_bench"
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        results = [measure(preset, args.games) for preset in args.presets]
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)
    for r in results:
        print(json.dumps(r, indent=1))
    write_json(out, "storage.json", {"storage": results, "rebuild_timing": timing})


if __name__ == "__main__":
    main()
