"""Par: every deal of a tournament played by the tournament's bots in every seat, South's
too (docs/rules.md §7, tournaments 15), computed after the commit and kept per round; and
the bots playing a round out from a position, which the analysis shares."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Count, Q

from engine.match import bot_move
from tournaments import jobs
from tournaments.games import PLAYER_SEAT, ROUND_END_KEYS, module_of
from tournaments.models import ParRound, Tournament


def round_result(module: Any, scores: Sequence[int]) -> float:
    """Seat 0's duplicate result of one round (the game module's ``results``)."""
    return float(module.results([int(s) for s in scores])[0])


def round_outcome(state: Any) -> dict[str, Any]:
    """How a finished round went, as ``Game.round_results`` keeps it."""
    observation = state.observation(PLAYER_SEAT)
    result = observation.get("result")
    out = dict(result) if isinstance(result, Mapping) else {}
    out.update({k: observation[k] for k in ROUND_END_KEYS if k in observation})
    return out


def play_out(
    module: Any, state: Any, *, levels: Sequence[str], version: int
) -> tuple[Any, list[Any]]:
    """Play ``state`` to the round's end with a bot in every seat (``levels[seat]``, of
    bot version ``version``), each move as the site makes it (``engine.match.bot_move``):
    the terminal state and the actions made."""
    actions = []
    while not state.is_terminal:
        seat = state.current_player
        move = bot_move(module, state, level=levels[seat], version=version)
        actions.append((seat, move.action))
        state = move.state
    return state, actions


def par_key(t: Tournament) -> str:
    """What a tournament's par depends on: its deals (the commitment names the secret),
    its variant and its bot level."""
    body = json.dumps([t.commitment, t.variant, t.bot_level], sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


def par_round_play(
    t: Tournament, round_index: int, copy: int = 0
) -> tuple[Any, list[tuple[int, Any]]]:
    """Round ``round_index`` of ``t`` (its copy ``copy`` in a deal pool) played by the
    tournament's bot level and version in every seat, South's too: the terminal state and
    every action (seat, action)."""
    module = module_of(t.game)
    variant = module.variant_from_json(t.variant)
    state = module.new_round(variant, secret=t.copy_secret(copy), round_index=round_index)
    levels = [t.bot_level] * variant.num_players
    return play_out(module, state, levels=levels, version=t.bot_version)


def _par_row(t: Tournament, module: Any, key: str, r: int, copy: int) -> ParRound:
    """Par of round ``r``'s copy ``copy``, computed (not stored)."""
    state, _actions = par_round_play(t, r, copy)
    scores = [int(s) for s in state.scores()]
    return ParRound(
        tournament=t,
        round_index=r,
        copy=copy,
        key=key,
        bot_version=t.bot_version,
        scores=scores,
        result=round_result(module, scores),
        outcome=round_outcome(state),
    )


def tournament_par_compute(*, tournament_id: int) -> int:
    """Compute and store par for every round of a tournament (every copy of every round
    in a deal pool) that has none yet for its current deals, variant, bot level and bot
    version (idempotent: rows of other deals are replaced, a row that exists is kept; two
    runs at once insert each round once). Returns how many rounds were computed."""
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None:
        return 0
    module = module_of(t.game)
    key = par_key(t)
    stored = ParRound.objects.filter(tournament=t)
    current = stored.filter(key=key, bot_version=t.bot_version)
    have = set(current.values_list("round_index", "copy"))
    rows = [
        _par_row(t, module, key, r, c)
        for r in range(t.rounds)
        for c in range(t.pool_copies)
        if (r, c) not in have
    ]
    with transaction.atomic():
        stored.exclude(key=key, bot_version=t.bot_version).delete()
        stored.filter(Q(round_index__gte=t.rounds) | Q(copy__gte=t.pool_copies)).delete()
        ParRound.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def par_results(
    *, tournament: Tournament, needed: Iterable[tuple[int, int]]
) -> dict[tuple[int, int], float]:
    """Par's result of each (round, copy) of ``needed`` (a pooled tournament's results
    are measured against it: docs/rules.md §5, "Deal pools"): read, and one not computed
    yet (its task not run yet) computed and stored here, as the par task would."""
    t = tournament
    wanted = set(needed)
    if not wanted:
        return {}
    key = par_key(t)
    out = {
        (r, c): result
        for r, c, result in ParRound.objects.filter(
            tournament=t, key=key, bot_version=t.bot_version
        ).values_list("round_index", "copy", "result")
        if (r, c) in wanted
    }
    missing = sorted(wanted - set(out))
    if missing:
        module = module_of(t.game)
        rows = [_par_row(t, module, key, r, c) for r, c in missing]
        ParRound.objects.bulk_create(rows, ignore_conflicts=True)
        out.update({(p.round_index, p.copy): p.result for p in rows})
    return out


def tournaments_par_missing() -> list[int]:
    """The tournaments whose par is not complete for their current deals, variant, bot
    level and bot version, oldest first: those whose par task was never run (the broker
    out of reach when it was queued, a worker lost under it). Beat's
    ``tournaments_par_catch_up`` queues their par again (docs/rules.md §7, tournaments 15)."""
    have: dict[tuple[int, str, int], int] = {}
    for tournament_id, key, version, n in (
        ParRound.objects.order_by()
        .values("tournament_id", "key", "bot_version")
        .annotate(n=Count("id"))
        .values_list("tournament_id", "key", "bot_version", "n")
    ):
        have[(tournament_id, key, version)] = n
    missing = []
    for t in Tournament.objects.only(
        "pk", "commitment", "variant", "bot_level", "bot_version", "rounds", "pool_copies"
    ).order_by("pk"):
        if have.get((t.pk, par_key(t), t.bot_version), 0) < t.rounds * t.pool_copies:
            missing.append(t.pk)
    return missing


def par_queue(*, tournament: Tournament) -> None:
    """Queue the par computation for after the commit (Celery; inline when eager)."""
    jobs.task_on_commit("tournament_par_compute", tournament.pk)


def tournament_par(*, tournament: Tournament, copy: int = 0) -> dict[int, ParRound]:
    """The stored par of each round's copy ``copy`` (one query; 0: the only copy outside
    a deal pool); rounds not computed yet are missing. Callers show only the rounds the
    viewer may see (``results_visibility``)."""
    key = par_key(tournament)
    rows = ParRound.objects.filter(
        tournament=tournament, key=key, bot_version=tournament.bot_version, copy=copy
    )
    return {p.round_index: p for p in rows}


def tournament_pars(*, tournament: Tournament) -> dict[tuple[int, int], ParRound]:
    """The stored par of every (round, copy) (one query)."""
    key = par_key(tournament)
    rows = ParRound.objects.filter(
        tournament=tournament, key=key, bot_version=tournament.bot_version
    )
    return {(p.round_index, p.copy): p for p in rows}
