"""A close interrupted by a killed worker finishes within ``CLOSE_BOUND`` seconds with the
shipped settings (docs: deploy/README.md, "When a part fails"): the killed batch's
message comes back after the broker's visibility timeout and the next restore sweep, then
the batch runs again and the close's finish follows. The shipped numbers are read from
``jokeren.settings`` loaded with nothing set; one batch of ``CLOSE_BATCH`` games of the
longest kind (``MAX_ROUNDS`` rounds, every game left for the bot to finish) and the
finish are timed here, on this machine. (tests/tournaments/test_celery_worker_killed.py
kills real workers mid-close, with a 20 s visibility timeout to keep it short.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import factories
import pytest

from tournaments.models import MAX_ROUNDS, Game, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services

ROOT = Path(__file__).resolve().parents[2]
#: From the kill to a closed tournament (issue 25, item 6).
CLOSE_BOUND = 180.0
#: How many times slower than measured here a batch may be on a busier machine.
SLACK = 3.0


def shipped() -> dict[str, int]:
    """The Celery numbers of ``jokeren.settings`` with no environment of its own."""
    code = (
        "import json, jokeren.settings as s; print(json.dumps({k: getattr(s, k) for k in "
        "('CELERY_TASK_SOFT_TIME_LIMIT', 'CELERY_TASK_TIME_LIMIT', "
        "'CELERY_BROKER_VISIBILITY_TIMEOUT', 'CELERY_UNACKED_RESTORE_INTERVAL')}))"
    )
    env = {"PATH": os.environ.get("PATH", ""), "DEBUG": "true", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    values: dict[str, int] = json.loads(done.stdout)
    return values


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("game", "preset"), [("jokeren", "jokeren13"), ("klaverjas", "amsterdams")]
)
def test_a_killed_close_batch_is_done_again_within_the_bound(
    organizer: object, game: str, preset: str
) -> None:
    numbers = shipped()
    soft = numbers["CELERY_TASK_SOFT_TIME_LIMIT"]
    hard = numbers["CELERY_TASK_TIME_LIMIT"]
    visibility = numbers["CELERY_BROKER_VISIBILITY_TIMEOUT"]
    restore = numbers["CELERY_UNACKED_RESTORE_INTERVAL"]
    assert 0 < soft < hard < visibility

    t = factories.make_tournament(
        created_by=organizer, game=game, preset=preset, rounds=MAX_ROUNDS, south_plays=()
    )
    for i in range(closing_services.CLOSE_BATCH):
        entry_services.entry_join(tournament_id=t.pk, user=factories.make_user(f"p{i}"))
    batches = closing_services.tournament_close_start(tournament_id=t.pk)
    assert batches is not None and len(batches) == 1
    started = time.monotonic()
    closing_services.games_close(game_ids=batches[0])
    batch = time.monotonic() - started
    started = time.monotonic()
    closing_services.tournament_close_finish(tournament_id=t.pk)
    finish = time.monotonic() - started
    assert Tournament.objects.get(pk=t.pk).closed_at is not None
    games = Game.objects.filter(entry__tournament=t)
    assert games.count() == closing_services.CLOSE_BATCH
    assert not games.filter(status=Game.Status.PLAYING).exists()

    # the batch is well inside its soft limit, so it is never cut off
    assert batch * SLACK < soft, (batch, soft)
    # the message comes back at most visibility + one sweep after the kill
    worst = visibility + restore + SLACK * (batch + finish)
    assert worst <= CLOSE_BOUND, (worst, batch, finish, numbers)
