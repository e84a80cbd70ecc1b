"""Play that knows too much, checked after the close (docs/rules.md, "Fair play";
``engine.fairplay``; issue 33 item 2).

- ``tournament_play_screen``: the cheap screen, queued when a close is announced (it adds
  nothing to the close itself): it chooses the entries to check from what the close wrote
  (the final board, the per-deal rows, the flags), in a few queries whatever the field's
  size, and only among entries with a round of their own (a game the bot played from its
  start has no decision to check): every flagged entry (linked accounts), every entry of
  an account whose earlier checks came near the threshold (``WATCH``), and the
  ``LEADING`` leading entries. A pending ``PlayCheck`` each, and a task each.
- ``entry_play_check``: the deeper analysis of one entry (a Celery task each, over the
  workers): every decision of its own replayed and checked against the revealed deal
  (``engine.fairplay.round_checks``), the evidence combined with the account's recent
  checked entries of the game, and an entry over ``engine.fairplay.THRESHOLD`` (on its
  own or with the account's) flagged for the organizer's review with its telling
  decisions in words (``services.fairplay.entry_flag``). Until its check has run, a
  screened entry's ``PlayCheck`` is pending: the standings show the entry provisional.
- The deeper analysis has a budget (``settings.PLAY_CHECK_SECONDS``, 10 minutes): past
  ``play_check_deadline`` no check starts a round of its own; an entry it did not check
  in full is ``late`` (the rounds it did check count, and flag when they reach the
  threshold on their own), and ``play_checks_expire`` (beat, every minute) records every
  check still pending past it (its task lost, or not reached) as ``late`` too. A late
  entry keeps what the close's screen found (a linked entry stays under review).
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from engine import fairplay
from tournaments import jobs
from tournaments.games import module_of
from tournaments.models import (
    DealResult,
    Entry,
    EntryFlag,
    EntryResult,
    Game,
    PlayCheck,
    Tournament,
)
from tournaments.selectors.replay import game_actions
from tournaments.services import fairplay as fairplay_services
from tournaments.services.results import results_changed

#: The method's version: a check of another version is made again.
CHECK_VERSION = 1
#: How many of the leading entries of the final board are checked.
LEADING = 20
#: An account whose earlier checked entries came to this figure (on their own or
#: together) has every later entry checked.
WATCH = 1.5
#: How many of an account's checked entries of a game count together (the most recent).
ACCOUNT_RECENT = 20
#: The most telling decisions an entry's flag quotes in words.
QUOTED = 12
#: The checks whose evidence counts for the account's later checks: done, or late (the
#: rounds a late check did check are evidence as good as any).
CHECKED = (PlayCheck.Status.DONE, PlayCheck.Status.LATE)


def play_check_deadline(*, tournament: Tournament) -> datetime | None:
    """When the deeper check of a closed tournament's entries starts no more work
    (``settings.PLAY_CHECK_SECONDS`` after the close); ``None`` while it is open."""
    if tournament.closed_at is None:
        return None
    return tournament.closed_at + timedelta(seconds=settings.PLAY_CHECK_SECONDS)


def tournament_play_screen(*, tournament_id: int) -> list[int]:
    """Choose the entries of a closed tournament whose play is checked (see the module
    text), give each a pending ``PlayCheck`` and queue its check. Idempotent: an entry
    with a check of this version is not chosen again. The ids of the entries queued."""
    t = Tournament.objects.filter(pk=tournament_id, closed_at__isnull=False).first()
    if t is None:
        return []
    own = set(
        DealResult.objects.filter(tournament=t, by_bot=False)
        .values_list("entry_id", flat=True)
        .distinct()
    )
    if not own:
        return []
    reasons: dict[int, list[str]] = {}
    flagged = EntryFlag.objects.filter(entry__tournament=t).values_list("entry_id", flat=True)
    for entry_id in flagged:
        if entry_id in own:
            reasons.setdefault(entry_id, []).append("flagged")
    users = dict(Entry.objects.filter(tournament=t, pk__in=own).values_list("user_id", "pk"))
    watched = (
        PlayCheck.objects.filter(user_id__in=list(users), game=t.game, status__in=CHECKED)
        .exclude(entry__tournament=t)
        .filter(account_figure__gte=WATCH)
        .values_list("user_id", flat=True)
        .distinct()
    )
    for user_id in watched:
        reasons.setdefault(users[user_id], []).append("watched")
    board = (
        EntryResult.objects.filter(tournament=t, upto=t.rounds, unranked=False)
        .order_by("tier", "sort_result", "entry_id")
        .values_list("entry_id", flat=True)
    )
    leading = [e for e in board[: LEADING * 4] if e in own][:LEADING]
    for entry_id in leading:
        reasons.setdefault(entry_id, []).append("leading")
    done = set(
        PlayCheck.objects.filter(entry_id__in=list(reasons), version=CHECK_VERSION).values_list(
            "entry_id", flat=True
        )
    )
    chosen = sorted(set(reasons) - done)
    entry_users = dict(Entry.objects.filter(pk__in=chosen).values_list("pk", "user_id"))
    with transaction.atomic():
        PlayCheck.objects.filter(entry_id__in=chosen).delete()  # an older version's
        PlayCheck.objects.bulk_create(
            [
                PlayCheck(
                    entry_id=e,
                    user_id=entry_users[e],
                    game=t.game,
                    reasons=reasons[e],
                    version=CHECK_VERSION,
                )
                for e in chosen
            ]
        )
        for e in chosen:
            jobs.task_on_commit("entry_play_check", e)
    return chosen


def _round_checks(game: Game, *, until: datetime) -> tuple[list[fairplay.DecisionCheck], bool]:
    """Every decision of the entrant's own in ``game``, checked against the deal, round by
    round; no round is started at or after ``until``. The checks, and whether every round
    was checked."""
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    actions, _final, _problems = game_actions(game)
    checks: list[fairplay.DecisionCheck] = []
    for round_index, recorded in enumerate(actions):
        if not any(a.seat == fairplay.PLAYER and not a.by_bot for a in recorded):
            continue
        if timezone.now() >= until:
            return checks, False
        steps = [
            fairplay.Step(a.seat, module.action_from_json(a.action), a.by_bot) for a in recorded
        ]
        checks += fairplay.round_checks(
            module,
            variant,
            secret=game.deal_secret(round_index),
            round_index=round_index,
            steps=steps,
            bot_level=game.bot_level,
            version=game.bot_version,
        )
    return checks, True


def _reason(entry: fairplay.Evidence, account: fairplay.Evidence) -> tuple[str, str]:
    """The flag's reason in words, Dutch and English."""
    odds_nl, odds_en = _odds(max(entry.figure, account.figure))
    return (
        f"Spel dat te veel weet: {entry.telling} van de {entry.opportunities} keuzes waar"
        f" alleen kennis van de verborgen kaarten het beste wees, waar een eerlijke speler er"
        f" {entry.expected:.1f} maakt; een eerlijke speler doet dat met kans {odds_nl}.",
        f"Play that knows too much: {entry.telling} of the {entry.opportunities} choices where"
        f" only knowing the hidden cards showed the best, where an honest player makes"
        f" {entry.expected:.1f}; an honest player does this with a chance of {odds_en}.",
    )


def entry_play_check(*, entry_id: int) -> PlayCheck | None:
    """Check one screened entry (see the module text); ``None`` when it has no check.
    Idempotent: a check done (or late) is kept. Past ``play_check_deadline`` it starts no
    round: the check is ``late`` with the rounds it had checked."""
    check = PlayCheck.objects.select_related("entry__tournament").filter(entry_id=entry_id).first()
    if check is None:
        return None
    if check.status != PlayCheck.Status.PENDING:
        return check
    started = time.process_time()
    tournament = check.entry.tournament
    until = play_check_deadline(tournament=tournament) or timezone.now()
    game = (
        Game.objects.select_related("entry__tournament", "user").filter(entry_id=entry_id).first()
    )
    checks, complete = _round_checks(game, until=until) if game is not None else ([], True)
    evidence = fairplay.evidence_of(checks)
    recent = (
        PlayCheck.objects.filter(user_id=check.user_id, game=check.game, status__in=CHECKED)
        .exclude(pk=check.pk)
        .order_by("-checked_at", "-pk")[: ACCOUNT_RECENT - 1]
    )
    account = fairplay.combined(
        [evidence, *(fairplay.Evidence.from_json(p.evidence) for p in recent)]
    )
    module = module_of(check.game)
    telling = [list(fairplay.describe_telling(module, c)) for c in checks if c.telling]
    check.status = PlayCheck.Status.DONE if complete else PlayCheck.Status.LATE
    check.decisions = evidence.decisions
    check.opportunities = evidence.opportunities
    check.telling_count = evidence.telling
    check.expected = evidence.expected
    check.figure = round(evidence.figure, 3)
    check.account_figure = round(account.figure, 3)
    check.flagged = evidence.flagged or account.flagged
    check.evidence = evidence.to_json()
    check.telling = telling
    check.checked_at = timezone.now()
    check.seconds = round(time.process_time() - started, 3)
    with transaction.atomic():
        check.save()
        if check.flagged and game is not None and game.entry is not None:
            fairplay_services.entry_flag(
                entry=game.entry,
                kind=EntryFlag.Kind.PLAY,
                reason=_reason(evidence, account),
                evidence=_flag_evidence(check, evidence, account),
                key=f"play-v{CHECK_VERSION}",
            )
        # the entry is no longer provisional: the pages and downloads read it afresh
        results_changed(tournament=tournament)
    return check


def play_checks_expire(*, now: datetime | None = None) -> int:
    """Record every check still pending past its tournament's ``play_check_deadline``
    (its task lost, or the deeper check did not reach it in time) as ``late``, with
    nothing checked: the entry keeps what the close's screen found and is no longer
    provisional. Periodic (beat); the number of checks recorded."""
    now = now or timezone.now()
    closed_before = now - timedelta(seconds=settings.PLAY_CHECK_SECONDS)
    due = PlayCheck.objects.filter(
        status=PlayCheck.Status.PENDING, entry__tournament__closed_at__lte=closed_before
    )
    tournament_ids = set(due.values_list("entry__tournament_id", flat=True))
    if not tournament_ids:
        return 0
    with transaction.atomic():
        count = PlayCheck.objects.filter(
            pk__in=list(due.values_list("pk", flat=True)), status=PlayCheck.Status.PENDING
        ).update(
            status=PlayCheck.Status.LATE,
            evidence=fairplay.evidence_of([]).to_json(),
            checked_at=now,
            seconds=0.0,
        )
        for t in Tournament.objects.filter(pk__in=tournament_ids):
            results_changed(tournament=t)
    return count


def _odds(figure: float) -> tuple[str, str]:
    """ "1 op 12.345" / "1 in 12,345": the chance ``10 ** -figure`` as odds."""
    n = round(10 ** min(figure, 15.0))
    return f"1 op {n:,}".replace(",", "."), f"1 in {n:,}"


def _flag_evidence(
    check: PlayCheck, entry: fairplay.Evidence, account: fairplay.Evidence
) -> dict[str, Any]:
    """What the flag rests on (JSON): the figures, and in words (``words``, ``[nl, en]``
    pairs, as the review page shows them: ``presentation.fairplay``) how unlikely the
    entry's and the account's telling decisions are for an honest player, then the
    telling decisions (the first ``QUOTED``)."""
    entry_nl, entry_en = _odds(entry.figure)
    account_nl, account_en = _odds(account.figure)
    words = [
        [
            f"Deze inschrijving: {entry.telling} vertellende keuzes bij {entry.opportunities}"
            f" kansen (een eerlijke speler verwacht er {entry.expected:.1f}); zo veel of meer"
            f" heeft een eerlijke speler met kans {entry_nl}.",
            f"This entry: {entry.telling} telling choices at {entry.opportunities}"
            f" opportunities (an honest player expects {entry.expected:.1f}); an honest"
            f" player has as many or more with a chance of {entry_en}.",
        ],
        [
            f"Met de recente gecontroleerde inschrijvingen van dit account samen:"
            f" {account.telling} bij {account.opportunities} kansen (verwacht"
            f" {account.expected:.1f}); kans {account_nl}.",
            f"With this account's recent checked entries together: {account.telling} at"
            f" {account.opportunities} opportunities (expected {account.expected:.1f});"
            f" a chance of {account_en}.",
        ],
        *check.telling[:QUOTED],
    ]
    return {
        "figure": check.figure,
        "account_figure": check.account_figure,
        "threshold": fairplay.THRESHOLD,
        "counts": {
            "decisions": entry.decisions,
            "opportunities": entry.opportunities,
            "telling": entry.telling,
            "expected": round(entry.expected, 3),
            "account_opportunities": account.opportunities,
            "account_telling": account.telling,
            "account_expected": round(account.expected, 3),
        },
        "words": words,
    }
