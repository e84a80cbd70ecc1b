"""Queue a Celery task of ``tournaments.tasks`` from a use case, once its transaction
commits, by the task's name: the tasks call the services, so the services never import
the tasks (docs/architecture.md). The app registers the tasks when it is ready
(``TournamentsConfig.ready``), in the web processes as in the workers.

The broker out of reach (Redis down) never fails the request whose transaction has
committed: the message is tried ``PUBLISH_RETRIES`` more times, a short while apart, then
the failure is logged and counted (``queue_failures()``) and the request answers as
usual. What such a task would have done is caught up without it: beat's
``tournaments_close_due`` closes every tournament whose closing time has passed
(``tournaments_due``), and a tournament's page asks for its close again.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from celery import current_app
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError

logger = logging.getLogger(__name__)

#: Publish attempts after the first one, and the pause between two (seconds).
PUBLISH_RETRIES = 2
PUBLISH_INTERVAL = 0.2

_lock = threading.Lock()
_failures = 0


def queue_failures() -> int:
    """How many tasks this process could not queue (the broker out of reach)."""
    return _failures


def task_queue(name: str, *args: Any) -> bool:
    """Queue ``tournaments.tasks.<name>(*args)`` now (inline where tasks run eagerly);
    False when the broker could not be reached (logged and counted, see above)."""
    global _failures
    task = current_app.tasks[f"tournaments.tasks.{name}"]
    if current_app.conf.task_always_eager:
        task.apply_async(args)  # runs here: its own errors are not the broker's
        return True
    policy = {
        "max_retries": PUBLISH_RETRIES,
        "interval_start": PUBLISH_INTERVAL,
        "interval_step": PUBLISH_INTERVAL,
        "interval_max": PUBLISH_INTERVAL,
    }
    try:
        # ignore_result: nothing here waits for it, and with a Redis result backend a web
        # process would otherwise subscribe to the result's channel (a failure of its own
        # with Redis down)
        task.apply_async(args, retry=True, retry_policy=policy, ignore_result=True)
    except (BrokerError, OSError) as exc:
        with _lock:
            _failures += 1
        logger.error("task %s%r not queued, the broker is out of reach: %s", name, args, exc)
        return False
    return True


def task_on_commit(name: str, *args: Any) -> None:
    """Queue ``tournaments.tasks.<name>(*args)`` after the current transaction commits
    (at once outside one); inline where tasks run eagerly (the embedded default: no
    broker that could fail, the task's own errors are raised)."""
    if current_app.conf.task_always_eager:
        task = current_app.tasks[f"tournaments.tasks.{name}"]
        # celery-types types a task as a plain Task; Celery's Django fixup makes it a
        # DjangoTask at run time, which has delay_on_commit.
        task.delay_on_commit(*args)  # type: ignore[attr-defined]
        return
    transaction.on_commit(lambda: task_queue(name, *args))
