"""Celery tasks: they only load ids and call a service. Queue them with ``delay_on_commit``.

Every task is idempotent: the settings acknowledge a task only when it has finished
(``task_acks_late``, ``task_reject_on_worker_lost``), so a task whose worker was killed
runs again on another worker, and a second run must change nothing the first one finished.
"""

from __future__ import annotations

from celery import shared_task

from tournaments import services
from tournaments.models import Tournament


@shared_task
def tournament_close(tournament_id: int) -> int:
    """Close one tournament (bots finish the open games, the secret is revealed)."""
    services.tournament_close(tournament_id=tournament_id)
    return tournament_id


@shared_task
def tournaments_close_due() -> list[int]:
    """Periodic (Celery beat): queue the close of every tournament whose closing time has
    passed, one task each, so that each close has the whole time limit to itself and a
    lost worker takes at most one close with it (it runs again elsewhere)."""
    due = services.tournaments_due()
    for tournament_id in due:
        tournament_close.delay(tournament_id)
    return due


@shared_task
def tournament_standings_refresh(tournament_id: int) -> int:
    """Recompute a tournament's standings into the cache."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    return len(services.standings_refresh(tournament=tournament))


@shared_task
def game_audit(game_id: int) -> bool:
    """Audit one finished game by replay; ``True`` when everything matches."""
    return services.game_audit(game_id=game_id).ok


@shared_task
def tournament_audit(tournament_id: int) -> list[int]:
    """Audit every finished game of a tournament; the ids of the games that mismatch."""
    return [a.game_id for a in services.tournament_audit(tournament_id=tournament_id) if not a.ok]


@shared_task
def tournament_par_compute(tournament_id: int) -> int:
    """Compute and store par for every round of a tournament (idempotent)."""
    from tournaments import analysis

    return analysis.tournament_par_compute(tournament_id=tournament_id)


@shared_task
def series_editions_create_due() -> list[int]:
    """Periodic (Celery beat, every minute): create the editions of every series whose
    opening time has come (idempotent: an edition exists at most once)."""
    from tournaments.series import series_editions_create_due as create_due

    return create_due()
