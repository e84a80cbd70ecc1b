"""Queue a Celery task of ``tournaments.tasks`` from a use case, once its transaction
commits, by the task's name: the tasks call the services, so the services never import
the tasks (docs/architecture.md). The app registers the tasks when it is ready
(``TournamentsConfig.ready``), in the web processes as in the workers."""

from __future__ import annotations

from typing import Any

from celery import current_app


def task_on_commit(name: str, *args: Any) -> None:
    """Queue ``tournaments.tasks.<name>(*args)`` after the current transaction commits
    (at once outside one); inline where tasks run eagerly (the embedded default)."""
    task = current_app.tasks[f"tournaments.tasks.{name}"]
    # celery-types types a task as a plain Task; Celery's Django fixup makes it a
    # DjangoTask at run time, which has delay_on_commit.
    task.delay_on_commit(*args)  # type: ignore[attr-defined]
