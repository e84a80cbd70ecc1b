"""The close with fair play's detection in a REAL Celery worker over Redis, on the
database of the run (PostgreSQL in CI): accounts linked by a device after they entered
are flagged by the close, before the final standings are written, so their entries are
under review, unranked and unrated, and the others are ranked (docs/rules.md, "Fair
play"). The worker runs in a thread with its own connection: ``transaction=True``."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import factories
import pytest
from celery.contrib.testing.worker import start_worker

from jokeren.celery import app
from tournaments import tasks
from tournaments.models import Entry, EntryFlag, EntryResult, RatingChange, Sighting, Tournament
from tournaments.services import entries as entry_services


@pytest.fixture
def worker() -> Iterator[Any]:
    assert not app.conf.task_always_eager
    assert app.conf.broker_url.startswith("redis://")
    app.control.purge()
    with start_worker(app, perform_ping_check=False, shutdown_timeout=30) as w:
        yield w


def _wait(tournament: Tournament, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.closed_at is not None:
            return
        time.sleep(0.2)
    raise AssertionError("the tournament did not close in time")


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_the_close_in_a_real_worker_flags_linked_accounts(worker: Any) -> None:
    t = factories.make_tournament(rounds=1)
    users = {name: factories.make_user(name) for name in ("anna", "bert", "cor", "dirk")}
    for user in users.values():
        factories.play_to_end(entry_services.entry_join(tournament_id=t.pk, user=user).game, user)
    # anna and bert are seen on one device after they entered; cor shares only a network.
    for name, device in (("anna", "a" * 32), ("bert", "a" * 32), ("cor", "c" * 32)):
        Sighting.objects.create(
            user=users[name], kind="login", device=device, network="192.0.2.0/24"
        )
    tasks.tournament_close.delay(t.pk).get(timeout=120)
    _wait(t)
    states = dict(Entry.objects.filter(tournament=t).values_list("user__username", "fair_play"))
    assert states == {
        "anna": "under_review",
        "bert": "under_review",
        "cor": "ok",
        "dirk": "ok",
    }
    assert EntryFlag.objects.filter(entry__tournament=t, kind="linked").count() == 2
    final = {r.name: r for r in EntryResult.objects.filter(tournament=t, upto=t.rounds)}
    assert final["anna"].under_review and final["anna"].unranked
    assert final["bert"].under_review and final["bert"].unranked
    assert not final["cor"].unranked and not final["dirk"].unranked
    # the ratings task of the close (queued after it) rates the two others only
    deadline = time.monotonic() + 60
    while not RatingChange.objects.filter(tournament=t).exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    rated = set(RatingChange.objects.filter(tournament=t).values_list("user__username", flat=True))
    assert rated == {"cor", "dirk"}
