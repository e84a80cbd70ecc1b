"""Queuing a task with the broker out of reach (tournaments/jobs.py): tried again briefly,
then logged and counted; the transaction that asked for it stays committed and nothing
raises. In a process of its own (Celery's connection pool is made once per process),
with a broker URL where nothing listens, and then with a Redis of the test's own."""

from __future__ import annotations

import json
import tempfile
import time
from pathlib import Path

import redis
from own_redis import OwnRedis, free_port, run_site_script

SCRIPT = """
import json, logging, time
import django
django.setup()
from django.db import connection, transaction
from tournaments import jobs
with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE IF NOT EXISTS probe (x integer)")
started = time.monotonic()
with transaction.atomic():
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO probe VALUES (1)")
    jobs.task_on_commit("tournament_close", 123)
with connection.cursor() as cursor:
    cursor.execute("SELECT count(*) FROM probe")
    rows = cursor.fetchone()[0]
print(json.dumps({"failures": jobs.queue_failures(), "rows": rows,
                  "seconds": time.monotonic() - started}))
"""


def _run(broker: str, db: Path) -> tuple[dict[str, float], str]:
    done = run_site_script(SCRIPT, database=db, redis_url=broker)
    return json.loads(done.stdout.strip().splitlines()[-1]), done.stderr


def test_a_broker_out_of_reach_is_logged_and_counted_not_raised() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        started = time.monotonic()
        result, log = _run(f"redis://127.0.0.1:{free_port()}/0", Path(tmp) / "db.sqlite3")
    assert result["failures"] == 1
    assert result["rows"] == 1  # the transaction committed
    assert result["seconds"] < 10
    assert time.monotonic() - started < 60
    assert "tournament_close" in log and "not queued" in log


def test_with_the_broker_up_the_task_is_queued() -> None:
    server = OwnRedis()
    server.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            result, _log = _run(server.url(0), Path(tmp) / "db.sqlite3")
        assert result["failures"] == 0
        assert redis.Redis.from_url(server.url(0)).llen("celery") == 1
    finally:
        server.stop()
