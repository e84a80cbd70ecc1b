"""Celery tasks: they only load ids and call a service. Queue them with ``delay_on_commit``.

Every task is idempotent: the settings acknowledge a task only when it has finished
(``task_acks_late``, ``task_reject_on_worker_lost``), so a task whose worker was killed
runs again on another worker, and a second run must change nothing the first one finished.
"""

from __future__ import annotations

from celery import chord, group, shared_task

from tournaments import series
from tournaments.models import Tournament
from tournaments.services import audit as audit_services
from tournaments.services import closing as closing_services
from tournaments.services import par
from tournaments.services import ratings as rating_services
from tournaments.services import results as result_services


def _close_fan_out(tournament_id: int) -> None:
    """Start a close: one ``games_close`` task per batch of games, then, once all are
    done, ``tournament_close_finish`` (a chord; inline in eager mode)."""
    batches = closing_services.tournament_close_start(tournament_id=tournament_id, claim=True)
    if batches is None:
        return
    if not batches:
        closing_services.tournament_close_finish(tournament_id=tournament_id)
        return
    chord(
        group(games_close.si(batch, tournament_id) for batch in batches),
        tournament_close_finish.si(tournament_id),
    ).apply_async()


@shared_task
def tournament_close(tournament_id: int) -> int:
    """Close one tournament: the bots finish the open games and every game is audited,
    in tasks spread over the workers; then the secret is revealed (``tournament_close_finish``)."""
    _close_fan_out(tournament_id)
    return tournament_id


@shared_task
def games_close(game_ids: list[int], tournament_id: int | None = None) -> int:
    """A batch of a closing tournament's games: finished by the bot where needed, audited;
    the close's sign of life (``close_alive``)."""
    if tournament_id is not None:
        closing_services.close_alive(tournament_id=tournament_id)
    return len(closing_services.games_close(game_ids=game_ids))


@shared_task
def tournament_close_finish(tournament_id: int) -> int:
    """The chord's callback of a close: write the standings once, then reveal the secret."""
    closing_services.close_alive(tournament_id=tournament_id)
    closing_services.tournament_close_finish(tournament_id=tournament_id)
    return tournament_id


@shared_task
def tournaments_close_due() -> list[int]:
    """Periodic (Celery beat): queue the close of every tournament whose closing time has
    passed, one task each (``tournament_close``, which spreads the games over the workers),
    so that a lost worker takes at most one close's start with it (it runs again elsewhere)."""
    due = closing_services.tournaments_due()
    for tournament_id in due:
        tournament_close.delay(tournament_id)
    return due


@shared_task
def tournament_standings_refresh(tournament_id: int) -> int:
    """Write a tournament's standings again from its games."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    return result_services.standings_rebuild(tournament=tournament)


@shared_task
def game_audit(game_id: int) -> bool:
    """Audit one finished game by replay; ``True`` when everything matches."""
    return audit_services.game_audit(game_id=game_id).ok


@shared_task
def tournament_audit(tournament_id: int) -> list[int]:
    """Audit every finished game of a tournament; the ids of the games that mismatch."""
    return [
        a.game_id for a in audit_services.tournament_audit(tournament_id=tournament_id) if not a.ok
    ]


@shared_task
def tournament_par_compute(tournament_id: int) -> int:
    """Compute and store par for every round of a tournament (idempotent)."""
    return par.tournament_par_compute(tournament_id=tournament_id)


@shared_task
def series_editions_create_due() -> list[int]:
    """Periodic (Celery beat, every minute): create the editions of every series whose
    opening time has come (idempotent: an edition exists at most once)."""
    return series.series_editions_create_due()


@shared_task
def ratings_update(tournament_id: int) -> int:
    """Apply a closed tournament's final standings to its entrants' ratings (once; in
    order of the close, replaying the game's tournaments when one closed later counted
    first). The number of ratings it changed."""
    return rating_services.ratings_apply_tournament(tournament_id=tournament_id)


@shared_task
def ratings_recompute(game: str) -> int:
    """Apply every closed tournament of a game again, in order (a closed tournament's
    standings changed: an organizer resolved a review, or an audit flagged an entry)."""
    return rating_services.ratings_recompute_game(game=game)
