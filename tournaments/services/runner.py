"""The game runner: a game advanced inside one transaction (``GameRun``): an action
applied through the engine and recorded with its event (``run_record``), the bots played
until the player is to move or the game is over (``run_advance``), the game stored
(``run_store``). Every way a game moves goes through it: a move, a new game, the close's
bot finish, a what-if game rebuilt from another game's position.

The game's rules are in ``engine``; this module never branches on a game's name.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import connection, transaction
from django.utils import timezone

from common.rows import database, hot_cursor, insert_rows
from engine import record
from engine.match import bot_move
from engine.protocol import GameModule
from tournaments.games import (
    PLAYER_SEAT,
    ROUND_END_KEYS,
    PlayedRound,
    bot_round,
    current_round,
    dealt_round,
    module_of,
)
from tournaments.models import (
    Entry,
    Game,
    GameRound,
    compact_json,
)
from tournaments.permissions import may_see_round_hands
from tournaments.presentation.delta import observation_delta
from tournaments.presentation.words import describe_action
from tournaments.services.results import round_end_results

logger = logging.getLogger(__name__)


@dataclass
class GameRun:
    """A game being advanced inside one transaction. ``actions``: every action of the
    current round (JSON), ``own``: the entrant's among them; ``bot_from``: how many of
    those came before the bot took over seat 0 in it (``None``: it has not); ``ended``:
    the rows of the rounds that ended, to insert, and ``last_actions`` every action of the
    last of them; ``shown``: the player's observation as the last event left it (each
    event carries only what changed since, ``observation_delta``), without the public log:
    ``log_shown`` is how many of the round's log entries the player has (``None``: no log
    yet, the game's first events) and ``log_dropped`` how many of the last round's they
    still hold once a new round is dealt (each event adds the new entries only)."""

    game: Game
    module: GameModule
    variant: Any
    state: Any
    actions: list[Any] = dataclasses.field(default_factory=list)
    own: list[Any] = dataclasses.field(default_factory=list)
    bot_from: int | None = None
    last_actions: list[Any] = dataclasses.field(default_factory=list)
    ended: list[GameRound] = dataclasses.field(default_factory=list)
    shown: dict[str, Any] = dataclasses.field(default_factory=dict)
    log_shown: int | None = None
    log_dropped: int = 0
    events: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    rounds_done: int = 0
    #: Nobody reads the events (the bot finishing a game at the close): the moves are
    #: recorded without their texts and observations, the entry's results are left to
    #: the close's one standings rebuild, and ``fresh`` keeps each round dealt and played
    #: to its end inside this run, every action with its seat (for the close's audit,
    #: which need not replay what it has just played).
    quiet: bool = False
    fresh: dict[int, PlayedRound] = dataclasses.field(default_factory=dict)
    #: The actions of the round being played, with their seats, while it is fresh
    #: (``None``: it was begun before this run).
    recorded: list[record.RecordedAction] | None = None
    #: Whether a round's end shows every hand (``None``: not asked yet, ``_hands_shown``).
    hands_shown: bool | None = None


def game_run(g: Game, module: GameModule, variant: Any, *, quiet: bool = False) -> GameRun:
    """The run of a stored game from where it is: its current round's state, actions and
    the entrant's among them (``current_round``); ``module`` and ``variant`` the game's.
    ``quiet``: the bot's finish (no events)."""
    state, actions, own = current_round(g, module, variant)
    return GameRun(
        game=g,
        module=module,
        variant=variant,
        state=state,
        actions=actions,
        own=own,
        quiet=quiet,
    )


def game_start(
    *,
    user: User,
    entry: Entry | None,
    game: str,
    preset: str,
    variant: Mapping[str, Any],
    rounds: int,
    bot_level: str,
    bot_version: int,
    secret: bytes | None,
) -> tuple[Game, list[dict[str, Any]]]:
    """A new game of ``entry`` (``None``: a practice game of its own ``secret``), its
    round 0 dealt (its copy's in a deal pool) and the bots before South played."""
    module = module_of(game)
    v = module.variant_from_json(variant)
    g = Game(
        user=user,
        entry=entry,
        game=game,
        preset=preset,
        variant=dict(variant),
        rounds=rounds,
        bot_level=bot_level,
        bot_version=bot_version,
        secret=secret,
        totals=[0] * v.num_players,
        round_scores=[],
        round_results=[],
    )
    g.save()
    state = dealt_round(game, v, g.deal_secret(0), 0)
    run = GameRun(game=g, module=module, variant=v, state=state)
    run_advance(run, bot_seats=seats_of_bots(v))
    run_store(run)
    return g, run.events


def seats_of_bots(variant: Any) -> frozenset[int]:
    return frozenset(range(1, variant.num_players))


def _observe(run: GameRun) -> dict[str, Any]:
    """The player's observation without the public log (``_log_delta`` sends its growth)."""
    observation: dict[str, Any] = run.state.observation(PLAYER_SEAT, log=False)
    return observation


def _log_delta(run: GameRun, delta: dict[str, Any]) -> None:
    """Add the growth of the round's public log since the last event to an event's
    ``delta``: a ``splice`` of the new entries at the log's end (replacing the last round's
    log at a new round's first event), or the whole log in ``set`` for a player who had
    none. Only the new entries are made into JSON (the log only grows within a round)."""
    if run.log_shown is None:
        log = run.state.log_json()
        if log:
            delta.setdefault("set", {})["log"] = log
            run.log_shown = len(log)
        return
    added = run.state.log_json(run.log_shown)
    if added or run.log_dropped:
        delta.setdefault("splice", {})["log"] = [run.log_shown, run.log_dropped, added]
        run.log_shown += len(added)
        run.log_dropped = 0


def run_record(
    run: GameRun, action: Any, *, seat: int, by_bot: bool, after: Any | None = None
) -> None:
    """Apply ``action`` through the engine (an ``IllegalMove`` leaves the run unchanged;
    ``after``: the state after it, already computed), then count it, keep it if it is the
    entrant's own, and add its event: the action, its text and what it changed in the
    player's observation (``set`` / ``extend``)."""
    g = run.game
    if after is None:
        after = run.state.apply(action)
    run.actions.append(action.to_json())
    if seat == PLAYER_SEAT and not by_bot:
        run.own.append(run.actions[-1])
    elif seat == PLAYER_SEAT and run.bot_from is None:
        run.bot_from = len(run.own)
    g.seq += 1
    run.state = after
    if run.quiet:
        if run.recorded is not None:
            run.recorded.append(record.RecordedAction(seat, run.actions[-1], by_bot))
        return
    nl, en = describe_action(action, seat, run.variant.num_players, module=run.module)
    observation = _observe(run)
    delta = observation_delta(run.shown, observation)
    _log_delta(run, delta)
    run.events.append(
        {
            "seat": seat,
            "action": run.actions[-1],
            "text_nl": nl,
            "text_en": en,
            **delta,
        }
    )
    run.shown = observation


def _end_round(run: GameRun) -> None:
    """Keep the round that just ended as its ``GameRound`` row (to insert) and start the
    next round's count."""
    g = run.game
    run.ended.append(
        GameRound(
            game=g,
            round_index=g.round_index,
            moves=len(run.actions),
            bot_from=run.bot_from,
            actions=compact_json(run.own),
        )
    )
    run.last_actions = run.actions
    run.actions = []
    run.own = []
    run.bot_from = None
    if run.recorded is not None:
        run.fresh[g.round_index] = PlayedRound(run.recorded, run.state)
        run.recorded = None


def run_advance(run: GameRun, *, bot_seats: frozenset[int], until_round: int | None = None) -> None:
    """Let the bots in ``bot_seats`` act until a seat outside it is to move or the game is
    over; at each round end record the scores and deal the next round. ``until_round``:
    stop once the round after it is dealt (a live evening's slot close: the bot plays
    that round in the entrant's seat, and no further)."""
    g = run.game
    while True:
        if run.state.is_terminal:
            scores = [int(s) for s in run.state.scores()]
            outcome = _round_outcome(run)
            g.round_scores = [*g.round_scores, scores]
            g.round_results = [*g.round_results, outcome]
            g.totals = [t + s for t, s in zip(g.totals, scores, strict=True)]
            run.rounds_done += 1
            _end_round(run)
            hands = [] if run.quiet else _revealed_hands(run.state, run.variant.num_players)
            run.events.append(
                {
                    "type": "round_over",
                    "round": g.round_index,
                    "scores": scores,
                    "hands": hands if hands and _hands_shown(run) else [],
                    "hand_counts": [len(cards) for cards in hands],
                    "result": outcome,
                }
            )
            if _game_over(run):
                _finish(g)
                return
            g.round_index += 1
            run.state = dealt_round(
                g.game, run.variant, g.deal_secret(g.round_index), g.round_index
            )
            if run.quiet:
                run.recorded = []
            elif run.log_shown is not None:
                # The player still holds the last round's log: the next event replaces it.
                run.log_dropped += run.log_shown
                run.log_shown = 0
            if until_round is not None and g.round_index > until_round:
                return
            continue
        seat = run.state.current_player
        if seat not in bot_seats:
            return
        if _bot_round_rest(run, bot_seats):
            continue
        move = bot_move(run.module, run.state, level=g.bot_level, version=g.bot_version)
        if move.refused is not None:
            _log_refused(g, seat, move.choice.to_json(), move.refused, run.state)
        run_record(run, move.action, seat=seat, by_bot=True, after=move.state)


def _log_refused(g: Game, seat: int, choice: Any, refused: Exception, state: Any) -> None:
    """A bot bug must not cost the entrant a 500 nor stop a close: log the position; the
    bot made its simplest legal action instead (the replay makes the same)."""
    logger.error(
        "engine refused a bot action: game %s round %s seat %s level %s version %s "
        "action %s (%s: %s); state %s",
        g.pk,
        g.round_index,
        seat,
        g.bot_level,
        g.bot_version,
        json.dumps(choice),
        type(refused).__name__,
        refused,
        json.dumps(state.to_json(), separators=(",", ":")),
    )


def _bot_round_rest(run: GameRun, bot_seats: frozenset[int]) -> bool:
    """The bot's finish (``quiet``, a bot in every seat) of a round whose actions so far
    are the bots' own from its deal: the rest of the round as ``bot_round`` played it
    (the same ``bot_move`` from the same states), recorded as ``run_record`` would, the
    round fresh from its deal for the close's audit (the entrant's seat-0 actions before
    the bot took over stay theirs). False, nothing changed, when the round went another
    way (the entrant played otherwise) or the run is not such a finish."""
    if not run.quiet or len(bot_seats) < run.variant.num_players:
        return False
    g = run.game
    played = bot_round(
        g.game,
        run.variant,
        g.deal_secret(g.round_index),
        g.round_index,
        g.bot_level,
        g.bot_version,
    )
    done = len(run.actions)
    if list(played.actions[:done]) != run.actions:
        return False
    if run.recorded is None:
        run.recorded = [
            record.RecordedAction(seat, action, seat != PLAYER_SEAT)
            for seat, action in zip(played.seats[:done], run.actions, strict=True)
        ]
    for at, choice, refused, state in played.refused:
        if at >= done:
            _log_refused(g, played.seats[at], choice, refused, state)
    for seat, action in zip(played.seats[done:], played.actions[done:], strict=True):
        run.actions.append(action)
        if seat == PLAYER_SEAT and run.bot_from is None:
            run.bot_from = len(run.own)
        run.recorded.append(record.RecordedAction(seat, action, True))
    g.seq += len(played.actions) - done
    run.state = played.final_state
    return True


def _round_outcome(run: GameRun) -> dict[str, Any]:
    """How the finished round went, as the player's seat sees it, in one flat object: the
    fields of the observation's ``result`` where it has one (Klaverjas: ``playing_team``,
    ``points``, ``roem``, ``pit_team``, ``nat``, ``scores``), plus those of
    ``ROUND_END_KEYS`` it has (Jokeren: ``winner``, ``end_reason``)."""
    observation = _observe(run)
    result = observation.get("result")
    outcome = dict(result) if isinstance(result, Mapping) else {}
    outcome.update({key: observation[key] for key in ROUND_END_KEYS if key in observation})
    return outcome


def _game_over(run: GameRun) -> bool:
    """All rounds played, or the game module's own end (``game_over``, e.g. a points
    limit) where the module has one."""
    g = run.game
    return record.game_is_over(
        run.module, run.variant, rounds=g.rounds, round_scores=g.round_scores
    )


def _hands_shown(run: GameRun) -> bool:
    """Whether a round's end shows every seat's remaining cards in this game
    (``permissions.may_see_round_hands``), asked once per run."""
    if run.hands_shown is None:
        run.hands_shown = may_see_round_hands(game=run.game, round_index=run.game.round_index)
    return run.hands_shown


def _revealed_hands(state: Any, num_players: int) -> list[Any]:
    """Each seat's remaining cards at the end of a round (what the round's scoring shows)."""
    return [state.observation(seat, log=False).get("hand", []) for seat in range(num_players)]


def _finish(g: Game) -> None:
    g.status = Game.Status.FINISHED
    g.finished_at = timezone.now()


#: The columns of a game that playing it changes: ``_store`` writes only these.
_RUN_FIELDS = (
    "seq",
    "round_actions",
    "updated_at",
    "round_index",
    "totals",
    "round_scores",
    "round_results",
    "status",
    "bot_finished",
    "finished_at",
)


#: Those a turn changes when no round ends in it (the others change at a round's end, at
#: the game's, and in the bot's finish): a move within a round writes only these.
_TURN_FIELDS = _RUN_FIELDS[:3]


@functools.cache
def _run_update_sql(names: tuple[str, ...]) -> tuple[str, tuple[Any, ...]]:
    """``UPDATE`` of the game's columns ``names`` (written once: what
    ``save(update_fields=names)`` sends, without building the query on every move) and
    those fields."""
    qn = connection.ops.quote_name
    fields = tuple(f for f in Game._meta.concrete_fields if f.name in names)
    assert len(fields) == len(names), "a name in names is not a column of Game"
    assignments = ", ".join(f"{qn(str(f.column))} = %s" for f in fields)
    return f"UPDATE {qn(Game._meta.db_table)} SET {assignments} WHERE {qn('id')} = %s", fields


def _run_row(run: GameRun, fields: Sequence[Any]) -> list[Any]:
    """The game's row as the run leaves it: the parameters of ``_run_update_sql``'s
    ``UPDATE`` of ``fields``."""
    g = run.game
    # A game over keeps its last round's actions: its final state (the table shows it).
    over = g.status == Game.Status.FINISHED and not run.actions
    g.round_actions = compact_json(run.last_actions if over else run.actions)
    g.keep_state(run.state)
    g.updated_at = timezone.now()
    db = database()
    return [*(f.get_db_prep_save(getattr(g, f.attname), db) for f in fields), g.pk]


def run_store(run: GameRun) -> None:
    g = run.game
    sql, fields = _run_update_sql(_RUN_FIELDS if run.rounds_done or run.quiet else _TURN_FIELDS)
    row = _run_row(run, fields)
    insert_rows(GameRound, run.ended)
    with hot_cursor() as cursor:
        cursor.execute(sql, row)
    if run.rounds_done and g.entry_id is not None and not run.quiet:
        tournament = g.entry.tournament  # type: ignore[union-attr]
        round_end_results(tournament=tournament, game=g, rounds_done=run.rounds_done)


def runs_store(runs: Sequence[GameRun]) -> None:
    """``run_store`` of several bot finishes (``quiet`` runs: the close's batch of games):
    the rounds of them all in one insert, the games' rows in one ``executemany``."""
    if not all(run.quiet for run in runs):
        raise ValueError("runs_store stores the close's quiet runs only")
    sql, fields = _run_update_sql(_RUN_FIELDS)
    rows = [_run_row(run, fields) for run in runs]
    insert_rows(GameRound, [row for run in runs for row in run.ended])
    if rows:
        with database().cursor() as cursor:
            cursor.executemany(sql, rows)


def game_finish(*, game: Game) -> Game:
    """Mark a game whose last round is over as finished (idempotent)."""
    with transaction.atomic():
        g = Game.objects.select_for_update().get(pk=game.pk)
        if g.status != Game.Status.FINISHED and len(g.round_scores) >= g.rounds:
            _finish(g)
            g.save(update_fields=["status", "finished_at", "updated_at"])
    game.refresh_from_db()
    return game
