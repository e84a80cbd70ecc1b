"""``load.py``'s part 2: the close of a tournament with 1 and 2 Celery workers, its field
just joined or part played (``played_field``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

from load_site import VENV_BIN, load_average, log, make_entrants, new_tournament, process, wait_for


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


# --- 2. Close ------------------------------------------------------------------------


def wait_play_checks(tournament_id: int, timeout: float = 900) -> dict[str, Any]:
    """Wait until the close's play check has run (its screen has queued a ``PlayCheck``
    per chosen entry and every one is done; a field without decisions of its own gets
    none): how many, the seconds from the announcement to the last one done, and the
    CPU seconds of the slowest check."""
    from tournaments.models import DealResult, PlayCheck, Tournament

    deadline = time.monotonic() + timeout
    own = DealResult.objects.filter(tournament_id=tournament_id, by_bot=False).exists()
    while own and time.monotonic() < deadline:
        queued = PlayCheck.objects.filter(entry__tournament_id=tournament_id)
        if queued.exists() and not queued.filter(status=PlayCheck.Status.PENDING).exists():
            break
        time.sleep(0.5)
    rows = list(PlayCheck.objects.filter(entry__tournament_id=tournament_id))
    closed_at = Tournament.objects.get(pk=tournament_id).closed_at
    done = [r.checked_at for r in rows if r.checked_at is not None]
    return {
        "checks": len(rows),
        "pending": sum(r.checked_at is None for r in rows),
        "seconds_after_close": round((max(done) - closed_at).total_seconds(), 1)
        if done and closed_at
        else None,
        "slowest_cpu_seconds": max((r.seconds or 0.0 for r in rows), default=None),
        "flagged": sum(r.flagged for r in rows),
    }


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
            # the play check after the close (services.playcheck): its screen, then a task
            # per chosen entry, on the same workers; until every check is done
            checks = wait_play_checks(t.pk)
        # The rebuild's share of the close: from the last game's audit to the announcement
        # (the rebuild's parts and the announcing step), from the database's own times.
        closed = Tournament.objects.get(pk=t.pk)
        last_audit = Entry.objects.filter(tournament=closed).aggregate(m=Max("audited_at"))["m"]
        share = (closed.closed_at - last_audit).total_seconds()
        # The close's rebuild again, timed alone in this process: every part as the close
        # writes it (the final board's rows and every per-deal row).
        closed = Tournament.objects.get(pk=t.pk)
        start = time.monotonic()
        for first, last in result_services.standings_rebuild_parts(tournament=closed):
            result_services.standings_rebuild_part(
                tournament=closed, first=first, last=last, final_only=True
            )
        rebuild = time.monotonic() - start
        out[str(workers)] = {
            "games": args.close_entrants,
            "seconds": round(seconds, 1),
            "games_per_second": round(args.close_entrants / seconds, 1),
            "field": kinds,
            "rebuild_share_seconds": round(share, 1),
            "rebuild_seconds": round(rebuild, 1),
            "play_checks": checks,
            "load_average": load_average(),
        }
        log(f"  {out[str(workers)]}")
    if "1" in out and "2" in out:
        out["speed_up"] = round(out["2"]["games_per_second"] / out["1"]["games_per_second"], 2)
    return out
