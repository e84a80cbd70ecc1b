"""The close with the check of play that knows too much, in a REAL Celery worker over
Redis on PostgreSQL (needs DATABASE_URL and REDIS_URL; see tests/conftest.py): the close
queues the screen, the screen a check per chosen entry, and the entrant who knew the deal
is flagged while the honest one is not."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from playcheck_helpers import field

from jokeren.celery import app
from tournaments import tasks
from tournaments.models import Entry, EntryFlag, PlayCheck


@pytest.fixture
def worker() -> Iterator[Any]:
    assert not app.conf.task_always_eager
    app.control.purge()
    with start_worker(app, perform_ping_check=False, shutdown_timeout=30) as w:
        yield w


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_the_close_in_a_real_worker_flags_the_entrant_who_knew_the_deal(worker: Any) -> None:
    t, entries = field(rounds=4)
    tasks.tournament_close.delay(t.pk).get(timeout=120)
    deadline = time.monotonic() + 180
    checks: list[PlayCheck] = []
    while time.monotonic() < deadline:
        checks = list(PlayCheck.objects.filter(entry__tournament=t))
        if len(checks) == 2 and all(c.status == PlayCheck.Status.DONE for c in checks):
            break
        time.sleep(0.3)
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
