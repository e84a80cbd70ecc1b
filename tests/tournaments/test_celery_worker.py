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
from tournaments import tasks
from tournaments.models import EntryResult, Game, ParRound, Tournament
from tournaments.services import closing
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import tournaments as tournament_services


def _wait_closed(tournament: Tournament, timeout: float = 120) -> None:
    """The close task only starts the close (its games are spread over tasks and a chord's
    callback reveals the secret): wait for the reveal."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.closed_at is not None:
            return
        time.sleep(0.2)
    raise AssertionError("the tournament did not close in time")


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
    game = entry_services.entry_join(tournament_id=tournament.pk, user=player).game
    play_services.game_play_move(
        game_id=game.pk, user=player, seq=game.seq, action=factories.south_action(game)
    )
    result = tasks.tournament_close.delay(tournament.pk)
    assert result.get(timeout=120) == tournament.pk
    _wait_closed(tournament)
    game.refresh_from_db()
    assert tournament.closed_at is not None
    assert game.status == Game.Status.FINISHED and game.bot_finished
    assert len(game.round_scores) == tournament.rounds


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_beat_task_closes_due_tournaments_in_a_real_worker(worker: Any) -> None:
    due = factories.make_tournament(name="Voorbij")
    entry_services.entry_join(tournament_id=due.pk, user=factories.make_user())
    Tournament.objects.filter(pk=due.pk).update(closes_at=timezone.now() - timedelta(minutes=1))
    later = factories.make_tournament(name="Loopt nog")
    assert tasks.tournaments_close_due.delay().get(timeout=120) == [due.pk]
    # it queued one close task per due tournament, which the worker runs next
    _wait_closed(due)
    due.refresh_from_db()
    later.refresh_from_db()
    assert due.closed_at is not None and later.closed_at is None
    assert app.conf.beat_schedule["close-due-tournaments"]["task"] == (
        "tournaments.tasks.tournaments_close_due"
    )


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_the_close_fans_out_over_batches_and_reveals_once_everything_is_done(
    worker: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More games than a batch holds: several ``games_close`` tasks and the chord's
    callback; every game finished by the bot and audited before the secret is revealed,
    and the final standings written."""
    monkeypatch.setattr(closing, "CLOSE_BATCH", 2)
    tournament = factories.make_tournament(rounds=1, max_entrants=10)
    games = [
        entry_services.entry_join(tournament_id=tournament.pk, user=factories.make_user()).game
        for _ in range(5)
    ]
    batches = closing_services.tournament_close_start(tournament_id=tournament.pk)
    assert batches is not None and [len(b) for b in batches] == [2, 2, 1]
    tasks.tournament_close.delay(tournament.pk).get(timeout=120)
    _wait_closed(tournament)
    for game in games:
        game.refresh_from_db()
        assert game.status == Game.Status.FINISHED and game.bot_finished
        assert game.entry.audit_status == "ok" and game.entry.audited_at is not None
        assert game.entry.audited_at <= tournament.closed_at
    final = EntryResult.objects.filter(tournament=tournament, upto=1)
    assert final.count() == 5 and not final.filter(finished=False).exists()


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_par_is_computed_by_a_real_worker_when_a_tournament_is_created(worker: Any) -> None:
    now = timezone.now()
    tournament = tournament_services.tournament_create(
        created_by=factories.make_user(organizer=True),
        club=factories.default_club(),
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


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_beat_catches_up_par_lost_with_the_broker_in_a_real_worker(worker: Any) -> None:
    tournament = factories.make_tournament(name="Par kwijt", rounds=2, south_plays=())
    deadline = time.monotonic() + 120
    # The creation queued a par task (and the factory computed par itself): the worker
    # takes its tasks one at a time, in order, so once this one is done that one is too.
    assert tasks.tournament_par_compute.delay(tournament.pk).get(timeout=120) == 0
    ParRound.objects.filter(tournament=tournament).delete()  # its task lost, as it were
    assert tasks.tournaments_par_catch_up.delay().get(timeout=120) == [tournament.pk]
    while ParRound.objects.filter(tournament=tournament).count() < 2:
        assert time.monotonic() < deadline, "the worker caught up no par"
        time.sleep(0.2)
    assert tasks.tournaments_par_catch_up.delay().get(timeout=120) == []
    assert app.conf.beat_schedule["catch-up-par"]["task"] == (
        "tournaments.tasks.tournaments_par_catch_up"
    )
