"""Every game checked by replay: the stored rounds against what the engine and the bots
make of the secret and the entrant's own actions; a game that does not match is put
under review until an organizer resolves it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from common.rows import update_rows
from engine import record
from tournaments import jobs
from tournaments.errors import GameNotFinished, NothingToResolve
from tournaments.games import PlayedRound
from tournaments.models import (
    Entry,
    Game,
    Tournament,
)
from tournaments.selectors.replay import RoundRow, game_actions, game_record_of, round_rows
from tournaments.services.results import entry_results_update


@dataclass(frozen=True)
class GameAudit:
    """A finished game rebuilt from its secret and move log: what contradicts what is
    stored (empty: everything matches)."""

    game_id: int
    entry_id: int | None
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def audit_problems(
    g: Game, fresh: Mapping[int, PlayedRound] | None = None, rows: Sequence[RoundRow] | None = None
) -> list[str]:
    """Replay ``g`` through the engine from the entrant's stored actions
    (``engine.record.verify``) and compare: every stored round is there and replays with
    its number of moves, ``seq``, every round's scores, the totals, and the stored state
    with the replay's last one. The bots' actions and each round's end come from the
    replay itself (``_game_actions``), so ``verify`` neither chooses nor applies them
    again."""
    try:
        actions, final, problems = game_actions(g, fresh, rows)
        verification = record.verify(
            game_record_of(g, actions), check_bots=False, final_states=final
        )
    except (ValueError, KeyError, TypeError, AttributeError, IndexError) as exc:
        # Stored data the engine cannot even read (a variant, a secret): a finding too,
        # never a crash of the close that runs the audit.
        return [f"the game cannot be replayed: {exc!r}"]
    problems.extend(verification.all_problems())
    replayed_last = bool(verification.rounds) and verification.rounds[-1].ok
    last = [dict(a.action) for a in actions[-1]] if actions else []
    if replayed_last and json.loads(g.round_actions) != last:
        problems.append("the stored last round is not the replay's")
    return problems


def _audit_store(g: Game, problems: list[str]) -> GameAudit:
    """Keep the audit's finding on the game's entry (practice games have none)."""
    return _audits_store([(g, problems)])[0]


def _audits_store(found: Sequence[tuple[Game, list[str]]]) -> list[GameAudit]:
    """Keep each audit's finding on its game's entry (practice games have none), the
    entries locked and written in one statement each. A mismatch an organizer resolved
    stays resolved while the audit finds exactly the same."""
    audits = [GameAudit(game_id=g.pk, entry_id=g.entry_id, problems=p) for g, p in found]
    ids = [g.entry_id for g, _problems in found if g.entry_id is not None]
    if not ids:
        return audits
    now = timezone.now()
    with transaction.atomic():
        entries = Entry.objects.select_for_update().in_bulk(ids)
        review_changed = []
        for g, problems in found:
            if g.entry_id is None:
                continue
            entry = entries[g.entry_id]
            was_under_review = entry.under_review
            detail = "\n".join(problems)
            if not problems:
                entry.audit_status = Entry.AuditStatus.OK
                entry.audit_resolved_by = None
            elif entry.audit_status != Entry.AuditStatus.RESOLVED or entry.audit_detail != detail:
                entry.audit_status = Entry.AuditStatus.MISMATCH
                entry.audit_resolved_by = None
            entry.audit_detail = detail
            entry.audited_at = now
            if entry.under_review != was_under_review:
                review_changed.append(g)
        update_rows(
            Entry,
            list(entries.values()),
            ["audit_status", "audit_detail", "audited_at", "audit_resolved_by"],
        )
        for g in review_changed:
            entry_results_update(game=g)
            _ratings_follow(g.entry.tournament)  # type: ignore[union-attr]
    return audits


def _ratings_follow(t: Tournament) -> None:
    """A closed tournament's final standings changed (an entry's review): its game's
    ratings are applied again (docs/rules.md, "Ratings")."""
    if t.closed_at is not None:
        jobs.task_on_commit("ratings_recompute", t.game)


def game_audit_stored(game_id: int, fresh: Mapping[int, PlayedRound] | None = None) -> GameAudit:
    g = Game.objects.select_related("entry__tournament", "user").get(pk=game_id)
    if g.status != Game.Status.FINISHED:
        raise GameNotFinished.of(_("Only a finished game can be audited."))
    return _audit_store(g, audit_problems(g, fresh))


def games_audit_stored(
    game_ids: Sequence[int], fresh: Mapping[int, Mapping[int, PlayedRound]]
) -> list[GameAudit]:
    """``game_audit_stored`` of several finished games (the close's batch; ``fresh``: each
    game's rounds its bot finish played just now), read in two queries and their entries
    written in one (``_audits_store``). In the order of their ids."""
    games = list(
        Game.objects.select_related("entry__tournament", "user")
        .filter(pk__in=list(game_ids))
        .order_by("pk")
    )
    if any(g.status != Game.Status.FINISHED for g in games):
        raise GameNotFinished.of(_("Only a finished game can be audited."))
    rows = round_rows(game_ids=[g.pk for g in games])
    return _audits_store([(g, audit_problems(g, fresh.get(g.pk), rows[g.pk])) for g in games])


def game_audit(*, game_id: int) -> GameAudit:
    """Rebuild a finished game from its secret and move log through the engine and compare
    it with what is stored; keep the finding on its entry (a mismatch takes the entry out
    of the ranking until it is resolved). Raises ``GameNotFinished``."""
    return game_audit_stored(game_id)


def tournament_audit(*, tournament_id: int) -> list[GameAudit]:
    """``game_audit`` for every finished game of a tournament (the close runs it)."""
    game_ids = Game.objects.filter(
        entry__tournament_id=tournament_id, status=Game.Status.FINISHED
    ).order_by("pk")
    return [game_audit_stored(game_id) for game_id in game_ids.values_list("pk", flat=True)]


def games_audit(*, tournament_id: int | None = None) -> list[GameAudit]:
    """``game_audit`` for every finished game, practice games too, or a tournament's."""
    if tournament_id is not None:
        return tournament_audit(tournament_id=tournament_id)
    game_ids = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
    return [game_audit_stored(game_id) for game_id in game_ids.values_list("pk", flat=True)]


def entry_audit_resolve(*, entry_id: int, user: User) -> Entry:
    """An organizer accepts an entry the audit flagged (the stored scores stand): it is
    ranked again. Raises ``NothingToResolve`` when the entry is not under review."""
    with transaction.atomic():
        entry = Entry.objects.select_for_update().select_related("tournament").get(pk=entry_id)
        if entry.audit_status != Entry.AuditStatus.MISMATCH:
            raise NothingToResolve.of(_("This entry is not under review."))
        entry.audit_status = Entry.AuditStatus.RESOLVED
        entry.audit_resolved_by = user
        entry.save(update_fields=["audit_status", "audit_resolved_by"])
        entry_results_update(game=entry.game)
        _ratings_follow(entry.tournament)
    return entry
