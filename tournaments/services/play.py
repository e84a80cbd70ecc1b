"""A player's move, an undo in practice, and the bot finishing a game (docs/api.md):
the game row locked, the action checked by the engine, the bots' replies, one
transaction each.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from common.auth import SessionClaim, claim_holds
from common.rows import columns_of, hot_cursor, instance_from_row
from engine.errors import IllegalMove
from tournaments.errors import (
    ClaimNotHeld,
    GameFinished,
    IllegalMoveError,
    LiveRoundNotOpen,
    NothingToUndo,
    PracticeOnly,
    StaleMove,
    TournamentClosed,
)
from tournaments.games import PLAYER_SEAT, PlayedRound, dealt_round, module_of
from tournaments.models import (
    Entry,
    Game,
    Tournament,
    WhatIf,
    compact_json,
)
from tournaments.services.runner import (
    game_run,
    run_advance,
    run_record,
    run_store,
    runs_store,
    seats_of_bots,
)


def _lock_for_play(tournament_id: int) -> Tournament:
    """The tournament's row, read under a share lock (``FOR SHARE``) held until the move's
    transaction ends.

    Moves share the lock, so they never wait for each other; the close and ``close now``
    take ``FOR UPDATE`` on the same row, which waits until every move holding the share
    lock has committed, and a move that asks after them waits until the close has
    committed and then reads its new ``closes_at``. So a move and a close are serialized
    on the tournament: a move is accepted only if the clock, read after its lock is
    granted, is before ``closes_at`` (and nothing closed the tournament), and no move
    commits once the close has started (docs/rules.md §7, tournaments 5). On SQLite every
    transaction holds the database's write lock from its start (``BEGIN IMMEDIATE``),
    which serializes them already.
    """
    if connection.vendor == "postgresql":
        table = connection.ops.quote_name(Tournament._meta.db_table)
        column = connection.ops.quote_name(Tournament._meta.pk.column or "id")
        query = f"SELECT * FROM {table} WHERE {column} = %s FOR SHARE"
        return Tournament.objects.raw(query, [tournament_id])[0]
    return Tournament.objects.select_for_update().get(pk=tournament_id)


#: The game, entry and tournament rows of a move, with their table aliases.
_MOVE_ROWS: tuple[tuple[str, type[Game] | type[Entry] | type[Tournament]], ...] = (
    ("g", Game),
    ("e", Entry),
    ("t", Tournament),
)


#: The same, and the user's row (for a session's claim).
_MOVE_ROWS_WITH_USER: tuple[
    tuple[str, type[Game] | type[Entry] | type[Tournament] | type[User]], ...
] = (
    *_MOVE_ROWS,
    ("u", User),
)


@functools.cache
def _move_read_sql(with_user: bool) -> str:
    """The one query that reads a tournament game for a move on PostgreSQL: its row, its
    entry's and its tournament's (every column, in field order), the game's row locked
    ``FOR UPDATE`` and the tournament's ``FOR SHARE`` (``_lock_for_play``) in the same
    statement; ``with_user``: the user's row after them (not locked), for a session's
    claim to be checked against (``common.auth.claim_holds``)."""
    qn = connection.ops.quote_name
    rows = _MOVE_ROWS_WITH_USER if with_user else _MOVE_ROWS
    columns = ", ".join(columns_of(model, alias) for alias, model in rows)
    game, entry, tournament = (qn(model._meta.db_table) for _, model in _MOVE_ROWS)
    user = (
        f" JOIN {qn(User._meta.db_table)} u ON u.{qn('id')} = g.{qn('user_id')}"
        if with_user
        else ""
    )
    return (
        f"SELECT {columns} FROM {game} g"
        f" JOIN {entry} e ON e.{qn('id')} = g.{qn('entry_id')}"
        f" JOIN {tournament} t ON t.{qn('id')} = e.{qn('tournament_id')}{user}"
        f" WHERE g.{qn('id')} = %s AND g.{qn('user_id')} = %s"
        " FOR UPDATE OF g FOR SHARE OF t"
    )


def _game_for_move(game_id: int, user: User | SessionClaim) -> Game:
    """The user's game for a move, its row locked until the move's transaction ends, and,
    for a tournament game, its entry and its tournament, the tournament's row under the
    share lock of ``_lock_for_play``. On PostgreSQL a tournament game takes one query (the
    clock is read after it returns, so after the share lock is granted); a practice game,
    and any game on another database, is read as before: the game (``Game.DoesNotExist``
    if it is not the user's), then the tournament's lock. With a session's claim the
    user's row comes with the game's (in the same query) and must hold the claim, else
    ``ClaimNotHeld``."""
    claim = user if isinstance(user, SessionClaim) else None
    user_id = user.user_id if isinstance(user, SessionClaim) else user.pk
    if connection.vendor == "postgresql":
        with hot_cursor() as cursor:
            cursor.execute(_move_read_sql(claim is not None), [game_id, user_id])
            row = cursor.fetchone()
        if row is not None:
            rows, start = [], 0
            for _alias, model in _MOVE_ROWS_WITH_USER if claim else _MOVE_ROWS:
                width = len(model._meta.concrete_fields)
                rows.append(instance_from_row(model, row[start : start + width]))
                start += width
            g, entry, tournament = rows[:3]
            if claim is not None:
                user = rows[3]
                if not claim_holds(claim, user):
                    raise ClaimNotHeld
            entry.tournament = tournament
            g.entry = entry
            g.user = user
            return g  # type: ignore[no-any-return]
        if claim is not None:
            raise ClaimNotHeld
    query = Game.objects.select_for_update(of=("self",)).select_related("entry__tournament")
    if isinstance(user, SessionClaim):
        try:
            g = query.select_related("user").get(pk=game_id, user_id=user_id)
        except Game.DoesNotExist:
            raise ClaimNotHeld from None
        if not claim_holds(user, g.user):
            raise ClaimNotHeld
    else:
        g = query.get(pk=game_id, user_id=user_id)
        g.user = user
    if g.entry is not None:
        g.entry.tournament = _lock_for_play(g.entry.tournament_id)
    return g


@dataclass(frozen=True)
class MoveOutcome:
    """A move's result: the game as stored and the events of the move and the bots.
    ``log_in_events``: the events' splices bring the player's public log up to date; it
    is false when a new round began with the player to move and no event after it (the
    player still holds the last round's log), and then the answer must carry the log."""

    game: Game
    events: list[dict[str, Any]]
    log_in_events: bool = True


def game_play_move(
    *, game_id: int, user: User | SessionClaim, seq: int, action: Mapping[str, Any]
) -> MoveOutcome:
    """Play the player's ``action`` in their game, then the bots until it is the player's
    turn again or the game is over. ``user``: the player, or a session's claim to be
    checked with the game's read (``_game_for_move``; the outcome's ``game.user`` is the
    user then).

    Raises ``ClaimNotHeld`` (a claim that the read could not check: nothing done),
    ``Game.DoesNotExist`` (not the user's game), ``StaleMove`` (``seq`` is not the
    current one: nothing stored), ``IllegalMoveError`` (the engine refused it, with its
    reason: nothing stored), ``GameFinished`` and ``TournamentClosed``.
    """
    try:
        with transaction.atomic():
            g = _game_for_move(game_id, user)
            if g.seq != seq:
                raise StaleMove.at(g.seq)
            if g.status == Game.Status.FINISHED:
                raise GameFinished.of(_("This game is over."))
            # The clock is read once the share lock is held (see _lock_for_play).
            if g.entry is not None:
                now = timezone.now()
                t = g.entry.tournament
                if not t.window_open(now):
                    raise TournamentClosed.of(_("This tournament is closed for play."))
                if not t.live_round_open(g.round_index, now):
                    # a live evening: each round in its slot only (docs/rules.md §7)
                    raise LiveRoundNotOpen.of(_("This round is not being played now."))
            module = module_of(g.game)
            variant = module.variant_from_json(g.variant)
            run = game_run(g, module, variant)
            state = run.state
            if state.current_player != PLAYER_SEAT:
                raise IllegalMoveError.of(_("It is not your turn."))
            try:
                act = module.action_from_json(action)
            except IllegalMove as exc:
                raise IllegalMoveError.from_engine(exc) from exc
            except (ValueError, KeyError, TypeError, AttributeError) as exc:
                err = IllegalMoveError.of(_("This move cannot be read."))
                err.code = "malformed_action"
                raise err from exc
            run.shown = state.observation(PLAYER_SEAT, log=False)
            run.log_shown = state.log_length
            try:
                run_record(run, act, seat=PLAYER_SEAT, by_bot=False)
            except IllegalMove as exc:
                raise IllegalMoveError.from_engine(exc) from exc
            run_advance(run, bot_seats=seats_of_bots(variant))
            run_store(run)
    except IntegrityError as exc:
        # A concurrent request stored the same seq first (databases without row locks).
        current = Game.objects.filter(pk=game_id).values_list("seq", flat=True).first()
        raise StaleMove.at(current or 0) from exc
    return MoveOutcome(game=g, events=run.events, log_in_events=not run.log_dropped)


def practice_check(game: Game) -> None:
    """``PracticeOnly`` unless ``game`` is a practice game (no entry: never a tournament's),
    where a hint and undo are allowed (docs/rules.md §7, tournaments 8)."""
    if game.entry_id is not None:
        raise PracticeOnly.of(_("Hints and undo are only for practice games, not in a tournament."))


def game_undo(*, game_id: int, user: User, seq: int) -> Game:
    """Take the player's practice game back to the position before their last own action
    of the current round, and the bots' actions that followed it: the round's stored
    actions are cut there (the deal and the actions before it give that very position, the
    bots being deterministic) and ``seq`` goes back by the actions taken away. The game's
    row is locked as for a move.

    Raises ``Game.DoesNotExist`` (not the user's game), ``PracticeOnly`` (a tournament's
    game), ``StaleMove`` (``seq`` is not the current one: nothing changed),
    ``GameFinished``, and ``NothingToUndo`` (no own action in the current round: undo
    never goes back across a round's end, nor before the position a "play from here" game
    started from)."""
    with transaction.atomic():
        g = _game_for_move(game_id, user)
        practice_check(g)
        if g.seq != seq:
            raise StaleMove.at(g.seq)
        if g.status == Game.Status.FINISHED:
            raise GameFinished.of(_("This game is over."))
        module = module_of(g.game)
        variant = module.variant_from_json(g.variant)
        actions = json.loads(g.round_actions)
        state = dealt_round(g.game, variant, g.deal_secret(g.round_index), g.round_index)
        last: int | None = None
        before = state
        for index, action in enumerate(actions):
            if state.current_player == PLAYER_SEAT:
                last, before = index, state
            state = state.apply(module.action_from_json(action))
        # A "play from here" game goes back no further than the position it started from.
        start = WhatIf.objects.filter(game_id=g.pk).values_list("start", flat=True).first()
        if last is None or last < (start or 0):
            raise NothingToUndo.of(_("You have made no move in this round to take back."))
        g.seq -= len(actions) - last
        g.round_actions = compact_json(actions[:last])
        g.save(update_fields=["seq", "round_actions", "updated_at"])
        g.keep_state(before)
    return g


def game_bot_finish(*, game_id: int) -> Game:
    """Play an unfinished game to its end with the bot in every seat, the player's too,
    and mark it ``bot_finished`` (docs/rules.md §4, platform). Part of the close, which writes
    the standings once at its end: the entry's results are not updated here."""
    return game_bot_finish_rounds(game_id)[0]


def game_bot_finish_rounds(game_id: int) -> tuple[Game, dict[int, PlayedRound]]:
    """``game_bot_finish``, and every action of each round it dealt and played to its end
    (``_Run.fresh``)."""
    finished = games_bot_finish_rounds([game_id])
    if not finished:
        raise Game.DoesNotExist(f"no game {game_id}")
    return finished[0]


def games_bot_finish_rounds(
    game_ids: Sequence[int], *, through_round: int | None = None
) -> list[tuple[Game, dict[int, PlayedRound]]]:
    """``game_bot_finish_rounds`` of several games (the close's batch), in one transaction:
    the games read and locked in one query, stored in one insert and one ``executemany``
    (``runs_store``). In the order of their ids; a finished game is left as it is.

    ``through_round`` (a live evening's slot close, docs/rules.md §7): the bot plays the
    entrant's seat only to the end of that round, in each game still in it; the next
    round is dealt and its bots play up to the entrant's first turn, and the game is not
    ``bot_finished`` (the entrant plays on in the next slot). A game already past that
    round is left as it is."""
    out: list[tuple[Game, dict[int, PlayedRound]]] = []
    with transaction.atomic():
        games = (
            Game.objects.select_for_update(of=("self",))
            .select_related("entry__tournament")
            .filter(pk__in=list(game_ids))
            .order_by("pk")
        )
        runs = []
        for g in games:
            if g.status == Game.Status.FINISHED or (
                through_round is not None and g.round_index > through_round
            ):
                out.append((g, {}))
                continue
            module = module_of(g.game)
            variant = module.variant_from_json(g.variant)
            run = game_run(g, module, variant, quiet=True)
            run_advance(
                run, bot_seats=frozenset(range(variant.num_players)), until_round=through_round
            )
            if through_round is None:
                g.bot_finished = True
            elif not g.is_finished:
                run_advance(run, bot_seats=seats_of_bots(variant))
            runs.append(run)
            out.append((g, run.fresh))
        runs_store(runs)
    return out
