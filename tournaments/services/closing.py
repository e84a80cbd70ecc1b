"""The close of a tournament: end its window, let the bot finish every unfinished game in
the entrant's seat, audit every game by replay, reveal the secret and write the
standings (docs/rules.md §4 and §5).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import jobs
from tournaments.errors import TournamentClosed
from tournaments.models import (
    Game,
    Tournament,
)
from tournaments.selectors.live import live_state_key
from tournaments.services.audit import GameAudit, games_audit_stored
from tournaments.services.fairplay import tournament_links_check
from tournaments.services.play import games_bot_finish_rounds
from tournaments.services.results import (
    standings_rebuild_part,
    standings_rebuild_parts,
    standings_rebuilt,
)


def tournament_close_early(*, tournament: Tournament) -> Tournament:
    """End the window now (no more joins or moves) and queue the close."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.closed_at is not None:
            raise TournamentClosed.of(_("This tournament is closed."))
        end_window(t)
        jobs.task_on_commit("tournament_close", t.pk)
    tournament.refresh_from_db()
    return tournament


def end_window(t: Tournament) -> None:
    now = timezone.now()
    if t.closes_at > now:
        t.closes_at = now
        if t.opens_at >= now:
            t.opens_at = now - timedelta(microseconds=1)
        t.save(update_fields=["opens_at", "closes_at", "updated_at"])


#: Games per task of the close's fan-out (``tasks.tournament_close``).
CLOSE_BATCH = 10


#: A running close holds its claim this long after its last sign of life (its start, each
#: batch of games, the finish): one close of a tournament at a time; a close whose worker
#: died is started again once the claim lapses (within this plus beat's minute: the bound
#: of deploy/README.md, "When a part fails").
CLOSE_CLAIM_SECONDS = 120


def close_claim_key(t: Tournament) -> str:
    """The cache key of a tournament's running close (the commitment keeps two databases'
    tournaments of one id apart)."""
    return f"close-started:{t.pk}:{t.commitment[:16]}"


def close_running(t: Tournament) -> bool:
    """Whether a close of ``t`` is running now (its claim is held)."""
    return cache.get(close_claim_key(t)) is not None


def close_alive(*, tournament_id: int) -> None:
    """A running close's sign of life (each batch of games, the finish): its claim holds
    for another ``CLOSE_CLAIM_SECONDS``."""
    t = Tournament.objects.only("pk", "commitment").get(pk=tournament_id)
    cache.set(close_claim_key(t), 1, CLOSE_CLAIM_SECONDS)


def tournament_close_start(*, tournament_id: int, claim: bool = False) -> list[list[int]] | None:
    """The first step of a close: end the window (no move commits after it, see
    ``_lock_for_play``) and return the ids of the tournament's games in batches of
    ``CLOSE_BATCH``, each for ``games_close``; ``None`` when it is closed already, or with
    ``claim`` when another close of it is running (its claim held: a redelivered or
    repeated close task)."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.closed_at is not None:
            return None
        end_window(t)
    if claim and not cache.add(close_claim_key(t), 1, CLOSE_CLAIM_SECONDS):
        return None
    ids = list(
        Game.objects.filter(entry__tournament_id=tournament_id)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return [ids[i : i + CLOSE_BATCH] for i in range(0, len(ids), CLOSE_BATCH)]


def games_close(*, game_ids: Sequence[int]) -> list[GameAudit]:
    """A batch of a tournament's games closed (one task of the close's fan-out): the bot
    plays each unfinished one to its end in the entrant's seat, in one transaction
    (``games_bot_finish_rounds``), then they are audited by replay together
    (``games_audit_stored``), in a few queries for the whole batch. The rounds the bot
    dealt and played just now are not replayed a second time: the audit compares the
    stored rows with what the finish played (the same ``bot_move``); the rounds stored
    before it are replayed. Safe to repeat: a finished game is only audited again."""
    finished = games_bot_finish_rounds(game_ids)
    return games_audit_stored([g.pk for g, _ in finished], {g.pk: f for g, f in finished})


def tournament_close_results(*, tournament_id: int) -> list[tuple[int, int]] | None:
    """The step of a close after every batch of games: a game some batch left unfinished
    (it failed) is finished and audited here; then the parts of the standings' rebuild
    (``standings_rebuild_parts``, each for ``standings_rebuild_part``, spread over the
    workers). ``None`` when the tournament is closed already."""
    t = Tournament.objects.get(pk=tournament_id)
    if t.closed_at is not None:
        return None
    left = Game.objects.filter(
        entry__tournament_id=tournament_id, status=Game.Status.PLAYING
    ).values_list("pk", flat=True)
    games_close(game_ids=list(left))
    # linked accounts in the field go under review before the final standings are written
    tournament_links_check(tournament=t)
    return standings_rebuild_parts(tournament=t)


def tournament_close_rebuild_part(*, tournament_id: int, first: int, last: int) -> int:
    """One part of a close's rebuild (``standings_rebuild_part``); nothing once closed
    (a task delivered again after the close)."""
    t = Tournament.objects.get(pk=tournament_id)
    if t.closed_at is not None:
        return 0
    return standings_rebuild_part(tournament=t, first=first, last=last, final_only=True)


def tournament_close_announce(*, tournament_id: int) -> Tournament:
    """The last step of a close, once every part of the rebuild is written: reveal the
    secret and announce the close (``closed_at``), so that no page shows the tournament
    closed with figures from before the close (until then it is still closing). Once
    closed, the results mail to the entrants is queued (``tasks.tournament_results_mail``),
    and the check of play that knows too much (``tasks.tournament_play_screen``).
    Idempotent: a closed tournament is left as it is."""
    t = Tournament.objects.get(pk=tournament_id)
    if t.closed_at is not None:
        return t
    standings_rebuilt(tournament=t)
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.closed_at is None:
            t.closed_at = timezone.now()
            t.save(update_fields=["closed_at", "updated_at"])
            # the results are final: mail the entrants (services.mail)
            jobs.task_on_commit("tournament_results_mail", t.pk)
            # The final standings count for the entrants' ratings (docs/rules.md, "Ratings").
            jobs.task_on_commit("ratings_update", t.pk)
            # play that knows too much: the screen, then the checks (services.playcheck)
            jobs.task_on_commit("tournament_play_screen", t.pk)
            # a live evening's pages learn of it at once (selectors.live)
            cache.delete(live_state_key(t.pk))
            transaction.on_commit(lambda: cache.delete(live_state_key(tournament_id)))
    return t


def tournament_close_finish(*, tournament_id: int) -> Tournament:
    """The end of a close in this process, once every game is finished and audited:
    ``tournament_close_results``, every part of the rebuild, ``tournament_close_announce``
    (the close task fans the rebuild's parts out over the workers instead). Idempotent."""
    parts = tournament_close_results(tournament_id=tournament_id)
    if parts is None:
        return Tournament.objects.get(pk=tournament_id)
    for first, last in parts:
        tournament_close_rebuild_part(tournament_id=tournament_id, first=first, last=last)
    return tournament_close_announce(tournament_id=tournament_id)


def tournament_close(*, tournament_id: int) -> Tournament:
    """Close a tournament in this process: end its window, let the bot play every
    unfinished game to the end in the entrant's seat (marked ``bot_finished``), audit
    every game by replay, then reveal the secret (``closed_at``) and write the standings.
    Idempotent. (The close task fans the games out over the workers instead.)"""
    batches = tournament_close_start(tournament_id=tournament_id)
    if batches is None:
        return Tournament.objects.get(pk=tournament_id)
    for batch in batches:
        games_close(game_ids=batch)
    return tournament_close_finish(tournament_id=tournament_id)


def tournament_close_if_due(*, tournament: Tournament) -> bool:
    """Queue the close of a tournament whose closing time has passed and that beat has not
    closed yet (a page view of it notices first). At most once a minute per tournament."""
    if tournament.closed_at is not None or tournament.closes_at > timezone.now():
        return False
    if close_running(tournament):
        return False
    if not cache.add(f"closing:{tournament.pk}:{tournament.commitment[:16]}", 1, 60):
        return False
    jobs.task_on_commit("tournament_close", tournament.pk)
    return True


def tournaments_due(*, now: datetime | None = None) -> list[int]:
    """Ids of the tournaments whose closing time has passed, that are not closed yet and
    whose close is not running (one close of a tournament at a time)."""
    now = now or timezone.now()
    due = Tournament.objects.filter(closed_at__isnull=True, closes_at__lte=now).order_by(
        "closes_at"
    )
    return [t.pk for t in due.only("pk", "commitment") if not close_running(t)]
