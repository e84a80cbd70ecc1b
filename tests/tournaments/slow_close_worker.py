"""A real Celery worker for tests/tournaments/test_celery_worker_killed.py, in which the
close pauses for ``CLOSE_PAUSE_SECONDS`` after each game it finishes, so that a test can
kill the worker in the middle of a close. Test-only: nothing in the site imports it.

    python tests/tournaments/slow_close_worker.py worker --pool prefork --concurrency 1 ...

The arguments are ``celery -A jokeren``'s; the settings come from the environment.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jokeren.settings")
django.setup()

from tournaments.games import PlayedRound  # noqa: E402
from tournaments.models import Game  # noqa: E402
from tournaments.services import closing  # noqa: E402

PAUSE = float(os.environ["CLOSE_PAUSE_SECONDS"])
_bot_finish = closing.games_bot_finish_rounds


def _slow_bot_finish(game_ids: Sequence[int]) -> list[tuple[Game, dict[int, PlayedRound]]]:
    """The batch's games finished one by one (each committed on its own), with the pause
    after each: a kill between two leaves some of the batch finished, some not."""
    finished = []
    for game_id in game_ids:
        finished.extend(_bot_finish([game_id]))
        time.sleep(PAUSE)
    return finished


# The close finishes a batch's unfinished games through games_bot_finish_rounds (then
# audits them); the pool's children are forked from this process, so they inherit the
# pause.
closing.games_bot_finish_rounds = _slow_bot_finish

if __name__ == "__main__":
    from jokeren.celery import app

    app.worker_main(sys.argv[1:])
