"""A live club evening's slots closed by beat's task in a REAL Celery worker over Redis
(needs REDIS_URL; see tests/conftest.py): the worker runs in a thread of this process with
its own database connection, so the test's data is committed (``transaction=True``)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import factories
import pytest
from celery.contrib.testing.worker import start_worker

from jokeren.celery import app
from tournaments import tasks
from tournaments.models import EntryResult, Game, GameRound, Tournament
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services


@pytest.fixture
def worker() -> Iterator[Any]:
    assert not app.conf.task_always_eager
    assert app.conf.broker_url.startswith("redis://")
    app.control.purge()
    with start_worker(app, perform_ping_check=False, shutdown_timeout=30) as w:
        yield w


def _wait(done: Callable[[], bool], what: str, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return
        time.sleep(0.1)
    raise AssertionError(f"{what} did not happen in time")


def _play_round(game: Game, user: Any) -> None:
    game.refresh_from_db()
    start = game.round_index
    while game.status == Game.Status.PLAYING and game.round_index == start:
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        ).game


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_beat_closes_each_slot_and_the_evening_in_a_real_worker(worker: Any) -> None:
    t = factories.make_live_evening(rounds=2)
    stays = factories.make_user("blijft")
    gone = factories.make_user("vertrekt")
    stays_game = entry_services.entry_join(tournament_id=t.pk, user=stays).game
    gone_game = entry_services.entry_join(tournament_id=t.pk, user=gone).game
    factories.live_clock_at(t, 0)
    _play_round(stays_game, stays)
    factories.live_clock_at(t, 0, moment="ended")
    started = time.monotonic()
    assert tasks.live_slots_close_due.delay().get(timeout=60) == [t.pk]

    def slot_closed() -> bool:
        return Game.objects.get(pk=gone_game.pk).round_index == 1 and (
            EntryResult.objects.filter(entry=gone_game.entry, upto=1, rounds_played=1).exists()
        )

    _wait(slot_closed, "the slot's close")
    # a round's board within 2 s of the task that closes its slot
    assert time.monotonic() - started < 2
    t.refresh_from_db()
    assert t.live_slots_closed == 1
    assert GameRound.objects.get(game=gone_game, round_index=0).bot_from is not None
    assert EntryResult.objects.get(entry=gone_game.entry, upto=1).bot_rounds == [0]
    # the last slot's end: its board, then the close, queued by the next beat task
    factories.live_clock_at(t, 1)
    _play_round(stays_game, stays)
    factories.live_clock_at(t, 1, moment="ended")
    assert tasks.live_slots_close_due.delay().get(timeout=60) == [t.pk]
    _wait(lambda: Tournament.objects.get(pk=t.pk).live_slots_closed == 2, "the last slot")
    tasks.live_slots_close_due.delay().get(timeout=60)
    _wait(lambda: Tournament.objects.get(pk=t.pk).closed_at is not None, "the close")
    final = EntryResult.objects.get(entry=gone_game.entry, upto=2)
    assert final.bot_rounds == [0, 1] and final.rounds_counted == 0 and final.unranked
    mine = EntryResult.objects.get(entry=stays_game.entry, upto=2)
    assert mine.bot_rounds == [] and mine.rounds_counted == 2
