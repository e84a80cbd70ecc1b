"""CPU time of the close per game, in this process: ``closing_services.games_close`` (the bot
finishes each game, then the replay audit) of N Jokeren 7 games (8 rounds, basic bots)
that have just been joined (``--played 0.3,0.4``: that share played to the end and that
share part-way, as ``load.py --close-played``), the work one Celery worker does for a
batch. CPU time (``time.process_time``) rather than wall time, so a busy machine slows it less; the
database's own work runs in the PostgreSQL server and is not counted (the queries are).

Run against a database of your own (it is migrated; the games stay in it)::

    DEBUG=true DATABASE_URL=postgres://postgres@127.0.0.1:5432/jokeren_mine \\
        .venv/bin/python benchmarks/close_cpu.py --games 40 [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument(
        "--played",
        default="0,0",
        help="shares of the games played to the end and part-way before the close "
        "(load.py's played_field); the rest just joined",
    )
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "benchmarks"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jokeren.settings")
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone
    from load_close import played_field

    from jokeren.celery import app
    from tournaments.services import closing as closing_services
    from tournaments.services import clubs as club_services
    from tournaments.services import entries as entry_services
    from tournaments.services import tournaments as tournament_services

    app.conf.task_always_eager = True
    call_command("migrate", verbosity=0)
    organizer, _ = User.objects.get_or_create(username="close-cpu-organizer")
    now = timezone.now()
    t = tournament_services.tournament_create(
        created_by=organizer,
        club=club_services.club_default(),
        name="close cpu",
        game="jokeren",
        preset="jokeren7",
        rounds=8,
        max_entrants=10_000,
        bot_level="basic",
        opens_at=now - timedelta(minutes=1),
        closes_at=now + timedelta(days=1),
    )
    games = []
    for i in range(args.games):
        user = User.objects.create_user(username=f"close-cpu-{t.pk}-{i}", password=None)
        games.append(entry_services.entry_join(tournament_id=t.pk, user=user).game)
    finished, part_way = (float(x) for x in args.played.split(","))
    print(f"the field: {played_field(games, finished, part_way)}")
    batches = closing_services.tournament_close_start(tournament_id=t.pk) or []
    profile = cProfile.Profile()
    cpu, wall = time.process_time(), time.perf_counter()
    with CaptureQueriesContext(connection) as queries:
        if args.profile:
            profile.enable()
        for batch in batches:
            closing_services.games_close(game_ids=batch)
        profile.disable()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    print(
        f"{args.games} games: {1000 * cpu / args.games:.1f} ms CPU a game "
        f"({args.games / cpu:.1f} games per CPU second), wall {wall:.1f} s, "
        f"{len(queries) / args.games:.1f} queries a game (BEGIN/COMMIT included), "
        f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}"
    )
    if args.profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    main()
