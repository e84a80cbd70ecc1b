"""The close with the check of play that knows too much, in a REAL Celery worker over
Redis on PostgreSQL (needs DATABASE_URL and REDIS_URL; see tests/conftest.py): the close
queues the screen, the screen a check per chosen entry, and the entrant who knew the deal
is flagged while the honest one is not; once the checks have run no entry is provisional.
Past the checks' time budget (``PLAY_CHECK_SECONDS``) the worker records them as not
checked in full, and nothing stays provisional."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from django.test import Client
from django.urls import reverse
from playcheck_helpers import field

from jokeren.celery import app
from tournaments import tasks
from tournaments.models import Entry, EntryFlag, PlayCheck, Tournament


@pytest.fixture
def worker() -> Iterator[Any]:
    assert not app.conf.task_always_eager
    app.control.purge()
    with start_worker(app, perform_ping_check=False, shutdown_timeout=30) as w:
        yield w


def _checks_run(t: Tournament) -> list[PlayCheck]:
    """The tournament's two play checks once neither is pending (or as they are after
    three minutes)."""
    deadline = time.monotonic() + 180
    checks: list[PlayCheck] = []
    while time.monotonic() < deadline:
        checks = list(PlayCheck.objects.filter(entry__tournament=t))
        if len(checks) == 2 and all(c.status != PlayCheck.Status.PENDING for c in checks):
            break
        time.sleep(0.3)
    return checks


def _board(t: Tournament) -> dict[str, dict[str, Any]]:
    body = Client().get(reverse("api_tournament_standings", args=[t.pk])).json()
    return {row["player"]: row for row in body["standings"]}


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_the_close_in_a_real_worker_flags_the_entrant_who_knew_the_deal(worker: Any) -> None:
    t, entries = field(rounds=4)
    tasks.tournament_close.delay(t.pk).get(timeout=120)
    checks = _checks_run(t)
    by_entry = {c.entry_id: c for c in checks}
    assert set(by_entry) == {entries["valsspeler"].pk, entries["eerlijk"].pk}
    assert all(c.status == PlayCheck.Status.DONE for c in checks)
    assert by_entry[entries["valsspeler"].pk].flagged
    assert not by_entry[entries["eerlijk"].pk].flagged
    t.refresh_from_db()
    assert t.closed_at is not None
    flag = EntryFlag.objects.get(entry=entries["valsspeler"])
    assert flag.kind == EntryFlag.Kind.PLAY
    assert Entry.objects.get(pk=entries["valsspeler"].pk).under_review
    board = _board(t)
    assert not any(row["provisional"] for row in board.values())
    assert board["valsspeler"]["under_review"] and board["eerlijk"]["rank"] == 1


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_past_the_budget_the_worker_records_the_checks_late(worker: Any, settings: Any) -> None:
    settings.PLAY_CHECK_SECONDS = 0  # the ten minutes have run out as the close ends
    t, entries = field(rounds=4)
    tasks.tournament_close.delay(t.pk).get(timeout=120)
    checks = _checks_run(t)
    assert {c.entry_id for c in checks} == {entries["valsspeler"].pk, entries["eerlijk"].pk}
    assert {(c.status, c.decisions, c.flagged) for c in checks} == {
        (PlayCheck.Status.LATE, 0, False)
    }
    # the screen found nothing (no linked accounts): the cheater keeps the place, final
    assert not EntryFlag.objects.filter(entry__tournament=t).exists()
    assert not Entry.objects.get(pk=entries["valsspeler"].pk).under_review
    board = _board(t)
    assert not any(row["provisional"] for row in board.values())
    assert board["valsspeler"]["rank"] == 1
    # beat's sweep finds nothing left pending
    assert tasks.play_checks_expire.delay().get(timeout=60) == 0
