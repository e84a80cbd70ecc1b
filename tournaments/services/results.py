"""The entries' results kept as they happen (``EntryResult`` per entry and visible round
count, ``DealResult`` per entry and deal): written at each round's end and rebuilt in
whole at the close.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import Min
from django.utils import timezone

from common.rows import copy_rows, database, hot_cursor, insert_rows
from engine.protocol import GameModule
from tournaments.games import module_of, result_sign
from tournaments.models import (
    MAX_ROUNDS,
    DealResult,
    Entry,
    EntryResult,
    Game,
    GameRound,
    Tournament,
)
from tournaments.selectors.standings import (
    Standing,
    Visibility,
    board_all,
    figures_of,
    new_results_stamp,
    result_key,
    results_stamp_key,
    tournament_parts,
)
from tournaments.services import par as par_services


@dataclass(frozen=True)
class EntryRounds:
    """One entry's finished rounds, what every leaderboard and per-deal table is cut from
    (kept in the cache): the scores of each finished round, and the rounds the bot played
    for the entrant: from the first round with a move of seat 0 ``by_bot`` (the bot took
    over at the close, ``game_bot_finish``) to the end."""

    entry_id: int
    user_id: int
    username: str
    game_id: int
    round_scores: tuple[tuple[int, ...], ...]
    bot_rounds: tuple[int, ...]
    finished: bool
    bot_finished: bool
    #: The replay audit contradicts the stored scores, or a fair-play flag awaits an
    #: organizer's decision: listed apart, not ranked.
    under_review: bool = False
    #: Disqualified (fair play): out of the standings, no row written.
    disqualified: bool = False
    #: In a deal pool (docs/rules.md §5, "Deal pools"): the copy of each finished round,
    #: and par's result of that copy, which the round's result is measured against
    #: (``_with_pool``); empty outside a pool.
    copies: tuple[int, ...] = ()
    pars: tuple[float, ...] = ()


def _with_pool(t: Tournament, field: Sequence[EntryRounds]) -> Sequence[EntryRounds]:
    """The entries' rounds with the copy of each and its par (``EntryRounds.copies``,
    ``pars``) in a pooled tournament; as they are outside a pool."""
    if "pool_copies" in t.get_deferred_fields() or not t.pooled:
        # (deferred: the backfill of migration 0012, from before deal pools)
        return field
    copies = {
        e.entry_id: tuple(
            t.copy_of(entry_id=e.entry_id, round_index=r) for r in range(len(e.round_scores))
        )
        for e in field
    }
    pars = par_services.par_results(
        tournament=t, needed={(r, c) for cs in copies.values() for r, c in enumerate(cs)}
    )
    return [
        dataclasses.replace(
            e,
            copies=copies[e.entry_id],
            pars=tuple(pars[(r, c)] for r, c in enumerate(copies[e.entry_id])),
        )
        for e in field
    ]


def _bot_takeover(game_ids: Sequence[int]) -> dict[int, int]:
    """Per bot-finished game, the first round in which the bot played the entrant's seat
    (it took over at the close, ``game_bot_finish``, and played every round after it). The
    one place that reads it from the stored rounds (``GameRound.bot_from``)."""
    if not game_ids:
        return {}
    first_rounds = (
        GameRound.objects.filter(game_id__in=game_ids, bot_from__isnull=False)
        .order_by()
        .values("game_id")
        .annotate(first=Min("round_index"))
        .values_list("game_id", "first")
    )
    return dict(first_rounds)


#: What ``_field_of`` reads of a game: its entry, user, name, id, round scores, status,
#: whether the bot finished it, its entry's audit status and fair-play state
#: (``_FIELD_COLUMNS``).
GameFacts = tuple[int, int, str, int, list[list[int]], str, bool, str, str]
_FIELD_COLUMNS = (
    "entry_id",
    "user_id",
    f"user__{User.USERNAME_FIELD}",
    "pk",
    "round_scores",
    "status",
    "bot_finished",
    "entry__audit_status",
    "entry__fair_play",
)


def _bot_rounds_each(game_ids: Sequence[int]) -> dict[int, set[int]]:
    """A live evening's games (docs/rules.md §7, "Live club evening"): per game the rounds
    in which the bot played the entrant's seat (at a slot's close, or at the close), each
    on its own: the entrant plays on in the next slot, and what they play counts."""
    out: dict[int, set[int]] = {}
    if not game_ids:
        return out
    rows = GameRound.objects.filter(game_id__in=game_ids, bot_from__isnull=False).values_list(
        "game_id", "round_index"
    )
    for game_id, round_index in rows:
        out.setdefault(game_id, set()).add(round_index)
    return out


def _field_of(facts: Sequence[GameFacts], *, live: bool = False) -> list[EntryRounds]:
    """The finished rounds of these tournament games, from what is read of each; ``live``:
    of a live evening (the bot's rounds each on its own, ``_bot_rounds_each``)."""
    taken_over = _bot_takeover([f[3] for f in facts if f[6]]) if not live else {}
    each = _bot_rounds_each([f[3] for f in facts]) if live else {}
    out = []
    for entry_id, user_id, username, game_id, scores, status, bot_finished, audit, fair in facts:
        played = len(scores)
        bot_rounds = (
            tuple(sorted(r for r in each.get(game_id, ()) if r < played))
            if live
            else tuple(range(taken_over.get(game_id, played), played))
        )
        out.append(
            EntryRounds(
                entry_id=entry_id,
                user_id=user_id,
                username=username,
                game_id=game_id,
                round_scores=tuple(tuple(int(s) for s in r) for r in scores),
                bot_rounds=bot_rounds,
                finished=status == Game.Status.FINISHED,
                bot_finished=bot_finished,
                under_review=audit == Entry.AuditStatus.MISMATCH
                or fair == Entry.FairPlay.UNDER_REVIEW,
                disqualified=fair == Entry.FairPlay.DISQUALIFIED,
            )
        )
    return out


def _entry_rounds(games: Sequence[Game], *, live: bool = False) -> list[EntryRounds]:
    """The finished rounds of these tournament games (``select_related("user", "entry")``);
    ``live``: of a live evening."""
    return _field_of(
        [
            (
                g.entry_id,  # type: ignore[misc]
                g.user_id,
                g.user.get_username(),
                g.pk,
                g.round_scores,
                g.status,
                g.bot_finished,
                g.entry.audit_status,  # type: ignore[union-attr]
                g.entry.fair_play,  # type: ignore[union-attr]
            )
            for g in games
        ],
        live=live,
    )


def _live(t: Tournament) -> bool:
    """A live evening (a backfill from before it, migration 0012, reads no such column)."""
    return "live" not in t.get_deferred_fields() and t.live


def _over(
    module: GameModule, e: EntryRounds, rounds: Sequence[int]
) -> tuple[int, float, float] | None:
    """The figures of an entry over some of its rounds (``None`` without any)."""
    if not rounds:
        return None
    totals = [sum(seat) for seat in zip(*(e.round_scores[r] for r in rounds), strict=True)]
    total, against, result = figures_of(module, totals)
    if e.pars:
        # a deal pool: the result against the copies' par (docs/rules.md §5)
        result = round(result - sum(e.pars[r] for r in rounds), 9)
    return total, against, result


def _result_of(figures: tuple[int, float, float] | None) -> float | None:
    return figures[2] if figures is not None else None


def _entry_row(
    t: Tournament, module: GameModule, parts: Sequence[range], e: EntryRounds, cap: int
) -> dict[str, Any]:
    """An entry's row on the board of a viewer who sees rounds ``0 .. cap - 1``, as the
    value of each column's attribute (``copy_rows`` takes it as it is). It is ranked on
    the rounds it played itself: complete in the view (no bot round, and every visible
    round played, or its game over) in tier 0, by result; else after them, more rounds of
    its own first, then by result; without any, unranked, listed last."""
    span = min(len(e.round_scores), cap)
    own = [r for r in range(span) if r not in e.bot_rounds]
    complete = len(own) == span and (span == cap or e.finished)
    f = _over(module, e, own)
    unranked = f is None or e.under_review
    return {
        "tournament_id": t.pk,
        "entry_id": e.entry_id,
        "upto": cap,
        "user_id": e.user_id,
        "game_id": e.game_id,
        "name": e.username,
        "name_key": e.username.lower(),
        "unranked": unranked,
        "tier": 0 if unranked or complete else MAX_ROUNDS + 1 - len(own),
        "sort_result": None if unranked or f is None else result_sign(module) * result_key(f[2]),
        "total": f[0] if f is not None else None,
        "opponents_average": f[1] if f is not None else None,
        "result": f[2] if f is not None else None,
        "rounds_played": len(e.round_scores),
        "rounds_counted": len(own) if f is not None else 0,
        "bot_rounds": [r for r in e.bot_rounds if r < cap],
        "parts": [_result_of(_over(module, e, [r for r in own if r in part])) for part in parts],
        "finished": e.finished,
        "bot_finished": e.bot_finished,
        "under_review": e.under_review,
    }


def _entry_result(
    t: Tournament, module: GameModule, parts: Sequence[range], e: EntryRounds, cap: int
) -> EntryResult:
    """``_entry_row`` as a model instance."""
    return EntryResult(**_entry_row(t, module, parts, e, cap))


def _deal_row(t: Tournament, module: GameModule, e: EntryRounds, r: int) -> dict[str, Any]:
    """An entry's row of round ``r`` (``DealResult``), as the value of each column's
    attribute."""
    score, against, result = figures_of(module, e.round_scores[r])
    if e.pars:
        result = round(result - e.pars[r], 9)
    by_bot = r in e.bot_rounds
    return {
        "tournament_id": t.pk,
        "entry_id": e.entry_id,
        "round_index": r,
        "copy": e.copies[r] if e.copies else 0,
        "user_id": e.user_id,
        "game_id": e.game_id,
        "name": e.username,
        "name_key": e.username.lower(),
        "score": score,
        "opponents_average": against,
        "result": result,
        # The bot's rows are unranked and listed after the others by name.
        "sort_result": 0.0 if by_bot else result_sign(module) * result_key(result),
        "by_bot": by_bot,
    }


_ENTRY_RESULT_FIELDS = [
    f.name
    for f in EntryResult._meta.concrete_fields
    if f.name not in {"id", "tournament", "entry", "upto"}
]


_DEAL_RESULT_FIELDS = [
    f.name
    for f in DealResult._meta.concrete_fields
    if f.name not in {"id", "tournament", "entry", "round_index"}
]


def _results_write(
    t: Tournament, games: Sequence[Game], *, last_deals: int | None = None, bulk: bool = False
) -> None:
    """Write the board rows (one per visible-rounds count) and the per-deal rows of these
    games' entries (an upsert: safe to repeat); with ``last_deals`` only the rows of each
    game's last ``last_deals`` rounds among the per-deal ones (a move that ended them: a
    deal's row does not change in play once written; the bot's takeover, the audit and
    the close's rebuild write them all, the last also a name changed in the admin).
    ``bulk``: many games at once (the rebuild), written with ``copy_rows``."""
    _field_write(t, _entry_rounds(games, live=_live(t)), last_deals=last_deals, bulk=bulk)


def _field_write(
    t: Tournament,
    field: Sequence[EntryRounds],
    *,
    last_deals: int | None,
    bulk: bool,
    final_only: bool = False,
) -> None:
    """``_results_write`` of the entries' rounds ``field``; ``final_only``: of the board
    rows only the final board's (``upto`` = every round: the close's, see
    ``standings_rebuild_part``)."""
    # A disqualified entry is out of the standings (docs/rules.md, "Fair play"): no row.
    field = [e for e in field if not e.disqualified]
    module = module_of(t.game)
    parts = tournament_parts(tournament=t)
    field = _with_pool(t, field)
    caps = [t.rounds] if final_only else range(t.rounds + 1)
    boards = [_entry_row(t, module, parts, e, cap) for e in field for cap in caps]
    if bulk:
        copy_rows(
            EntryResult, boards, unique_fields=["entry", "upto"], update_fields=_ENTRY_RESULT_FIELDS
        )
    else:
        insert_rows(
            EntryResult,
            [EntryResult(**row) for row in boards],
            unique_fields=["entry", "upto"],
            update_fields=_ENTRY_RESULT_FIELDS,
        )
    if not _deal_results_write(t, module, field, last_deals=last_deals, bulk=bulk):
        results_changed(tournament=t)


def _deal_results_write(
    t: Tournament,
    module: GameModule,
    field: Sequence[EntryRounds],
    *,
    last_deals: int | None,
    bulk: bool = False,
) -> bool:
    """Upsert the per-deal rows of these entries: every finished round's, or with
    ``last_deals`` each entry's last ``last_deals`` rounds' only (then
    ``results_changed``). Whether there were any."""
    deals = [
        _deal_row(t, module, e, r)
        for e in field
        for r in range(
            0 if last_deals is None else max(0, len(e.round_scores) - last_deals),
            len(e.round_scores),
        )
    ]
    if bulk:
        copy_rows(
            DealResult,
            deals,
            unique_fields=["entry", "round_index"],
            update_fields=_DEAL_RESULT_FIELDS,
        )
    else:
        insert_rows(
            DealResult,
            [DealResult(**row) for row in deals],
            unique_fields=["entry", "round_index"],
            update_fields=_DEAL_RESULT_FIELDS,
        )
    if not deals:
        return False
    results_changed(tournament=t)
    return True


def results_changed(*, tournament: Tournament) -> None:
    """A tournament's result rows changed: what is cached of its whole field (the per-deal
    figures, the board's ranks and count: ``selectors.standings.stamped``) is read under a
    new stamp from now on, and again once this transaction commits (a page read between
    the two may have cached the rows as they were before the commit under the first
    one). No delete: a figure cached under an old stamp is never read again. A closed
    tournament's figures are cached under its last change instead: it moves on
    (``standings_rebuilt``; a flag, a decision or a play check after the close)."""
    key = results_stamp_key(tournament)
    cache.set(key, new_results_stamp(), None)
    transaction.on_commit(lambda: cache.set(key, new_results_stamp(), None))
    if tournament.closed_at is not None:
        standings_rebuilt(tournament=tournament)


#: The columns of an entry's board row that depend on how many rounds its viewer sees
#: (``_entry_result``'s ``cap``); every other column is the entry's own, the same on each
#: of its rows.
_BY_UPTO_FIELDS = (
    "unranked",
    "tier",
    "sort_result",
    "total",
    "opponents_average",
    "result",
    "rounds_counted",
    "bot_rounds",
    "parts",
)


@functools.cache
def _round_end_sql() -> tuple[str, tuple[Any, ...], tuple[Any, ...]]:
    """The ``UPDATE`` of an entry's board rows at the end of its round ``r``
    (``_round_end_results``), and the fields of its parameters: the entry's own columns
    (``%(own_<column>)s``) set on every row; each column of ``_BY_UPTO_FIELDS`` kept on
    the rows of ``upto <= r``, set from ``%(ended_<column>)s`` on the row of
    ``upto = %(ended)s`` (``r + 1``) and from ``%(later_<column>)s`` on those above it;
    the entry is ``%(entry)s``."""
    qn = connection.ops.quote_name
    fields = {f.name: f for f in EntryResult._meta.concrete_fields}
    assert set(_BY_UPTO_FIELDS) <= set(_ENTRY_RESULT_FIELDS)
    own = tuple(fields[n] for n in _ENTRY_RESULT_FIELDS if n not in _BY_UPTO_FIELDS)
    by_upto = tuple(fields[n] for n in _BY_UPTO_FIELDS)
    upto = qn(str(fields["upto"].column))
    sets = [f"{qn(str(f.column))} = %(own_{f.column})s" for f in own]
    sets += [
        f"{qn(str(f.column))} = CASE WHEN {upto} = %(ended)s THEN %(ended_{f.column})s"
        f" WHEN {upto} > %(ended)s THEN %(later_{f.column})s ELSE {qn(str(f.column))} END"
        for f in by_upto
    ]
    entry = qn(str(fields["entry"].column))
    sql = f"UPDATE {qn(EntryResult._meta.db_table)} SET {', '.join(sets)} WHERE {entry} = %(entry)s"
    return sql, own, by_upto


def round_end_results(*, tournament: Tournament, game: Game, rounds_done: int) -> None:
    """Keep the results of a tournament game's entry at the end of a move that ended
    ``rounds_done`` of its rounds, writing only what changed: when one round ``r`` ended
    (the entry has ``r + 1`` rounds) in a game the bot did not finish (no bot round), one
    ``UPDATE`` of the entry's board rows and the upsert of the new deal's row.

    It writes what ``_results_write`` would, given the rows it wrote before the move (the
    round's end before, or the join): a board row with ``upto = cap`` shows the rounds
    ``0 .. min(r + 1, cap) - 1`` (``_entry_result``). For ``cap <= r`` those were all
    finished before and the row was complete then: its columns of ``_BY_UPTO_FIELDS``
    depend on those rounds and the entry's review and bot rounds only, which a move does
    not change (the audit rewrites the rows when the review changes; bot rounds come with
    the bot's finish), so they are kept. The row of ``cap = r + 1`` is built in full;
    those above it all show the same ``r + 1`` rounds, complete only if the game is over,
    so one of them (``cap = r + 2``) gives them all. The entry's own columns (the rounds
    played, finished, the name...) are set on every row. Two rows built instead of
    ``rounds + 1``. Any other case, or rows missing (the ``UPDATE`` did not find all
    ``rounds + 1``), writes them all with ``_results_write``."""
    t = tournament
    if rounds_done != 1 or game.bot_finished:
        _results_write(t, [game], last_deals=rounds_done)
        return
    (e,) = _with_pool(t, _entry_rounds([game], live=_live(t)))
    played = len(e.round_scores)
    if e.bot_rounds or not 0 < played <= t.rounds:
        _results_write(t, [game], last_deals=rounds_done)
        return
    module = module_of(t.game)
    parts = tournament_parts(tournament=t)
    ended = _entry_result(t, module, parts, e, played)
    # Without rows above the ended round's (its last round), the later values go nowhere.
    later = _entry_result(t, module, parts, e, played + 1) if played < t.rounds else ended
    sql, own, by_upto = _round_end_sql()
    db = database()
    params: dict[str, Any] = {"ended": played, "entry": e.entry_id}
    for f in own:
        params[f"own_{f.column}"] = f.get_db_prep_save(getattr(ended, f.attname), db)
    for f in by_upto:
        params[f"ended_{f.column}"] = f.get_db_prep_save(getattr(ended, f.attname), db)
        params[f"later_{f.column}"] = f.get_db_prep_save(getattr(later, f.attname), db)
    with hot_cursor() as cursor:
        cursor.execute(sql, params)
        updated = cursor.rowcount
    if updated != t.rounds + 1:
        _results_write(t, [game], last_deals=rounds_done)
        return
    _deal_results_write(t, module, [e], last_deals=rounds_done)


def entry_results_update(*, game: Game) -> None:
    """Keep a tournament game's entry's results as its rounds finish, its audit changes or
    the bot finishes it (practice games have none)."""
    if game.entry_id is None:
        return
    g = Game.objects.select_related("user", "entry__tournament").get(pk=game.pk)
    _results_write(g.entry.tournament, [g])  # type: ignore[union-attr]


def entry_results_remove(*, entry: Entry) -> None:
    """A disqualified entry's rows leave every board and per-deal table of its
    tournament (docs/rules.md, "Fair play"); its game stays, for the review."""
    EntryResult.objects.filter(entry=entry).delete()
    DealResult.objects.filter(entry=entry).delete()
    results_changed(tournament=entry.tournament)


def user_results_rename(*, user: User) -> int:
    """A renamed account's name on every leaderboard and per-deal row of its entries (the
    rows carry the name for the boards' order of equal results and the name search, and a
    round's end writes only its own rows). The number of rows changed."""
    name = user.get_username()
    entries = Entry.objects.filter(user=user).values("pk")
    changed = 0
    for model in (EntryResult, DealResult):
        changed += (
            model.objects.filter(entry__in=entries)
            .exclude(name=name)
            .update(name=name, name_key=name.lower())
        )
    return changed


#: Entries whose results ``standings_rebuild`` writes at once (one ``COPY`` and one
#: upsert per results table on PostgreSQL), and one task of the close's rebuild.
REBUILD_BATCH = 1000

#: ``standings_rebuild`` writes with ``common.rows.copy_rows`` (``False``: the upserts of
#: a round's end, ``insert_rows``; the rows are the same).
REBUILD_COPY = True


def standings_rebuild_parts(*, tournament: Tournament) -> list[tuple[int, int]]:
    """The entries of a tournament in parts of ``REBUILD_BATCH``, each as the range of its
    entry ids (first, last), for ``standings_rebuild_part``: the close's rebuild fanned
    out over the workers."""
    ids = list(
        Entry.objects.filter(tournament=tournament).order_by("pk").values_list("pk", flat=True)
    )
    return [
        (ids[i], ids[min(i + REBUILD_BATCH, len(ids)) - 1])
        for i in range(0, len(ids), REBUILD_BATCH)
    ]


def standings_rebuild_part(
    *, tournament: Tournament, first: int, last: int, final_only: bool = False
) -> int:
    """Write again the results of the tournament's entries with ids ``first .. last``
    from their games, in one batch (``standings_rebuild``'s). The number of entries.

    ``final_only`` (the close's rebuild): of the board rows only the final board's
    (``upto`` = every round), with every per-deal row. Once closed, every viewer sees
    every round (docs/rules.md §4): no page, export, API answer or rating reads a board
    of fewer visible rounds again, so the close leaves those as the window left them
    and writes 1 board row per entry instead of ``rounds + 1``."""
    facts: list[GameFacts] = list(
        Game.objects.filter(
            entry__tournament=tournament, entry_id__gte=first, entry_id__lte=last
        ).values_list(*_FIELD_COLUMNS)
    )
    if facts:
        _field_write(
            tournament,
            _field_of(facts, live=_live(tournament)),
            last_deals=None,
            bulk=REBUILD_COPY,
            final_only=final_only,
        )
    return len(facts)


def standings_rebuilt(*, tournament: Tournament) -> None:
    """Every part of a rebuild is written: a closed tournament's cached figures are keyed
    by its last change (``stamped``), so a new ``updated_at`` and the old figures are
    never read again."""
    tournament.updated_at = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(updated_at=tournament.updated_at)


def standings_rebuild(*, tournament: Tournament) -> int:
    """Write every entry's results of a tournament again from its games (the close does it
    once at the end, fanned out over the workers in ``standings_rebuild_part``s; also after
    games were changed outside the services): per part of ``REBUILD_BATCH`` entries one
    ``COPY`` and one upsert of each results table on PostgreSQL (``copy_rows``), the
    multi-row upserts elsewhere. The number of entries."""
    count = 0
    for first, last in standings_rebuild_parts(tournament=tournament):
        count += standings_rebuild_part(tournament=tournament, first=first, last=last)
    standings_rebuilt(tournament=tournament)
    return count


#: Tournament columns that migrations after 0012 add (``results_backfill`` leaves them out).
LATER_COLUMNS = (
    "club",
    "access",
    "invite_code",
    "pool_copies",
    "pool_by_size",
    "live",
    "live_slots",
    "live_slots_closed",
    "live_reminded_at",
)


def results_backfill() -> int:
    """Write the results of every tournament from before the results were kept per
    entry (entries, and no result row): the data migration 0012 runs it once. Returns how
    many tournaments it wrote."""
    missing = (
        Tournament.objects.filter(entries__isnull=False)
        .exclude(pk__in=EntryResult.objects.values("tournament_id"))
        .values_list("pk", flat=True)
        .distinct()
    )
    count = 0
    for pk in list(missing):
        # The columns added after 0012 (0016_clubs: the club, who may enter) are not in a
        # database that this migration brings forward: never read them here.
        tournament = Tournament.objects.defer(*LATER_COLUMNS).get(pk=pk)
        standings_rebuild(tournament=tournament)
        count += 1
    return count


def standings_refresh(*, tournament: Tournament) -> list[Standing]:
    """Write a tournament's results again from its games; the whole leaderboard."""
    standings_rebuild(tournament=tournament)
    return board_all(tournament, Visibility(rounds=tournament.rounds)).rows


def games_results_write(*, tournament: Tournament, game_ids: Sequence[int]) -> int:
    """Write the results of these games' entries again (every board and per-deal row of
    them): after a live evening's slot close, where the bot finished their round without
    a move's own write. The number of games."""
    games = list(
        Game.objects.select_related("user", "entry")
        .filter(entry__tournament=tournament, pk__in=list(game_ids))
        .order_by("pk")
    )
    if games:
        _results_write(tournament, games, bulk=len(games) > REBUILD_BATCH // 4)
    return len(games)
