"""Issue 35, item 10: the console of ``scripts/run.sh``. An ordinary 403 or 404 is one
line, never a traceback; inline Celery tasks and the in-memory broker do not flood the
terminal ("Task … succeeded", "No hostname was supplied")."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from typing import Any

import factories
import pytest
from django.test import Client

from jokeren.logs import ClientErrorsOnOneLine

pytestmark = pytest.mark.django_db


def _record(status: int) -> logging.LogRecord:
    try:
        raise PermissionError("nope")
    except PermissionError:
        record = logging.LogRecord(
            "django.request", logging.WARNING, __file__, 1, "x", (), sys.exc_info()
        )
    record.status_code = status
    return record


def test_a_client_error_keeps_no_traceback_and_a_server_error_does() -> None:
    one_line = ClientErrorsOnOneLine()
    for status in (403, 404):
        record = _record(status)
        assert one_line.filter(record) and record.exc_info is None
    record = _record(500)
    assert one_line.filter(record) and record.exc_info is not None
    assert not ClientErrorsOnOneLine(drop=True).filter(_record(404))
    assert ClientErrorsOnOneLine(drop=True).filter(_record(500))


def test_403_and_404_log_no_traceback(client: Client, caplog: Any) -> None:
    client.force_login(factories.make_user("speler"))
    with caplog.at_level(logging.INFO):
        assert client.get("/tournaments/999999/").status_code == 404
        assert client.get("/tournaments/new/").status_code == 403
    request_records = [r for r in caplog.records if r.name == "django.request"]
    assert all(r.exc_info is None for r in request_records)
    text = caplog.text
    assert "Traceback" not in text and "PermissionDenied" not in text


def _levels(**env: str) -> dict[str, int]:
    """The effective levels of Celery's task trace and kombu's connection logger once
    Django is set up (its ``LOGGING``) with the site's settings under ``env``: a process
    of its own, as the settings read the environment once."""
    script = (
        "import json, logging, django; django.setup(); print(json.dumps({n: "
        "logging.getLogger(n).getEffectiveLevel() for n in "
        "('celery.app.trace', 'kombu.connection')}))"
    )
    base = {
        k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "DATABASE_URL", "LOG_LEVEL")
    }
    base["DJANGO_SETTINGS_MODULE"] = "jokeren.settings"
    done = subprocess.run(
        [sys.executable, "-c", script], env={**base, **env}, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    levels: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    return levels


def test_inline_tasks_and_the_memory_broker_are_quiet() -> None:
    # the embedded default of scripts/run.sh: tasks inline, the in-memory broker
    inline = _levels()
    assert inline["celery.app.trace"] >= logging.WARNING
    assert inline["kombu.connection"] >= logging.ERROR
    # with Redis a real worker runs the tasks and still logs each of them
    worker = _levels(REDIS_URL="redis://127.0.0.1:6379/15")
    assert worker["celery.app.trace"] <= logging.INFO
    assert worker["kombu.connection"] <= logging.INFO
