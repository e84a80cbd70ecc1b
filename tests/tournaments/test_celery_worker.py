"""The close task in a REAL Celery worker over Redis (needs REDIS_URL; see tests/conftest.py).

The worker runs in a thread of this process with its own database connection, so the
test's data must be committed: ``transaction=True``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import factories
import pytest
from celery.contrib.testing.worker import start_worker
from django.utils import timezone

from jokeren.celery import app
from tournaments import services, tasks
from tournaments.models import Game, Tournament


@pytest.fixture
def worker() -> Iterator[Any]:
    assert not app.conf.task_always_eager
    assert app.conf.broker_url.startswith("redis://")
    app.control.purge()
    with start_worker(app, perform_ping_check=False, shutdown_timeout=30) as w:
        yield w


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_close_task_runs_in_a_real_worker(worker: Any) -> None:
    tournament = factories.make_tournament()
    player = factories.make_user("werker")
    game = services.entry_join(tournament_id=tournament.pk, user=player).game
    services.game_play_move(
        game_id=game.pk, user=player, seq=game.seq, action=factories.south_action(game)
    )
    result = tasks.tournament_close.delay(tournament.pk)
    assert result.get(timeout=120) == tournament.pk
    tournament.refresh_from_db()
    game.refresh_from_db()
    assert tournament.closed_at is not None
    assert game.status == Game.Status.FINISHED and game.bot_finished
    assert len(game.round_scores) == tournament.rounds


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_beat_task_closes_due_tournaments_in_a_real_worker(worker: Any) -> None:
    due = factories.make_tournament(name="Voorbij")
    services.entry_join(tournament_id=due.pk, user=factories.make_user())
    Tournament.objects.filter(pk=due.pk).update(closes_at=timezone.now() - timedelta(minutes=1))
    later = factories.make_tournament(name="Loopt nog")
    assert tasks.tournaments_close_due.delay().get(timeout=120) == [due.pk]
    # it queued one close task per due tournament, which the worker runs next
    deadline = time.monotonic() + 120
    while Tournament.objects.get(pk=due.pk).closed_at is None and time.monotonic() < deadline:
        time.sleep(0.2)
    due.refresh_from_db()
    later.refresh_from_db()
    assert due.closed_at is not None and later.closed_at is None
    assert app.conf.beat_schedule["close-due-tournaments"]["task"] == (
        "tournaments.tasks.tournaments_close_due"
    )


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_par_is_computed_by_a_real_worker_when_a_tournament_is_created(worker: Any) -> None:
    from tournaments.models import ParRound

    now = timezone.now()
    tournament = services.tournament_create(
        created_by=factories.make_user(organizer=True),
        name="Par",
        game="jokeren",
        preset="jokeren7",
        rounds=3,
        opens_at=now,
        closes_at=now + timedelta(days=1),
    )
    deadline = time.monotonic() + 120
    while ParRound.objects.filter(tournament=tournament).count() < 3:
        assert time.monotonic() < deadline, "the worker computed no par"
        time.sleep(0.2)
    assert tasks.tournament_par_compute.delay(tournament.pk).get(timeout=120) == 0
    assert ParRound.objects.filter(tournament=tournament).count() == 3
