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
  screened entry's ``PlayCheck`` is pending.
"""

from __future__ import annotations

import time
from typing import Any

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
        PlayCheck.objects.filter(user_id__in=list(users), game=t.game, status=PlayCheck.Status.DONE)
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


def _round_checks(game: Game) -> list[fairplay.DecisionCheck]:
    """Every decision of the entrant's own in ``game``, checked against the deal."""
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    actions, _final, _problems = game_actions(game)
    checks: list[fairplay.DecisionCheck] = []
    for round_index, recorded in enumerate(actions):
        if not any(a.seat == fairplay.PLAYER and not a.by_bot for a in recorded):
            continue
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
    return checks


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
    """Check one screened entry (see the module text); ``None`` when it has no pending
    check. Idempotent: a check done is kept."""
    check = PlayCheck.objects.filter(entry_id=entry_id).first()
    if check is None:
        return None
    if check.status == PlayCheck.Status.DONE:
        return check
    started = time.process_time()
    game = (
        Game.objects.select_related("entry__tournament", "user").filter(entry_id=entry_id).first()
    )
    checks = _round_checks(game) if game is not None else []
    evidence = fairplay.evidence_of(checks)
    recent = (
        PlayCheck.objects.filter(
            user_id=check.user_id, game=check.game, status=PlayCheck.Status.DONE
        )
        .exclude(pk=check.pk)
        .order_by("-checked_at", "-pk")[: ACCOUNT_RECENT - 1]
    )
    account = fairplay.combined(
        [evidence, *(fairplay.Evidence.from_json(p.evidence) for p in recent)]
    )
    module = module_of(check.game)
    telling = [list(fairplay.describe_telling(module, c)) for c in checks if c.telling]
    check.status = PlayCheck.Status.DONE
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
    return check


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
