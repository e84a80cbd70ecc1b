"""Celery tasks: they only load ids and call a service. Queue them with ``delay_on_commit``.

Every task is idempotent: the settings acknowledge a task only when it has finished
(``task_acks_late``, ``task_reject_on_worker_lost``), so a task whose worker was killed
runs again on another worker, and a second run must change nothing the first one finished.
"""

from __future__ import annotations

from typing import Any

from celery import chord, group, shared_task

from tournaments import series
from tournaments.models import Tournament
from tournaments.services import audit as audit_services
from tournaments.services import closing as closing_services
from tournaments.services import club_announcements, club_invitations, par
from tournaments.services import fairplay as fairplay_services
from tournaments.services import live as live_services
from tournaments.services import mail as mail_services
from tournaments.services import playcheck as playcheck_services
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
    """The chord's callback of a close's games: the games a batch left, then the standings'
    rebuild in parts spread over the workers, whose chord's callback reveals the secret
    (``tournament_close_announce``; inline in eager mode)."""
    closing_services.close_alive(tournament_id=tournament_id)
    parts = closing_services.tournament_close_results(tournament_id=tournament_id)
    if parts is None:
        return tournament_id
    if not parts:
        closing_services.tournament_close_announce(tournament_id=tournament_id)
        return tournament_id
    chord(
        group(tournament_rebuild_part.si(tournament_id, first, last) for first, last in parts),
        tournament_close_announce.si(tournament_id),
    ).apply_async()
    return tournament_id


@shared_task
def tournament_rebuild_part(tournament_id: int, first: int, last: int) -> int:
    """One part of a close's rebuild (the entries ``first .. last``); the close's sign of
    life."""
    closing_services.close_alive(tournament_id=tournament_id)
    return closing_services.tournament_close_rebuild_part(
        tournament_id=tournament_id, first=first, last=last
    )


@shared_task
def tournament_close_announce(tournament_id: int) -> int:
    """The rebuild's chord's callback: the close announced (``closed_at``)."""
    closing_services.close_alive(tournament_id=tournament_id)
    closing_services.tournament_close_announce(tournament_id=tournament_id)
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
def live_slots_close_due() -> list[int]:
    """Periodic (Celery beat, every few seconds): queue the slot's close of every live
    evening whose round's slot has ended (docs/rules.md §7, "Live club evening")."""
    due = live_services.live_slots_due()
    for tournament_id in due:
        live_slot_close.delay(tournament_id)
    # the last slot's end is the close's time: queued now, not at close-due's minute
    live_services.live_closes_due()
    return due


@shared_task
def live_reminders_due() -> list[int]:
    """Periodic (Celery beat): queue the reminder of every live evening whose first round
    opens within the hour (``services.live.live_reminders_due``)."""
    return live_services.live_reminders_due()


@shared_task
def live_slot_close(tournament_id: int) -> int:
    """A live evening's slots whose time has passed closed: the bot finishes their rounds
    (``services.live.live_slot_close``)."""
    return live_services.live_slot_close(tournament_id=tournament_id)


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
def tournaments_par_catch_up() -> list[int]:
    """Periodic (Celery beat): queue par again for every tournament whose par is not
    complete (``par.tournaments_par_missing``: its task was lost with the broker out of
    reach or a worker killed), one task each."""
    missing = par.tournaments_par_missing()
    for tournament_id in missing:
        tournament_par_compute.delay(tournament_id)
    return missing


@shared_task
def series_editions_create_due() -> list[int]:
    """Periodic (Celery beat, every minute): create the editions of every series whose
    opening time has come (idempotent: an edition exists at most once)."""
    return series.series_editions_create_due()


# --- Mail (tournaments/services/mail.py) ----------------------------------------------------

#: A mail task whose SMTP server failed (``smtplib.SMTPException`` is an ``OSError``) runs
#: again later, up to ``MAIL_RETRIES`` times, waiting longer each time (from 30 s to half
#: an hour); what it sent before the failure is marked sent and is not sent again.
MAIL_RETRIES = 8


@shared_task(
    autoretry_for=(OSError,), retry_backoff=30, retry_backoff_max=1800, max_retries=MAIL_RETRIES
)
def mail_send(kind: str, user_id: int, object_id: int, context: dict[str, Any]) -> bool:
    """One mail of ``kind`` about ``object_id`` to one user (at most once; ``context``:
    what its template says, as JSON)."""
    return mail_services.mail_send(kind=kind, user_id=user_id, object_id=object_id, context=context)


@shared_task(
    autoretry_for=(OSError,), retry_backoff=30, retry_backoff_max=1800, max_retries=MAIL_RETRIES
)
def club_invitation_mail(invite_id: int) -> bool:
    """The mail of a personal club invitation (once)."""
    return club_invitations.invitation_mail(invite_id=invite_id)


@shared_task
def club_announcement_mail(announcement_id: int) -> int:
    """A club's announcement to its members, one task per batch of members."""
    batches = club_announcements.announcement_recipients(announcement_id=announcement_id)
    for batch in batches:
        club_announcement_mail_batch.delay(announcement_id, batch)
    return len(batches)


@shared_task(
    autoretry_for=(OSError,), retry_backoff=30, retry_backoff_max=1800, max_retries=MAIL_RETRIES
)
def club_announcement_mail_batch(announcement_id: int, user_ids: list[int]) -> int:
    """A club's announcement to a batch of its members."""
    return club_announcements.announcement_mail(announcement_id=announcement_id, user_ids=user_ids)


@shared_task
def tournament_results_mail(tournament_id: int) -> int:
    """After a close: the results mail to its entrants, one task per batch of users."""
    batches = mail_services.tournament_results_recipients(tournament_id=tournament_id)
    for batch in batches:
        tournament_results_mail_batch.delay(tournament_id, batch)
    return len(batches)


@shared_task(
    autoretry_for=(OSError,), retry_backoff=30, retry_backoff_max=1800, max_retries=MAIL_RETRIES
)
def tournament_results_mail_batch(tournament_id: int, user_ids: list[int]) -> int:
    """The results mail of a closed tournament to a batch of its entrants."""
    return mail_services.tournament_results_mail(tournament_id=tournament_id, user_ids=user_ids)


@shared_task
def series_edition_mail(tournament_id: int) -> int:
    """A new edition is open: mail the players of the earlier editions, one task per
    batch of users."""
    batches = mail_services.series_edition_recipients(tournament_id=tournament_id)
    for batch in batches:
        series_edition_mail_batch.delay(tournament_id, batch)
    return len(batches)


@shared_task(
    autoretry_for=(OSError,), retry_backoff=30, retry_backoff_max=1800, max_retries=MAIL_RETRIES
)
def series_edition_mail_batch(tournament_id: int, user_ids: list[int]) -> int:
    """The new-edition mail to a batch of the series' players."""
    return mail_services.series_edition_mail(tournament_id=tournament_id, user_ids=user_ids)


@shared_task
def live_reminder_mail(tournament_id: int) -> int:
    """A live evening starts soon: mail its entrants, one task per batch of users."""
    batches = mail_services.live_reminder_recipients(tournament_id=tournament_id)
    for batch in batches:
        live_reminder_mail_batch.delay(tournament_id, batch)
    return len(batches)


@shared_task(
    autoretry_for=(OSError,), retry_backoff=30, retry_backoff_max=1800, max_retries=MAIL_RETRIES
)
def live_reminder_mail_batch(tournament_id: int, user_ids: list[int]) -> int:
    """The reminder to a batch of a live evening's entrants."""
    return mail_services.live_reminder_mail(tournament_id=tournament_id, user_ids=user_ids)


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


@shared_task
def sightings_purge() -> int:
    """Periodic (Celery beat, hourly): delete the devices' sightings older than the kept
    time (docs/rules.md, "Fair play")."""
    return fairplay_services.sightings_purge()


@shared_task
def tournament_play_screen(tournament_id: int) -> list[int]:
    """After a close: choose the entries whose play is checked for knowledge of the deal,
    each checked in a task of its own (``entry_play_check``)."""
    return playcheck_services.tournament_play_screen(tournament_id=tournament_id)


@shared_task
def entry_play_check(entry_id: int) -> bool:
    """Check one screened entry's play against the revealed deal; ``True`` when it is
    flagged."""
    check = playcheck_services.entry_play_check(entry_id=entry_id)
    return bool(check is not None and check.flagged)


@shared_task
def play_checks_expire() -> int:
    """Periodic (Celery beat, every minute): the play checks still pending past their
    tournament's time budget after the close recorded as not checked in full
    (docs/rules.md, "Fair play")."""
    return playcheck_services.play_checks_expire()
