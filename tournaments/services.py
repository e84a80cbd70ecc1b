"""The use cases of the site. Every write goes through here, inside a transaction.

The game's rules are in ``engine``; this module never branches on a game's name except
to pick its module with ``engine.registry.game_module``. Seat 0 (South) is the player;
the other seats are bots (``module.bot_action`` at the tournament's bot level).
"""

from __future__ import annotations

import dataclasses
import functools
import hmac
import json
import logging
import sys
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import Avg, Count, Min, Q
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from engine import dealing, record
from engine.errors import IllegalMove
from engine.match import bot_move
from engine.protocol import GameModule
from engine.registry import GAMES, game_module
from jokeren.auth import SessionClaim, claim_holds
from jokeren.rows import columns_of, database, hot_cursor, insert_rows, instance_from_row
from tournaments.models import (
    DATES_FROM,
    DATES_UNTIL,
    MAX_ENTRANTS,
    MAX_ROUNDS,
    DealResult,
    Entry,
    EntryResult,
    Game,
    GameRound,
    Tournament,
    WhatIf,
    compact_json,
)

logger = logging.getLogger(__name__)

PLAYER_SEAT = 0

# --- Errors --------------------------------------------------------------------------


class ServiceError(Exception):
    """A use case that cannot be carried out; the reason in Dutch and English."""

    status = 400
    code = "error"

    def __init__(self, nl: str, en: str, *, code: str | None = None) -> None:
        super().__init__(en)
        self.nl = nl
        self.en = en
        if code is not None:
            self.code = code

    @classmethod
    def of(cls, message: Any, **params: Any) -> ServiceError:
        """The error with ``message`` (a lazy gettext string) in both languages."""
        with translation.override("nl"):
            nl = str(message) % params if params else str(message)
        with translation.override("en"):
            en = str(message) % params if params else str(message)
        return cls(nl, en)

    def message(self, language: str | None = None) -> str:
        lang = language or translation.get_language() or "nl"
        return self.en if lang.startswith("en") else self.nl

    def to_json(self, language: str | None = None) -> dict[str, str]:
        return {"code": self.code, "nl": self.nl, "en": self.en, "message": self.message(language)}


class InvalidSettings(ServiceError):
    code = "invalid_settings"


class TournamentNotOpen(ServiceError):
    code = "tournament_not_open"


class TournamentFull(ServiceError):
    code = "tournament_full"


class AlreadyEntered(ServiceError):
    code = "already_entered"


class TournamentLocked(ServiceError):
    """The game settings cannot change once someone has entered."""

    code = "tournament_locked"


class TournamentClosed(ServiceError):
    code = "tournament_closed"


class GameFinished(ServiceError):
    code = "game_finished"


class GameNotFinished(ServiceError):
    code = "game_not_finished"


class NothingToResolve(ServiceError):
    code = "nothing_to_resolve"


class IllegalMoveError(ServiceError):
    """The engine refused the action (``engine.errors.IllegalMove``)."""

    code = "illegal_move"

    @classmethod
    def from_engine(cls, exc: IllegalMove) -> IllegalMoveError:
        return cls(exc.nl, exc.en, code=exc.code)


class PracticeOnly(ServiceError):
    """Hints and undo are for practice games only, never in a tournament's game."""

    status = 403
    code = "practice_only"


class NothingToUndo(ServiceError):
    code = "nothing_to_undo"


class StaleMove(ServiceError):
    """The move quotes a ``seq`` that is not the game's current one (stale or repeated)."""

    status = 409
    code = "stale_move"

    def __init__(self, nl: str, en: str, *, code: str | None = None, seq: int = 0) -> None:
        super().__init__(nl, en, code=code)
        self.seq = seq

    @classmethod
    def at(cls, seq: int) -> StaleMove:
        base = ServiceError.of(
            _("This move is out of date: the game has moved on. Reload to continue.")
        )
        return cls(base.nl, base.en, seq=seq)


# --- Helpers -------------------------------------------------------------------------


def module_of(game: str) -> GameModule:
    """The engine module of a game name (raises ``InvalidSettings`` for an unknown one)."""
    if game not in GAMES:
        raise InvalidSettings.of(_("Unknown game: %(game)s."), game=game)
    return game_module(game)


@functools.lru_cache(maxsize=512)
def dealt_round(game: str, variant: Any, secret: bytes, round_index: int) -> Any:
    """The dealt state of a round of ``game`` (its module's ``new_round``), kept: the
    engine's states are immutable (frozen, ``apply`` returns a new one) and a duplicate
    tournament deals the same rounds to every entrant, so a process deals each round of a
    tournament once instead of on every move (the shuffle and the deal were about 3 % of
    a move's CPU)."""
    return module_of(game).new_round(variant, secret=secret, round_index=round_index)


def available_games() -> dict[str, GameModule]:
    """The game modules that import (a game whose engine is not installed is left out)."""
    out: dict[str, GameModule] = {}
    for name in GAMES:
        try:
            out[name] = game_module(name)
        except ImportError:
            continue
    return out


def _variant_for(
    module: GameModule, preset: str, variant: Mapping[str, Any] | None, rounds: int
) -> dict[str, Any]:
    """The variant's JSON, checked by the engine, with ``rounds`` set to the game's rounds."""
    if preset not in module.PRESETS:
        raise InvalidSettings.of(_("Unknown variant: %(preset)s."), preset=preset)
    data = dict(variant) if variant is not None else module.PRESETS[preset].to_json()
    if "rounds" in data:
        data["rounds"] = rounds
    try:
        return dict(module.variant_from_json(data).to_json())
    except (ValueError, KeyError, TypeError, ArithmeticError) as exc:
        # ArithmeticError: a number the engine cannot take as a whole one (inf).
        raise InvalidSettings.of(_("Invalid variant settings: %(reason)s"), reason=exc) from exc


def _check_rounds(rounds: int) -> None:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidSettings.of(
            _("The number of rounds must be between 1 and %(max)s."), max=MAX_ROUNDS
        )


def _check_bot_level(module: GameModule, bot_level: str) -> None:
    if bot_level not in module.BOT_LEVELS:
        raise InvalidSettings.of(_("Unknown bot level: %(level)s."), level=bot_level)


def check_moment(value: datetime) -> None:
    """An opening or closing time lies in [DATES_FROM, DATES_UNTIL] (the database's
    ``tournament_dates_in_range``)."""
    if not DATES_FROM <= value <= DATES_UNTIL:
        raise InvalidSettings.of(
            _("Dates must lie between the years %(first)s and %(last)s."),
            first=DATES_FROM.year,
            last=DATES_UNTIL.year,
        )


def _check_window(opens_at: datetime, closes_at: datetime) -> None:
    check_moment(opens_at)
    check_moment(closes_at)
    if closes_at <= opens_at:
        raise InvalidSettings.of(_("The closing time must be after the opening time."))


def _check_max_entrants(max_entrants: int, *, entrants: int = 0) -> None:
    """1 to ``MAX_ENTRANTS``, and not below the entrants already in."""
    if isinstance(max_entrants, bool) or not isinstance(max_entrants, int):
        raise InvalidSettings.of(_("The maximum of entrants must be a whole number."))
    if max_entrants > MAX_ENTRANTS:
        raise InvalidSettings.of(
            _("A tournament takes at most %(max)s entrants."), max=MAX_ENTRANTS
        )
    if max_entrants < 1:
        raise InvalidSettings.of(_("A tournament needs room for at least one entrant."))
    if max_entrants < entrants:
        raise InvalidSettings.of(
            _("The maximum cannot be below the %(count)s entrants already in."),
            count=entrants,
        )


@dataclass(frozen=True)
class GameSettings:
    """A tournament's (or a series's) game settings once checked: the game module, the
    bots' level (the game's default unless chosen) and the full variant JSON."""

    module: GameModule
    bot_level: str
    variant: dict[str, Any]


def game_settings_check(
    *,
    game: str,
    preset: str,
    variant: Mapping[str, Any] | None,
    rounds: int,
    max_entrants: int,
    bot_level: str | None,
) -> GameSettings:
    """Check the settings a tournament and a series share (rounds, bot level, maximum of
    entrants, the variant); raises ``InvalidSettings``."""
    module = module_of(game)
    _check_rounds(rounds)
    level = bot_level if bot_level is not None else module.DEFAULT_BOT_LEVEL
    _check_bot_level(module, level)
    _check_max_entrants(max_entrants)
    return GameSettings(module, level, _variant_for(module, preset, variant, rounds))


# --- Tournaments ------------------------------------------------------------------------


def tournament_create(
    *,
    created_by: User,
    name: str,
    game: str,
    preset: str,
    variant: Mapping[str, Any] | None = None,
    rounds: int = 8,
    max_entrants: int = 10,
    bot_level: str | None = None,
    opens_at: datetime,
    closes_at: datetime,
    hide_results: bool = False,
    admits_bots: bool = True,
    series: Any = None,
) -> Tournament:
    """A new tournament with a fresh 32-byte secret and its commitment (docs/rules.md §5); its
    par is computed after the commit (``analysis.tournament_par_compute``). ``series``:
    the series it is an edition of (``tournaments.series``)."""
    from tournaments import analysis

    checked = game_settings_check(
        game=game,
        preset=preset,
        variant=variant,
        rounds=rounds,
        max_entrants=max_entrants,
        bot_level=bot_level,
    )
    _check_window(opens_at, closes_at)
    secret = dealing.new_secret()
    with transaction.atomic():
        t = Tournament.objects.create(
            name=name,
            game=game,
            preset=preset,
            variant=checked.variant,
            rounds=rounds,
            max_entrants=max_entrants,
            bot_level=checked.bot_level,
            bot_version=checked.module.BOT_VERSION,
            opens_at=opens_at,
            closes_at=closes_at,
            secret=secret,
            commitment=dealing.commitment(secret),
            created_by=created_by,
            hide_results=hide_results,
            admits_bots=admits_bots,
            series=series,
        )
        analysis.par_queue(tournament=t)
    return t


_GAME_FIELDS = ("game", "preset", "variant", "rounds", "bot_level")


def tournament_update(*, tournament: Tournament, **changes: Any) -> Tournament:
    """Change a tournament's settings. Name, window and maximum can change until it closes;
    the game, variant, rounds and bot level only while nobody has entered (every entrant
    must play the same game). The secret never changes."""
    from tournaments import analysis

    allowed = {
        "name",
        "max_entrants",
        "opens_at",
        "closes_at",
        "hide_results",
        "admits_bots",
        *_GAME_FIELDS,
    }
    unknown = set(changes) - allowed
    if unknown:
        raise TypeError(f"cannot change {sorted(unknown)}")
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.closed_at is not None:
            raise TournamentClosed.of(_("This tournament is closed."))
        entrants = t.entries.count()
        game_changes = {
            k: v for k, v in changes.items() if k in _GAME_FIELDS and v != getattr(t, k)
        }
        if game_changes and entrants:
            raise TournamentLocked.of(
                _("The game settings cannot change once someone has entered.")
            )
        for key, value in changes.items():
            setattr(t, key, value)
        module = module_of(t.game)
        _check_rounds(t.rounds)
        _check_bot_level(module, t.bot_level)
        _check_window(t.opens_at, t.closes_at)
        _check_max_entrants(t.max_entrants, entrants=entrants)
        t.variant = _variant_for(module, t.preset, t.variant, t.rounds)
        if game_changes:
            # nobody has played yet: the new settings get the game's current bots
            t.bot_version = module.BOT_VERSION
        t.save()
        if game_changes:
            analysis.par_queue(tournament=t)
    tournament.refresh_from_db()
    return tournament


def tournament_close_early(*, tournament: Tournament) -> Tournament:
    """End the window now (no more joins or moves) and queue the close."""
    from tournaments import tasks

    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.closed_at is not None:
            raise TournamentClosed.of(_("This tournament is closed."))
        _end_window(t)
        # celery-types types a shared_task as a plain Task; Celery's Django fixup makes it a
        # DjangoTask at run time, which has delay_on_commit.
        tasks.tournament_close.delay_on_commit(t.pk)  # type: ignore[attr-defined]
    tournament.refresh_from_db()
    return tournament


def _end_window(t: Tournament) -> None:
    now = timezone.now()
    if t.closes_at > now:
        t.closes_at = now
        if t.opens_at >= now:
            t.opens_at = now - timedelta(microseconds=1)
        t.save(update_fields=["opens_at", "closes_at", "updated_at"])


#: Games per task of the close's fan-out (``tasks.tournament_close``).
CLOSE_BATCH = 10
#: A close that started this long ago without finishing may be started again.
CLOSE_RETRY_SECONDS = 600


def tournament_close_start(*, tournament_id: int, claim: bool = False) -> list[list[int]] | None:
    """The first step of a close: end the window (no move commits after it, see
    ``_lock_for_play``) and return the ids of the tournament's games in batches of
    ``CLOSE_BATCH``, each for ``games_close``; ``None`` when it is closed already, or with
    ``claim`` when another close of it started less than ``CLOSE_RETRY_SECONDS`` ago (a
    redelivered or repeated close task)."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.closed_at is not None:
            return None
        _end_window(t)
    if claim and not cache.add(f"close-started:{t.pk}:{t.commitment[:16]}", 1, CLOSE_RETRY_SECONDS):
        return None
    ids = list(
        Game.objects.filter(entry__tournament_id=tournament_id)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return [ids[i : i + CLOSE_BATCH] for i in range(0, len(ids), CLOSE_BATCH)]


def game_close(*, game_id: int) -> GameAudit:
    """One game's part of its tournament's close: the bot plays it to the end in the
    entrant's seat when it is unfinished (``game_bot_finish``), then it is audited by
    replay (``game_audit``). The rounds the bot dealt and played to their end just now
    are not replayed a second time: the audit compares the stored rows with what the
    finish played (the same ``bot_move``); the rounds stored before it, the one it took
    over included, are replayed. Safe to repeat: a finished game is only audited again."""
    _game, fresh = _bot_finish(game_id)
    return _audit(game_id, fresh=fresh)


def games_close(*, game_ids: Sequence[int]) -> list[GameAudit]:
    """``game_close`` for a batch of games (one task of the close's fan-out)."""
    return [game_close(game_id=game_id) for game_id in game_ids]


def tournament_close_finish(*, tournament_id: int) -> Tournament:
    """The last step of a close, once every game is finished and audited: reveal the
    secret (``closed_at``) and write the standings once. A game some batch left unfinished
    (it failed) is finished and audited here first. Idempotent."""
    left = Game.objects.filter(
        entry__tournament_id=tournament_id, status=Game.Status.PLAYING
    ).values_list("pk", flat=True)
    games_close(game_ids=list(left))
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.closed_at is None:
            t.closed_at = timezone.now()
            t.save(update_fields=["closed_at", "updated_at"])
    standings_rebuild(tournament=t)
    return t


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
    from tournaments import tasks

    if tournament.closed_at is not None or tournament.closes_at > timezone.now():
        return False
    if not cache.add(f"closing:{tournament.pk}:{tournament.commitment[:16]}", 1, 60):
        return False
    # celery-types types a shared_task as a plain Task; Celery's Django fixup makes it a
    # DjangoTask at run time, which has delay_on_commit.
    tasks.tournament_close.delay_on_commit(tournament.pk)  # type: ignore[attr-defined]
    return True


def tournaments_due(*, now: datetime | None = None) -> list[int]:
    """Ids of the tournaments whose closing time has passed and that are not closed yet."""
    now = now or timezone.now()
    return list(
        Tournament.objects.filter(closed_at__isnull=True, closes_at__lte=now)
        .order_by("closes_at")
        .values_list("pk", flat=True)
    )


# --- Entries and games ------------------------------------------------------------------


def entry_join(*, tournament_id: int, user: User) -> Entry:
    """Enter ``user`` into an open tournament that is not full; their game starts at once
    (round 0 dealt, the bots before South have played). A bot account only where the
    tournament admits bot accounts."""
    from tournaments.series import check_admits

    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not t.window_open():
            raise TournamentNotOpen.of(_("This tournament is not open for entries."))
        check_admits(tournament=t, user=user)
        if Entry.objects.filter(tournament=t, user=user).exists():
            raise AlreadyEntered.of(_("You have already entered this tournament."))
        if t.entries.count() >= t.max_entrants:
            raise TournamentFull.of(_("This tournament is full."))
        entry = Entry.objects.create(tournament=t, user=user)
        game, _events = _game_start(
            user=user,
            entry=entry,
            game=t.game,
            preset=t.preset,
            variant=t.variant,
            rounds=t.rounds,
            bot_level=t.bot_level,
            bot_version=t.bot_version,
            secret=None,
            deal_secret=t.secret_bytes,
        )
        entry_results_update(game=game)
    return entry


def game_practice_start(
    *, user: User, game: str, preset: str, bot_level: str | None = None
) -> Game:
    """A practice game outside any tournament, on fresh deals (its own new secret)."""
    module = module_of(game)
    level = bot_level if bot_level is not None else module.DEFAULT_BOT_LEVEL
    _check_bot_level(module, level)
    if preset not in module.PRESETS:
        raise InvalidSettings.of(_("Unknown variant: %(preset)s."), preset=preset)
    variant = module.PRESETS[preset]
    secret = dealing.new_secret()
    with transaction.atomic():
        g, _events = _game_start(
            user=user,
            entry=None,
            game=game,
            preset=preset,
            variant=variant.to_json(),
            rounds=variant.rounds,
            bot_level=level,
            bot_version=module.BOT_VERSION,
            secret=secret,
            deal_secret=secret,
        )
    return g


@dataclass(frozen=True)
class PlayedRound:
    """A round a bot finish dealt and played to its end: every action with its seat, and
    the state at its end."""

    actions: list[record.RecordedAction]
    final_state: Any


@dataclass
class _Run:
    """A game being advanced inside one transaction. ``actions``: every action of the
    current round (JSON), ``own``: the entrant's among them; ``bot_from``: how many of
    those came before the bot took over seat 0 in it (``None``: it has not); ``ended``:
    the rows of the rounds that ended, to insert, and ``last_actions`` every action of the
    last of them; ``shown``: the player's observation as the last event left it (each
    event carries only what changed since, ``_event_delta``), without the public log:
    ``log_shown`` is how many of the round's log entries the player has (``None``: no log
    yet, the game's first events) and ``log_dropped`` how many of the last round's they
    still hold once a new round is dealt (each event adds the new entries only)."""

    game: Game
    module: GameModule
    variant: Any
    secret: bytes
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


def _game_start(
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
    deal_secret: bytes,
) -> tuple[Game, list[dict[str, Any]]]:
    module = module_of(game)
    v = module.variant_from_json(variant)
    state = dealt_round(game, v, deal_secret, 0)
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
    run = _Run(game=g, module=module, variant=v, secret=deal_secret, state=state)
    _advance(run, bot_seats=_bot_seats(v))
    _store(run)
    return g, run.events


def _bot_seats(variant: Any) -> frozenset[int]:
    return frozenset(range(1, variant.num_players))


def _observe(run: _Run) -> dict[str, Any]:
    """The player's observation without the public log (``_log_delta`` sends its growth)."""
    observation: dict[str, Any] = run.state.observation(PLAYER_SEAT, log=False)
    return observation


def _log_delta(run: _Run, delta: dict[str, Any]) -> None:
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


def _record(run: _Run, action: Any, *, seat: int, by_bot: bool, after: Any | None = None) -> None:
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
    nl, en = describe_action(action, seat, run.variant.num_players)
    observation = _observe(run)
    delta = _event_delta(run.shown, observation)
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


def _end_round(run: _Run) -> None:
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


def _event_delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """What an action changed in the player's observation, for a move event: ``set`` the
    keys with a new value; ``splice`` for a list that kept a head or a tail, ``[start,
    removed, items]``: from ``start``, ``removed`` items replaced by ``items`` (the log
    grows at its end; a meld laid off onto changes one item of the table)."""
    changed: dict[str, Any] = {}
    spliced: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if key in before and old == value:
            continue
        if isinstance(value, list) and isinstance(old, list) and old and value:
            head = 0
            most = min(len(old), len(value))
            while head < most and old[head] == value[head]:
                head += 1
            tail = 0
            while tail < most - head and old[-1 - tail] == value[-1 - tail]:
                tail += 1
            if head or tail:
                spliced[key] = [head, len(old) - head - tail, value[head : len(value) - tail]]
                continue
        changed[key] = value
    delta: dict[str, Any] = {}
    if changed:
        delta["set"] = changed
    if spliced:
        delta["splice"] = spliced
    return delta


def describe_action(
    action: Any, seat: int, num_players: int, *, player: str | None = None
) -> tuple[str, str]:
    """The action as a sentence, Dutch and English, the seat's name its subject ("Noord
    gooit ♠10 weg" / "North discarded 10♠"): the game module's ``describe(action) ->
    (nl, en)`` (worded to fit every seat, "Jij"/"You" included) where it has one, else
    the action's JSON after the name and a colon. ``player`` names the player's seat
    (``player_name_for``), else it is "Jij"/"You"."""
    names_nl = seat_names("nl", num_players, player=player)
    names_en = seat_names("en", num_players, player=player)
    describe = getattr(sys.modules.get(type(action).__module__), "describe", None)
    if callable(describe):
        nl, en = describe(action)
        return f"{names_nl[seat]} {nl}", f"{names_en[seat]} {en}"
    body = action.to_json()
    text = " ".join(f"{v}" for v in body.values())
    return f"{names_nl[seat]}: {text}", f"{names_en[seat]}: {text}"


def hand_text(*, game: str, codes: Sequence[str], language: str, trump: str | None = None) -> str:
    """A hand as a person reads it: in the table's order (Jokeren: ``jokeren_display_order``;
    Klaverjas: ``display_order`` with the trump, or while bidding the proposed trump, first),
    each card by ``engine.cards.card_label`` in the language: "♠2 ♠B ♥A joker"."""
    from engine.cards import (
        CARD_CODE,
        SUITS,
        card_label,
        jokeren_display_order,
        klaverjas_code,
        klaverjas_id,
    )
    from engine.jokeren.melds import ids_of_codes
    from engine.klaverjas.rules import display_order

    if game == "klaverjas":
        suit = SUITS.index(trump) if trump else None
        ordered = [klaverjas_code(c) for c in display_order([klaverjas_id(c) for c in codes], suit)]
    else:
        ordered = [CARD_CODE[c] for c in jokeren_display_order(ids_of_codes(codes))]
    return " ".join(card_label(c, language) for c in ordered)


def seat_names(language: str, num_players: int = 4, *, player: str | None = None) -> list[str]:
    """The seats' names in a language: the player ("Jij"/"You", or ``player``: their
    name), then clockwise."""
    names = list(_seat_names(language, num_players))
    if player is not None:
        names[PLAYER_SEAT] = player
    return names


def player_name_for(*, game: Game, viewer: Any) -> str | None:
    """How a page about ``game`` names its player's seat for ``viewer``: ``None`` (the
    page's "Jij"/"You") for the player themself, their name for anyone else (another
    player, a visitor)."""
    if viewer is not None and viewer.is_authenticated and viewer.pk == game.user_id:
        return None
    return str(game.user.get_username())


@functools.lru_cache(maxsize=64)
def _seat_names(language: str, num_players: int) -> tuple[str, ...]:
    names = [_("You"), _("West"), _("North"), _("East")]
    with translation.override(language):
        out = [str(n) for n in names]
    if num_players == 3:
        return (out[0], out[1], out[3])
    return tuple(out[:num_players])


def _advance(run: _Run, *, bot_seats: frozenset[int]) -> None:
    """Let the bots in ``bot_seats`` act until a seat outside it is to move or the game is
    over; at each round end record the scores and deal the next round."""
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
            run.events.append(
                {
                    "type": "round_over",
                    "round": g.round_index,
                    "scores": scores,
                    "hands": []
                    if run.quiet
                    else _revealed_hands(run.state, run.variant.num_players),
                    "result": outcome,
                }
            )
            if _game_over(run):
                _finish(g)
                return
            g.round_index += 1
            run.state = dealt_round(g.game, run.variant, run.secret, g.round_index)
            if run.quiet:
                run.recorded = []
            elif run.log_shown is not None:
                # The player still holds the last round's log: the next event replaces it.
                run.log_dropped += run.log_shown
                run.log_shown = 0
            continue
        seat = run.state.current_player
        if seat not in bot_seats:
            return
        move = bot_move(run.module, run.state, level=g.bot_level, version=g.bot_version)
        if move.refused is not None:
            # A bot bug must not cost the entrant a 500 nor stop a close: log the position;
            # the bot made its simplest legal action instead (the replay makes the same).
            logger.error(
                "engine refused a bot action: game %s round %s seat %s level %s version %s "
                "action %s (%s: %s); state %s",
                g.pk,
                g.round_index,
                seat,
                g.bot_level,
                g.bot_version,
                json.dumps(move.choice.to_json()),
                type(move.refused).__name__,
                move.refused,
                json.dumps(run.state.to_json(), separators=(",", ":")),
            )
        _record(run, move.action, seat=seat, by_bot=True, after=move.state)


#: Keys of a finished round's observation that say who ended it and how (Jokeren).
ROUND_END_KEYS = ("winner", "end_reason")


def _round_outcome(run: _Run) -> dict[str, Any]:
    """How the finished round went, as the player's seat sees it, in one flat object: the
    fields of the observation's ``result`` where it has one (Klaverjas: ``playing_team``,
    ``points``, ``roem``, ``pit_team``, ``nat``, ``scores``), plus those of
    ``ROUND_END_KEYS`` it has (Jokeren: ``winner``, ``end_reason``)."""
    observation = _observe(run)
    result = observation.get("result")
    outcome = dict(result) if isinstance(result, Mapping) else {}
    outcome.update({key: observation[key] for key in ROUND_END_KEYS if key in observation})
    return outcome


def _game_over(run: _Run) -> bool:
    """All rounds played, or the game module's own end (``game_over``, e.g. a points
    limit) where the module has one."""
    g = run.game
    return record.game_is_over(
        run.module, run.variant, rounds=g.rounds, round_scores=g.round_scores
    )


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


def _store(run: _Run) -> None:
    g = run.game
    # A game over keeps its last round's actions: its final state (the table shows it).
    over = g.status == Game.Status.FINISHED and not run.actions
    g.round_actions = compact_json(run.last_actions if over else run.actions)
    g.keep_state(run.state)
    insert_rows(GameRound, run.ended)
    g.updated_at = timezone.now()
    sql, fields = _run_update_sql(_RUN_FIELDS if run.rounds_done or run.quiet else _TURN_FIELDS)
    db = database()
    params = [f.get_db_prep_save(getattr(g, f.attname), db) for f in fields]
    with hot_cursor() as cursor:
        cursor.execute(sql, [*params, g.pk])
    if run.rounds_done and g.entry_id is not None and not run.quiet:
        tournament = g.entry.tournament  # type: ignore[union-attr]
        _round_end_results(tournament=tournament, game=g, rounds_done=run.rounds_done)


def game_finish(*, game: Game) -> Game:
    """Mark a game whose last round is over as finished (idempotent)."""
    with transaction.atomic():
        g = Game.objects.select_for_update().get(pk=game.pk)
        if g.status != Game.Status.FINISHED and len(g.round_scores) >= g.rounds:
            _finish(g)
            g.save(update_fields=["status", "finished_at", "updated_at"])
    game.refresh_from_db()
    return game


def _current_round(g: Game, module: GameModule, variant: Any) -> tuple[Any, list[Any], list[Any]]:
    """The current round's state (``Game.current_state``: dealt and its actions applied),
    its actions and the entrant's among them (a game being played: every seat-0 action is
    the entrant's); ``module`` and ``variant`` are the game's (its callers have them)."""
    actions = json.loads(g.round_actions)
    state = dealt_round(g.game, variant, g.secret_bytes, g.round_index)
    own = []
    for action in actions:
        if state.current_player == PLAYER_SEAT:
            own.append(action)
        state = state.apply(module.action_from_json(action))
    return state, actions, own


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
    claim to be checked against (``jokeren.auth.claim_holds``)."""
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


class ClaimNotHeld(Exception):
    """A move made with a session's claim (``jokeren.auth.SessionClaim``) that its read
    could not check: no such game of the claimed user (or not a tournament game, on
    PostgreSQL), or the user's row does not hold it. Nothing was read for the move and
    nothing is stored; the caller reads the request's user as Django does and answers
    from that (403, or the move made with the user)."""


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
            if g.entry is not None and not g.entry.tournament.window_open(timezone.now()):
                raise TournamentClosed.of(_("This tournament is closed for play."))
            module = module_of(g.game)
            variant = module.variant_from_json(g.variant)
            state, actions, own = _current_round(g, module, variant)
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
            run = _Run(
                game=g,
                module=module,
                variant=variant,
                secret=g.secret_bytes,
                state=state,
                actions=actions,
                own=own,
                shown=state.observation(PLAYER_SEAT, log=False),
                log_shown=state.log_length,
            )
            try:
                _record(run, act, seat=PLAYER_SEAT, by_bot=False)
            except IllegalMove as exc:
                raise IllegalMoveError.from_engine(exc) from exc
            _advance(run, bot_seats=_bot_seats(variant))
            _store(run)
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
        state = dealt_round(g.game, variant, g.secret_bytes, g.round_index)
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
    return _bot_finish(game_id)[0]


def _bot_finish(game_id: int) -> tuple[Game, dict[int, PlayedRound]]:
    """``game_bot_finish``, and every action of each round it dealt and played to its end
    (``_Run.fresh``)."""
    with transaction.atomic():
        g = (
            Game.objects.select_for_update(of=("self",))
            .select_related("entry__tournament")
            .get(pk=game_id)
        )
        if g.status == Game.Status.FINISHED:
            return g, {}
        module = module_of(g.game)
        variant = module.variant_from_json(g.variant)
        state, actions, own = _current_round(g, module, variant)
        run = _Run(
            game=g,
            module=module,
            variant=variant,
            secret=g.secret_bytes,
            state=state,
            actions=actions,
            own=own,
            quiet=True,
        )
        _advance(run, bot_seats=frozenset(range(variant.num_players)))
        g.bot_finished = True
        _store(run)
    return g, run.fresh


# --- Results ------------------------------------------------------------------------------


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
    #: The replay audit contradicts the stored scores: listed apart, not ranked.
    under_review: bool = False


@dataclass(frozen=True)
class Visibility:
    """What one viewer may see of a tournament's results (docs/rules.md §4, duplicate
    play): the results of rounds ``0 .. rounds - 1`` only; with ``rounds == 0`` who entered
    and how far they are, no scores. ``final``: the tournament has closed, all is public."""

    rounds: int
    final: bool = False

    @property
    def scores(self) -> bool:
        return self.rounds > 0


@dataclass(frozen=True)
class Standing:
    """One row of a leaderboard as one viewer may see it. ``total``,
    ``opponents_average`` and ``result`` are over the ``rounds_counted`` rounds the
    viewer may see that the entrant played themselves (``None`` when there are none);
    ``rounds_played`` is the entrant's progress; ``bot_rounds`` the rounds the bot
    played in the entrant's seat (they never count)."""

    rank: int | None
    entry_id: int
    user_id: int
    username: str
    game_id: int
    total: int | None
    opponents_average: float | None
    result: float | None
    rounds_played: int
    rounds_counted: int
    bot_rounds: tuple[int, ...]
    finished: bool
    bot_finished: bool
    #: The replay audit contradicts the stored scores: listed apart, not ranked.
    under_review: bool = False
    #: With a game in parts (seed 001's match, "2 ronden van 10"): the result over each
    #: part's rounds counted as above (``None`` where there are none); else empty.
    parts: tuple[float | None, ...] = ()


def _result_key(value: float) -> float:
    # Results are averages of integers: equal results may differ in the last float bit.
    return round(value, 9)


def opponents_of(total: int, result: float) -> float:
    """What the player's total is measured against: ``total - result``. With the game
    module's ``results`` that is the opponents' average (Jokeren) or the other team's
    points (Klaverjassen), without knowing which game it is."""
    return round(total - result, 9)


def _figures(module: GameModule, totals: Sequence[int]) -> tuple[int, float, float]:
    """(own total, what it is measured against, duplicate result) of seat 0."""
    result = float(module.results([int(t) for t in totals])[0])
    return int(totals[0]), opponents_of(int(totals[0]), result), result


def game_result(game: Game) -> tuple[int, float, float]:
    """(own total, opponents' average, duplicate result) of seat 0, from the game module's
    ``results(totals)``."""
    return _figures(module_of(game.game), game.totals)


def rank_values(
    values: Sequence[float | None],
    *,
    lower_is_better: bool,
    tiers: Sequence[tuple[int, ...]] | None = None,
) -> list[int | None]:
    """Competition ranking ("1, 2, 2, 4"): equal values share a rank; ``None`` is unranked.
    With ``tiers`` (a sortable key per value), every value of a lower tier ranks before
    every value of a higher tier, and only equal values of the same tier share a rank."""
    sign = 1 if lower_is_better else -1
    tier_of: Sequence[tuple[int, ...]] = tiers if tiers is not None else [()] * len(values)
    ranked = sorted(
        ((tier_of[i], sign * _result_key(v)), i) for i, v in enumerate(values) if v is not None
    )
    out: list[int | None] = [None] * len(values)
    previous: tuple[tuple[int, ...], float] | None = None
    rank = 0
    for position, (key, index) in enumerate(ranked, start=1):
        if key != previous:
            rank = position
            previous = key
        out[index] = rank
    return out


#: Rows of a page of the leaderboard and of a per-deal table.
PAGE_SIZE = 50
MAX_PAGE_SIZE = 200


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


def _entry_rounds(games: Sequence[Game]) -> list[EntryRounds]:
    """The finished rounds of these tournament games (``select_related("user", "entry")``)."""
    taken_over = _bot_takeover([g.pk for g in games if g.bot_finished])
    return [
        EntryRounds(
            entry_id=g.entry_id,  # type: ignore[arg-type]
            user_id=g.user_id,
            username=g.user.get_username(),
            game_id=g.pk,
            round_scores=tuple(tuple(int(s) for s in r) for r in g.round_scores),
            bot_rounds=tuple(range(taken_over.get(g.pk, len(g.round_scores)), len(g.round_scores))),
            finished=g.status == Game.Status.FINISHED,
            bot_finished=g.bot_finished,
            under_review=g.entry is not None and g.entry.under_review,
        )
        for g in games
    ]


def _over(
    module: GameModule, e: EntryRounds, rounds: Sequence[int]
) -> tuple[int, float, float] | None:
    """The figures of an entry over some of its rounds (``None`` without any)."""
    if not rounds:
        return None
    totals = [sum(seat) for seat in zip(*(e.round_scores[r] for r in rounds), strict=True)]
    return _figures(module, totals)


def _result_of(figures: tuple[int, float, float] | None) -> float | None:
    return figures[2] if figures is not None else None


def _sign(module: GameModule) -> int:
    """Results times this sort ascending from the best."""
    return 1 if module.LOWER_IS_BETTER else -1


def _entry_result(
    t: Tournament, module: GameModule, parts: Sequence[range], e: EntryRounds, cap: int
) -> EntryResult:
    """An entry's row on the board of a viewer who sees rounds ``0 .. cap - 1``. It is
    ranked on the rounds it played itself: complete in the view (no bot round, and every
    visible round played, or its game over) in tier 0, by result; else after them, more
    rounds of its own first, then by result; without any, unranked, listed last."""
    span = min(len(e.round_scores), cap)
    own = [r for r in range(span) if r not in e.bot_rounds]
    complete = len(own) == span and (span == cap or e.finished)
    f = _over(module, e, own)
    unranked = f is None or e.under_review
    return EntryResult(
        tournament_id=t.pk,
        entry_id=e.entry_id,
        upto=cap,
        user_id=e.user_id,
        game_id=e.game_id,
        name=e.username,
        name_key=e.username.lower(),
        unranked=unranked,
        tier=0 if unranked or complete else MAX_ROUNDS + 1 - len(own),
        sort_result=None if unranked or f is None else _sign(module) * _result_key(f[2]),
        total=f[0] if f is not None else None,
        opponents_average=f[1] if f is not None else None,
        result=f[2] if f is not None else None,
        rounds_played=len(e.round_scores),
        rounds_counted=len(own) if f is not None else 0,
        bot_rounds=[r for r in e.bot_rounds if r < cap],
        parts=[_result_of(_over(module, e, [r for r in own if r in part])) for part in parts],
        finished=e.finished,
        bot_finished=e.bot_finished,
        under_review=e.under_review,
    )


def _deal_result(t: Tournament, module: GameModule, e: EntryRounds, r: int) -> DealResult:
    score, against, result = _figures(module, e.round_scores[r])
    by_bot = r in e.bot_rounds
    return DealResult(
        tournament_id=t.pk,
        entry_id=e.entry_id,
        round_index=r,
        user_id=e.user_id,
        game_id=e.game_id,
        name=e.username,
        name_key=e.username.lower(),
        score=score,
        opponents_average=against,
        result=result,
        # The bot's rows are unranked and listed after the others by name.
        sort_result=0.0 if by_bot else _sign(module) * _result_key(result),
        by_bot=by_bot,
    )


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


def _results_write(t: Tournament, games: Sequence[Game], *, last_deals: int | None = None) -> None:
    """Write the board rows (one per visible-rounds count) and the per-deal rows of these
    games' entries (an upsert: safe to repeat); with ``last_deals`` only the rows of each
    game's last ``last_deals`` rounds among the per-deal ones (a move that ended them: a
    deal's row does not change in play once written; the bot's takeover, the audit and
    the close's rebuild write them all, the last also a name changed in the admin)."""
    module = module_of(t.game)
    parts = tournament_parts(tournament=t)
    field = _entry_rounds(games)
    boards = [_entry_result(t, module, parts, e, cap) for e in field for cap in range(t.rounds + 1)]
    insert_rows(
        EntryResult, boards, unique_fields=["entry", "upto"], update_fields=_ENTRY_RESULT_FIELDS
    )
    _deal_results_write(t, module, field, last_deals=last_deals)


def _deal_results_write(
    t: Tournament, module: GameModule, field: Sequence[EntryRounds], *, last_deals: int | None
) -> None:
    """Upsert the per-deal rows of these entries: every finished round's, or with
    ``last_deals`` each entry's last ``last_deals`` rounds' only."""
    deals = [
        _deal_result(t, module, e, r)
        for e in field
        for r in range(
            0 if last_deals is None else max(0, len(e.round_scores) - last_deals),
            len(e.round_scores),
        )
    ]
    insert_rows(
        DealResult,
        deals,
        unique_fields=["entry", "round_index"],
        update_fields=_DEAL_RESULT_FIELDS,
    )


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


def _round_end_results(*, tournament: Tournament, game: Game, rounds_done: int) -> None:
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
    (e,) = _entry_rounds([game])
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


def standings_rebuild(*, tournament: Tournament) -> int:
    """Write every entry's results of a tournament again from its games (the close does it
    once at the end; also after games were changed outside the services). The number of
    entries."""
    games = Game.objects.filter(entry__tournament=tournament).select_related("user", "entry")
    count = 0
    chunk: list[Game] = []
    for g in games.order_by("entry_id").iterator(chunk_size=500):
        chunk.append(g)
        if len(chunk) == 500:
            _results_write(tournament, chunk)
            count += len(chunk)
            chunk = []
    if chunk:
        _results_write(tournament, chunk)
        count += len(chunk)
    cache.set(_ready_key(tournament), 1, None)
    cache.delete_many(
        [_deal_fields_key(tournament, r, closed_only=False) for r in range(tournament.rounds + 1)]
    )
    return count


def _ready_key(t: Tournament) -> str:
    return f"results-ready:{t.pk}:{t.commitment[:16]}"


def _ensure_results(t: Tournament) -> None:
    """Tournaments from before the results were kept per entry get their rows once."""
    if cache.get(_ready_key(t)) is not None:
        return
    has_rows = EntryResult.objects.filter(tournament=t).exists()
    if not has_rows and Entry.objects.filter(tournament=t).exists():
        standings_rebuild(tournament=t)
    else:
        cache.set(_ready_key(t), 1, None)


def _own_row(t: Tournament, user: Any, upto: int | None = None) -> EntryResult | None:
    if user is None or not user.is_authenticated:
        return None
    return EntryResult.objects.filter(
        entry__tournament=t, entry__user=user, upto=t.rounds if upto is None else upto
    ).first()


def _visibility_of(t: Tournament, own: EntryResult | None) -> Visibility:
    if t.closed_at is not None:
        return Visibility(rounds=t.rounds, final=True)
    if own is None or t.hide_results:
        return Visibility(rounds=0)
    # A finished game can gain nothing more: its player sees every round.
    return Visibility(rounds=t.rounds if own.finished else own.rounds_played)


def _own_view(t: Tournament, user: Any) -> tuple[Visibility, EntryResult | None]:
    """What ``user`` may see of ``t`` (``results_visibility``) and their own row at that
    view (``None``: no entry)."""
    _ensure_results(t)
    own_final = _own_row(t, user)
    visibility = _visibility_of(t, own_final)
    if own_final is None:
        return visibility, None
    own = EntryResult.objects.filter(entry_id=own_final.entry_id, upto=visibility.rounds).first()
    return visibility, own


@dataclass(frozen=True)
class MyEntry:
    """One of a player's tournament entries as they may see it now: their progress, and
    their result and rank over the rounds ``results_visibility`` shows them (``standing``
    ``None``, or its ``result`` and ``rank`` ``None``, while none may be seen)."""

    tournament: Tournament
    game: Game
    visibility: Visibility
    standing: Standing | None


def my_entries(*, user: Any) -> list[MyEntry]:
    """The player's tournament entries, the latest first, each with its progress and the
    result and rank the player may see (``results_visibility``: never a score or rank of
    a round before it may be seen, nothing while the organizer hides the results)."""
    entries = (
        Entry.objects.filter(user=user).select_related("tournament", "game").order_by("-joined_at")
    )
    out: list[MyEntry] = []
    for entry in entries:
        t = entry.tournament
        visibility, own = _own_view(t, user)
        standing = _board_ranked(t, visibility.rounds, [own])[0] if own is not None else None
        out.append(MyEntry(t, entry.game, visibility, standing))
    return out


def entered_games(*, user: Any, tournament_ids: Iterable[int]) -> dict[int, Game]:
    """The games ``user`` plays in these tournaments, by tournament id (only those they
    entered; nobody's for a visitor)."""
    if user is None or not user.is_authenticated:
        return {}
    entries = Entry.objects.filter(user=user, tournament_id__in=list(tournament_ids))
    return {e.tournament_id: e.game for e in entries.select_related("game")}


def results_visibility(*, tournament: Tournament, user: Any) -> Visibility:
    """What ``user`` (``None`` or anonymous: a visitor) may see of ``tournament``'s
    results, the one rule every surface follows (docs/rules.md §4): after the close,
    everything; during the window, an entrant who has finished k rounds the results of
    rounds 0 .. k-1 only (every round once their game is over); anyone else who entered
    and how far they are, no scores."""
    _ensure_results(tournament)
    return _visibility_of(tournament, _own_row(tournament, user))


def tournament_parts(*, tournament: Tournament) -> list[range]:
    """The rounds of each part of a tournament's game when it has more than one (seed
    001's match: "2 ronden van 10"), else ``[]``."""
    module = module_of(tournament.game)
    parts = module.game_parts(module.variant_from_json(tournament.variant))
    return list(parts) if len(parts) > 1 else []


def _standing(row: EntryResult, rank: int | None) -> Standing:
    return Standing(
        rank=rank,
        entry_id=row.entry_id,
        user_id=row.user_id,
        username=row.name,
        game_id=row.game_id,
        total=row.total,
        opponents_average=row.opponents_average,
        result=row.result,
        rounds_played=row.rounds_played,
        rounds_counted=row.rounds_counted,
        bot_rounds=tuple(row.bot_rounds),
        finished=row.finished,
        bot_finished=row.bot_finished,
        under_review=row.under_review,
        parts=tuple(row.parts),
    )


_BOARD_ORDER = ("unranked", "tier", "sort_result", "-rounds_played", "name_key", "entry_id")


def _board_ranked(
    t: Tournament, upto: int, rows: Sequence[EntryResult], offset: int | None = None
) -> list[Standing]:
    """Competition ranks ("1, 2, 2, 4") of consecutive rows of the board in its order from
    place ``offset``: the first ranked row's from a count of the better rows (an index
    range), each next one's from its place (the ranked rows come first). ``offset``
    ``None``: the rows' places are not known (one row picked out), each is counted."""
    out: list[Standing] = []
    previous: tuple[int, float | None] | None = None
    rank = 0
    for i, row in enumerate(rows):
        if row.unranked:
            out.append(_standing(row, None))
            continue
        key = (row.tier, row.sort_result)
        if previous is None:
            # The ranked rows come first: at place 0 nothing is better.
            rank = 1 if offset == 0 and i == 0 else 1 + _board_better(t, upto, row)
        elif offset is None:
            rank = 1 + _board_better(t, upto, row) if key != previous else rank
        elif key != previous:
            rank = offset + i + 1
        previous = key
        out.append(_standing(row, rank))
    return out


def _board_better(t: Tournament, upto: int, row: EntryResult) -> int:
    """The ranked rows of a board with a better key than ``row``'s (one index range for
    tier 0, the complete entries, where most rows are)."""
    better = Q(tier=row.tier, sort_result__lt=row.sort_result)
    if row.tier > 0:
        better |= Q(tier__lt=row.tier)
    return (
        EntryResult.objects.filter(tournament=t, upto=upto, unranked=False).filter(better).count()
    )


def _board_position(t: Tournament, upto: int, row: EntryResult) -> int:
    """The 0-based place of a row on its board: the rows before it in the board's order
    (``_BOARD_ORDER``), counted over the board's index."""
    same_key = Q(tier=row.tier, sort_result=row.sort_result)
    if row.unranked:
        # Every unranked row has tier 0 and no sort result: after all the ranked ones.
        same_key = Q(unranked=True)
    else:
        same_key &= Q(unranked=False)
    ties = Q(rounds_played__gt=row.rounds_played) | Q(
        rounds_played=row.rounds_played, name_key__lt=row.name_key
    )
    ties |= Q(rounds_played=row.rounds_played, name_key=row.name_key, entry_id__lt=row.entry_id)
    before = same_key & ties
    if row.unranked:
        before |= Q(unranked=False)
    else:
        before |= Q(unranked=False, tier__lt=row.tier)
        before |= Q(unranked=False, tier=row.tier, sort_result__lt=row.sort_result)
    return EntryResult.objects.filter(tournament=t, upto=upto).filter(before).count()


@dataclass(frozen=True)
class Board:
    """A leaderboard cut for one viewer: what they may see, and the rows of one page
    (``page`` from 1; every row when ``page_size`` is 0). ``count``: the rows of the
    whole board (those matching ``q``); ``me``: the viewer's own row, wherever it is."""

    visibility: Visibility
    rows: list[Standing]
    count: int = 0
    page: int = 1
    page_size: int = 0
    q: str = ""
    me: Standing | None = None

    @property
    def pages(self) -> int:
        if not self.page_size:
            return 1
        return max(1, -(-self.count // self.page_size))


def _page_bounds(page: int | None, page_size: int, count: int) -> tuple[int, int]:
    pages = max(1, -(-count // page_size))
    page = min(max(page or 1, 1), pages)
    return page, (page - 1) * page_size


def standings_page(
    *,
    tournament: Tournament,
    user: Any,
    page: int | None = None,
    page_size: int = PAGE_SIZE,
    q: str = "",
) -> Board:
    """One page of the leaderboard as ``user`` may see it (``results_visibility``): ranks
    and results over the rounds they may see; names and progress only when that is none.
    Without a ``page``, the page with the viewer's own row (else the first); ``q`` keeps
    the rows whose name contains it. A few indexed queries, whatever the field's size."""
    t = tournament
    page_size = min(max(page_size, 1), MAX_PAGE_SIZE)
    visibility, own = _own_view(t, user)
    upto = visibility.rounds
    board = EntryResult.objects.filter(tournament=t, upto=upto)
    q = q.strip()
    me = None
    if own is not None:
        position = _board_position(t, upto, own)
        me = _board_ranked(t, upto, [own])[0]
        if page is None and not q:
            page = position // page_size + 1
    if q:
        count = board.filter(name_key__contains=q.lower()).count()
        page, offset = _page_bounds(page, page_size, count)
        # Each found row's rank counted on the whole board (a few rows as a rule).
        found = board.filter(name_key__contains=q.lower()).order_by(*_BOARD_ORDER)
        rows = _board_ranked(t, upto, list(found[offset : offset + page_size]))
    else:
        count = board.count()
        page, offset = _page_bounds(page, page_size, count)
        rows = _board_ranked(
            t, upto, list(board.order_by(*_BOARD_ORDER)[offset : offset + page_size]), offset
        )
    return Board(
        visibility=visibility, rows=rows, count=count, page=page, page_size=page_size, q=q, me=me
    )


def entry_standings(
    *, tournament: Tournament, user: Any, entry_ids: Collection[int]
) -> dict[int, Standing]:
    """The leaderboard rows of some entries (a page of the organizer's entries list) as
    ``user`` may see them, by game id: one query for the rows and one count per ranked
    row, whatever the field's size."""
    _ensure_results(tournament)
    upto = _visibility_of(tournament, _own_row(tournament, user)).rounds
    rows = EntryResult.objects.filter(
        tournament=tournament, upto=upto, entry_id__in=list(entry_ids)
    ).order_by(*_BOARD_ORDER)
    return {s.game_id: s for s in _board_ranked(tournament, upto, list(rows), None)}


def _board_all(t: Tournament, visibility: Visibility) -> Board:
    rows = list(
        EntryResult.objects.filter(tournament=t, upto=visibility.rounds).order_by(*_BOARD_ORDER)
    )
    return Board(
        visibility=visibility, rows=_board_ranked(t, visibility.rounds, rows, 0), count=len(rows)
    )


def standings_for_viewer(*, tournament: Tournament, user: Any) -> Board:
    """The whole leaderboard as ``user`` may see it (``results_visibility``); pages:
    ``standings_page``."""
    visibility = results_visibility(tournament=tournament, user=user)
    return _board_all(tournament, visibility)


def standings_under_review(*, tournament: Tournament, limit: int = MAX_PAGE_SIZE) -> list[Standing]:
    """The entries the replay audit flagged (not ranked, listed apart), by name."""
    rows = EntryResult.objects.filter(
        tournament=tournament, upto=tournament.rounds, under_review=True
    ).order_by("name_key", "entry_id")[:limit]
    return [_standing(r, None) for r in rows]


def standings(*, tournament: Tournament) -> list[Standing]:
    """The whole leaderboard, every round of everyone: what everyone sees once the
    tournament has closed. During the window no page shows it (``standings_for_viewer``).
    Equal results share a rank; rounds the bot played in an entrant's seat never count,
    and such an entry ranks after every entry that played all its rounds itself."""
    _ensure_results(tournament)
    return _board_all(tournament, Visibility(rounds=tournament.rounds)).rows


def standings_refresh(*, tournament: Tournament) -> list[Standing]:
    """Write a tournament's results again from its games; the whole leaderboard."""
    standings_rebuild(tournament=tournament)
    return _board_all(tournament, Visibility(rounds=tournament.rounds)).rows


def player_rank(*, game: Game) -> int | None:
    """The rank so far of a tournament game's player, as that player may see it
    (``None`` for practice)."""
    t = game.tournament
    if t is None:
        return None
    _ensure_results(t)
    visibility = _visibility_of(t, _own_row(t, game.user))
    own = EntryResult.objects.filter(entry__game=game, upto=visibility.rounds).first()
    if own is None or own.unranked:
        return None
    return _board_ranked(t, visibility.rounds, [own])[0].rank


@dataclass(frozen=True)
class DealRow:
    username: str
    game_id: int
    score: int
    opponents_average: float
    result: float
    rank: int | None
    #: The bot played the entrant's seat in this round: marked, unranked, and left out of
    #: the field's figures.
    by_bot: bool = False


@dataclass(frozen=True)
class Deal:
    """One round: how the field did on that same deal. ``field_size``,
    ``field_average`` and ``field_best`` are over the rows the entrants played themselves
    (``None`` without any). ``rows``: every row, or one page of them (``count`` rows in
    all, ``page`` of ``pages``)."""

    round_index: int
    rows: list[DealRow]
    field_size: int
    field_average: float | None
    field_best: float | None
    count: int = 0
    page: int = 1
    pages: int = 1
    #: The viewer's own row when it is not on the page shown.
    me: DealRow | None = None


_DEAL_ORDER = ("by_bot", "sort_result", "name_key", "entry_id")


def _deal_ranked(
    t: Tournament, rows: Sequence[DealResult], offset: int | None = 0
) -> list[DealRow]:
    """Competition ranks of consecutive rows of a deal's table from place ``offset`` (as
    ``_board_ranked``; ``None``: places not known, each rank counted); the bot's rows are
    unranked."""
    out: list[DealRow] = []
    previous: float | None = None
    rank = 0
    for i, row in enumerate(rows):
        if row.by_bot:
            out.append(
                DealRow(
                    row.name, row.game_id, row.score, row.opponents_average, row.result, None, True
                )
            )
            continue
        if previous is None and offset == 0 and i == 0:
            rank = 1
        elif previous is None or offset is None:
            rank = (
                1
                + DealResult.objects.filter(
                    tournament=t,
                    round_index=row.round_index,
                    by_bot=False,
                    sort_result__lt=row.sort_result,
                ).count()
            )
        elif row.sort_result != previous:
            rank = (offset or 0) + i + 1
        previous = row.sort_result
        out.append(
            DealRow(row.name, row.game_id, row.score, row.opponents_average, row.result, rank)
        )
    return out


@dataclass(frozen=True)
class Distribution:
    """The results of one deal's own rows (the bot's left out) as counts: ``counts`` holds
    (sort key, how many rows) with the best first (the key is ``_result_key`` of the
    result times ``sign``, as ``DealResult.sort_result``)."""

    counts: tuple[tuple[float, int], ...]
    sign: int = 1

    @classmethod
    def of(cls, results: Sequence[float], *, sign: int) -> Distribution:
        counted: dict[float, int] = {}
        for result in results:
            key = sign * _result_key(result)
            counted[key] = counted.get(key, 0) + 1
        return cls(tuple(sorted(counted.items())), sign)

    @property
    def size(self) -> int:
        return sum(n for _key, n in self.counts)

    def percentage(self, result: float) -> float | None:
        """The share (0-100) of the other rows that ``result`` (one of them) beats, a tie
        counting half (Funbridge's and BBO's percentage); ``None`` without another row."""
        key = self.sign * _result_key(result)
        others = self.size - 1
        if others < 1:
            return None
        worse = sum(n for k, n in self.counts if k > key)
        equal = sum(n for k, n in self.counts if k == key)
        return round(100 * (worse + 0.5 * (equal - 1)) / others, 9)

    def median(self) -> float | None:
        """The median result (``None`` without rows)."""
        size = self.size
        if not size:
            return None
        wanted = sorted({(size - 1) // 2, size // 2})
        values: list[float] = []
        seen = 0
        for key, n in sorted(self.counts, key=lambda kn: self.sign * kn[0]):
            while wanted and wanted[0] < seen + n:
                values.append(self.sign * key)
                wanted.pop(0)
            seen += n
        return round(sum(values) / len(values), 9)


def deal_distributions(*, tournament: Tournament, rounds: int) -> dict[int, Distribution]:
    """Per round below ``rounds``: the distribution of the field's own results on that deal
    (one grouped query: as many rows as distinct results, whatever the field's size)."""
    sign = _sign(module_of(tournament.game))
    grouped = (
        DealResult.objects.filter(tournament=tournament, round_index__lt=rounds, by_bot=False)
        .order_by()
        .values("round_index", "sort_result")
        .annotate(n=Count("id"))
        .values_list("round_index", "sort_result", "n")
    )
    counted: dict[int, dict[float, int]] = {}
    for r, key, n in grouped:
        per = counted.setdefault(r, {})
        per[_result_key(key)] = per.get(_result_key(key), 0) + n
    return {r: Distribution(tuple(sorted(c.items())), sign) for r, c in counted.items()}


def deal_rows_of(
    *,
    tournament: Tournament,
    visibility: Visibility,
    game_ids: Collection[int],
    spreads: Mapping[int, Distribution],
) -> list[Deal]:
    """``deal_results`` of only the rows of ``game_ids`` (one query), each ranked from its
    deal's distribution (``spreads``: ``deal_distributions``), the field's figures as
    there."""
    _ensure_results(tournament)
    t = tournament
    module = module_of(t.game)
    visible = min(t.rounds, visibility.rounds)
    fields, counts = _deal_fields(t, module, visible)
    rows: dict[int, list[DealResult]] = {}
    for row in DealResult.objects.filter(
        tournament=t, round_index__lt=visible, game_id__in=list(game_ids)
    ).order_by("round_index", *_DEAL_ORDER):
        rows.setdefault(row.round_index, []).append(row)
    out = []
    for r in range(visible):
        spread = spreads.get(r, Distribution(()))
        ranked = [
            DealRow(
                row.name,
                row.game_id,
                row.score,
                row.opponents_average,
                row.result,
                None if row.by_bot else 1 + sum(n for k, n in spread.counts if k < row.sort_result),
                row.by_bot,
            )
            for row in rows.get(r, [])
        ]
        size, average, best = fields.get(r, (0, None, None))
        out.append(Deal(r, ranked, size, average, best, count=counts.get(r, 0)))
    return out


def _deal_fields(
    t: Tournament, module: GameModule, rounds: int
) -> tuple[dict[int, tuple[int, float, float]], dict[int, int]]:
    """Per round below ``rounds``: the field's size, average result and best result over
    the rows the entrants played themselves, and the rows in all (one grouped query;
    kept in the cache once the tournament has closed and they no longer change)."""
    key = _deal_fields_key(t, rounds)
    if key is not None:
        cached = cache.get(key)
        if cached is not None:
            fields_json, counts_json = cached
            return (
                {int(r): (n, a, b) for r, (n, a, b) in fields_json.items()},
                {int(r): n for r, n in counts_json.items()},
            )
    figures = (
        DealResult.objects.filter(tournament=t, round_index__lt=rounds)
        .order_by()
        .values("round_index", "by_bot")
        .annotate(n=Count("id"), average=Avg("result"), best=Min("sort_result"))
        .values_list("round_index", "by_bot", "n", "average", "best")
    )
    sign = _sign(module)
    fields: dict[int, tuple[int, float, float]] = {}
    counts: dict[int, int] = {}
    for r, by_bot, n, average, best in figures:
        counts[r] = counts.get(r, 0) + n
        if not by_bot:
            fields[r] = (n, round(average, 9), sign * best)
    if key is not None:
        cache.set(key, (fields, counts), 24 * 3600)
    return fields, counts


def _deal_fields_key(t: Tournament, rounds: int, *, closed_only: bool = True) -> str | None:
    if closed_only and t.closed_at is None:
        return None
    return f"deal-fields:{t.pk}:{t.commitment[:16]}:{rounds}"


def deal_results(
    *,
    tournament: Tournament,
    visibility: Visibility,
    page_size: int = 0,
    user: Any = None,
    pages: Mapping[int, int] | None = None,
) -> list[Deal]:
    """Per round that ``visibility`` shows, how the field did on that same deal: each
    entrant who finished the round, with their score, the opponents' average and the
    round's result, ranked; the rows the bot played in the entrant's seat are marked,
    unranked and left out of the field's figures. With ``page_size``, one page of each
    deal's rows (``pages[round]``, else the first: the best of the field), and ``user``'s
    own row beside it when it is not on that page."""
    _ensure_results(tournament)
    t = tournament
    module = module_of(t.game)
    visible = min(t.rounds, visibility.rounds)
    fields, counts = _deal_fields(t, module, visible)
    own: dict[int, DealResult] = {}
    if page_size and user is not None and user.is_authenticated:
        own = {
            row.round_index: row
            for row in DealResult.objects.filter(
                entry__tournament=t, entry__user=user, round_index__lt=visible
            )
        }
    out: list[Deal] = []
    for r in range(visible):
        table = DealResult.objects.filter(tournament=t, round_index=r).order_by(*_DEAL_ORDER)
        size, average, best = fields.get(r, (0, None, None))
        if page_size:
            count = counts.get(r, 0)
            page, offset = _page_bounds((pages or {}).get(r), page_size, count)
            rows = list(table[offset : offset + page_size])
            ranked = _deal_ranked(t, rows, offset)
            n_pages = max(1, -(-count // page_size))
            mine = own.get(r)
            if mine is not None and all(row.pk != mine.pk for row in rows):
                me = _deal_ranked(t, [mine], None)[0]
            else:
                me = None
        else:
            rows = list(table)
            ranked = _deal_ranked(t, rows)
            count, page, n_pages, me = len(rows), 1, 1, None
        out.append(
            Deal(
                round_index=r,
                rows=ranked,
                field_size=size,
                field_average=average,
                field_best=best,
                count=count,
                page=page,
                pages=n_pages,
                me=me,
            )
        )
    return out


# --- Replay and verification ----------------------------------------------------------------


def has_score_sheet(*, game: str, variant: Mapping[str, Any]) -> bool:
    """Whether games of this variant have a paper score sheet (seed 001's form: the
    card-count variants of Jokeren)."""
    module = module_of(game)
    v = module.variant_from_json(variant)
    return module.score_sheet_of(v, round_scores=[], round_results=[]) is not None


def game_score_sheet(*, game: Game) -> Any:
    """The score sheet of a game's finished rounds (``engine.jokeren.scoring.ScoreSheet``:
    per part its rounds with a "−" for the winner, subtotals and totals, and the "−"
    count per seat as the check), or ``None`` where the variant has none."""
    module = module_of(game.game)
    return module.score_sheet_of(
        module.variant_from_json(game.variant),
        round_scores=game.round_scores,
        round_results=game.round_results,
    )


@dataclass(frozen=True)
class Frame:
    """One step of a replay: the action (``None`` for the deal) and the state after it.

    ``observations`` (what each seat sees) is built on demand: a page needs one view per
    frame (``replay_frames_json``), not one per seat."""

    seq: int | None
    seat: int | None
    by_bot: bool
    text_nl: str
    text_en: str
    state: Any
    num_players: int

    @property
    def observations(self) -> list[dict[str, Any]]:
        return [self.state.observation(s) for s in range(self.num_players)]


@dataclass(frozen=True)
class StoredRound:
    """What is stored of one round: the entrant's actions, when the bot took over their
    seat (``GameRound.bot_from``), its number of moves and the ``seq`` of its first move.
    The round being played comes from the ``Game`` (``moves``: those made so far)."""

    round_index: int
    actions: list[Any]
    bot_from: int | None
    moves: int
    first_seq: int


def _stored_rounds(game: Game) -> list[StoredRound]:
    """The game's rounds as stored, in order: the finished rounds' rows, then the round
    being played (a game still playing)."""
    rows = game.played_rounds.order_by("round_index").values_list(
        "round_index", "actions", "bot_from", "moves"
    )
    out: list[StoredRound] = []
    seq = 0
    for round_index, actions, bot_from, moves in rows:
        out.append(StoredRound(round_index, json.loads(actions), bot_from, moves, seq))
        seq += moves
    if game.status != Game.Status.FINISHED:
        module = module_of(game.game)
        variant = module.variant_from_json(game.variant)
        _state, current, own = _current_round(game, module, variant)
        out.append(StoredRound(game.round_index, own, None, len(current), game.seq - len(current)))
    return out


def _replay_stored(game: Game, module: GameModule, variant: Any, stored: StoredRound) -> Any:
    """``engine.record.replay_round`` of a stored round: its bots' moves recomputed."""
    return record.replay_round(
        module,
        variant,
        secret=game.secret_bytes,
        round_index=stored.round_index,
        bot_level=game.bot_level,
        bot_version=game.bot_version,
        own_actions=stored.actions,
        bot_from=stored.bot_from,
    )


@dataclass(frozen=True)
class PlayedMove:
    """One action of a game as rebuilt from what is stored (``game_moves``)."""

    seq: int
    round_index: int
    seat: int
    action: dict[str, Any]
    by_bot: bool


def game_moves(*, game: Game) -> list[PlayedMove]:
    """Every action of the game so far, every seat's, in order: the entrant's as stored,
    the bots' recomputed (a stored round that does not replay stops where it fails)."""
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    out: list[PlayedMove] = []
    for stored in _stored_rounds(game):
        replay = _replay_stored(game, module, variant, stored)
        out.extend(
            PlayedMove(stored.first_seq + i, stored.round_index, a.seat, dict(a.action), a.by_bot)
            for i, a in enumerate(replay.actions)
        )
    return out


def game_replay(*, game: Game, round_index: int, player: str | None = None) -> list[Frame]:
    """Rebuild one round of a game step by step from the secret and the entrant's stored
    actions (the bots' are recomputed: they are deterministic). A round with nothing
    stored is its deal only; a stored action the engine refuses ends the frames. The
    texts name the player's seat ``player`` (``player_name_for``), else "Jij"/"You"."""
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    n = variant.num_players
    stored = next((r for r in _stored_rounds(game) if r.round_index == round_index), None)
    if stored is None:
        deal = module.new_round(variant, secret=game.secret_bytes, round_index=round_index)
        return [Frame(None, None, False, "", "", deal, n)]
    replay = _replay_stored(game, module, variant, stored)
    frames = [Frame(None, None, False, "", "", replay.deal, n)]
    for i, (done, state) in enumerate(zip(replay.actions, replay.states, strict=True)):
        nl, en = describe_action(module.action_from_json(done.action), done.seat, n, player=player)
        frames.append(Frame(stored.first_seq + i, done.seat, done.by_bot, nl, en, state, n))
    return frames


#: Keys of an observation that belong to its seat, not to the table.
_OWN_KEYS = frozenset({"hand", "hand_codes", "legal_actions"})


def _hand_codes(game: str, state: Any, seat: int) -> list[str]:
    """The codes ("7h", "**") of a seat's hand, read straight from the state."""
    from engine.cards import card_code, klaverjas_code

    code = {"jokeren": card_code, "klaverjas": klaverjas_code}.get(game)
    if code is None or not hasattr(state, "hands"):
        return list(state.observation(seat)["hand_codes"])
    return [code(c) for c in state.hands[seat]]


def _view_delta(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from one table view to the next: ``set`` holds the keys with a new
    value, ``extend`` the new tail of a list that only grew (the log, the tricks)."""
    changed: dict[str, Any] = {}
    extended: dict[str, Any] = {}
    for key, value in after.items():
        if key in before and before[key] == value:
            continue
        old = before.get(key)
        if (
            isinstance(value, list)
            and isinstance(old, list)
            and len(old) < len(value)
            and value[: len(old)] == old
        ):
            extended[key] = value[len(old) :]
        else:
            changed[key] = value
    delta: dict[str, Any] = {}
    if changed:
        delta["set"] = changed
    if extended:
        delta["extend"] = extended
    return delta


def replay_frames_json(*, game: Game, frames: Sequence[Frame]) -> list[dict[str, Any]]:
    """The frames of a replay for the page, small: per frame the action, every seat's
    hand (the replay is public only once nobody can still play these deals) and only what
    changed on the table since the frame before (``set`` / ``extend``; the first frame
    sets everything). The table view is what South sees without its own hand; the page
    rebuilds each full view by applying the deltas in order."""
    out: list[dict[str, Any]] = []
    before: dict[str, Any] = {}
    for frame in frames:
        view = {k: v for k, v in frame.state.observation(0).items() if k not in _OWN_KEYS}
        out.append(
            {
                "seq": frame.seq,
                "seat": frame.seat,
                "by_bot": frame.by_bot,
                "text_nl": frame.text_nl,
                "text_en": frame.text_en,
                "hands": [_hand_codes(game.game, frame.state, s) for s in range(frame.num_players)],
                **_view_delta(before, view),
            }
        )
        before = view
    return out


@dataclass(frozen=True)
class Verification:
    secret_hex: str
    commitment: str
    recomputed: str
    matches: bool
    deals: list[dict[str, Any]]


def tournament_verify(*, tournament: Tournament) -> Verification:
    """Recompute a closed tournament's commitment from its revealed secret, and its deals."""
    if tournament.closed_at is None:
        raise TournamentNotOpen.of(_("The secret is revealed when the tournament closes."))
    module = module_of(tournament.game)
    variant = module.variant_from_json(tournament.variant)
    secret = tournament.secret_bytes
    recomputed = dealing.commitment(secret)
    deals = [
        module.deal_summary(variant, secret=secret, round_index=r) for r in range(tournament.rounds)
    ]
    return Verification(
        secret_hex=secret.hex(),
        commitment=tournament.commitment,
        recomputed=recomputed,
        matches=hmac.compare_digest(recomputed, tournament.commitment),
        deals=deals,
    )


# --- Audit ---------------------------------------------------------------------------------


def _game_actions(
    game: Game, fresh: Mapping[int, PlayedRound] | None = None
) -> tuple[list[list[record.RecordedAction]], dict[int, Any], list[str]]:
    """Every action of every stored round, rebuilt from the entrant's actions (the bots'
    recomputed; ``fresh``: rounds this process has just played with the same bots, taken
    as they were played, compared with their stored row instead of replayed), and what
    contradicts the stored rounds: a round missing, an action the engine refuses, a
    round's number of moves, its entrant's actions, the game's ``seq``. Also the state at
    the end of each round rebuilt without a problem (for ``record.verify``)."""
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    stored = _stored_rounds(game)
    played = max([len(game.round_scores), *(r.round_index + 1 for r in stored)])
    actions: list[list[record.RecordedAction]] = [[] for _ in range(played)]
    problems: list[str] = []
    final: dict[int, Any] = {}
    present = {r.round_index for r in stored}
    problems.extend(f"round {r + 1} is not stored" for r in range(played) if r not in present)
    for row in stored:
        where = f"round {row.round_index + 1}"
        played_now = (fresh or {}).get(row.round_index)
        if played_now is not None:
            actions[row.round_index] = list(played_now.actions)
            final[row.round_index] = played_now.final_state
            if _own_actions(played_now.actions, row.bot_from) != list(row.actions):
                problems.append(f"{where}: the stored actions are not the ones played")
            if len(played_now.actions) != row.moves:
                problems.append(
                    f"{where}: {row.moves} moves stored, the round had {len(played_now.actions)}"
                )
            continue
        replay = _replay_stored(game, module, variant, row)
        actions[row.round_index] = list(replay.actions)
        if replay.problem is None:
            final[row.round_index] = replay.final_state
        if replay.problem is not None:
            problems.append(f"{where}: {replay.problem}")
        elif len(replay.actions) != row.moves:
            problems.append(
                f"{where}: {row.moves} moves stored, the replay makes {len(replay.actions)}"
            )
    stored_moves = sum(r.moves for r in stored)
    if game.seq != stored_moves:
        problems.append(f"seq is {game.seq}, the stored rounds hold {stored_moves} moves")
    return actions, final, problems


def _own_actions(actions: Sequence[record.RecordedAction], bot_from: int | None) -> list[Any]:
    """The entrant's own actions among a round's (what its ``GameRound`` row keeps): seat
    0's, up to the ``bot_from``-th when the bot took over."""
    own = [dict(a.action) for a in actions if a.seat == PLAYER_SEAT and not a.by_bot]
    return own if bot_from is None else own[:bot_from]


def game_record(*, game: Game) -> record.GameRecord:
    """The game as a game record (docs/game-record.md): its variant, bots' level and
    secret, every action by round (the entrant's as stored, the bots' recomputed), and
    the scores and totals stored for it."""
    actions, _final, _problems = _game_actions(game)
    return _game_record(game, actions)


def _game_record(game: Game, actions: list[list[record.RecordedAction]]) -> record.GameRecord:
    tournament = game.tournament
    return record.build_record(
        game=game.game,
        variant=game.variant,
        bot_level=game.bot_level,
        bot_version=game.bot_version,
        secret=game.secret_bytes,
        rounds=game.rounds,
        actions=actions,
        round_scores=game.round_scores,
        totals=game.totals,
        context={
            "game_id": game.pk,
            "player": game.user.get_username(),
            "preset": game.preset,
            "tournament": {"id": tournament.pk, "name": tournament.name} if tournament else None,
            "bot_finished": game.bot_finished,
            "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        },
    )


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


def _audit_problems(g: Game, fresh: Mapping[int, PlayedRound] | None = None) -> list[str]:
    """Replay ``g`` through the engine from the entrant's stored actions
    (``engine.record.verify``) and compare: every stored round is there and replays with
    its number of moves, ``seq``, every round's scores, the totals, and the stored state
    with the replay's last one. The bots' actions and each round's end come from the
    replay itself (``_game_actions``), so ``verify`` neither chooses nor applies them
    again."""
    try:
        actions, final, problems = _game_actions(g, fresh)
        verification = record.verify(_game_record(g, actions), check_bots=False, final_states=final)
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
    """Keep the audit's finding on the game's entry (practice games have none). A mismatch
    an organizer resolved stays resolved while the audit finds exactly the same."""
    audit = GameAudit(game_id=g.pk, entry_id=g.entry_id, problems=problems)
    if g.entry_id is None:
        return audit
    detail = "\n".join(problems)
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=g.entry_id)
        was_under_review = entry.under_review
        if not problems:
            entry.audit_status = Entry.AuditStatus.OK
            entry.audit_resolved_by = None
        elif entry.audit_status != Entry.AuditStatus.RESOLVED or entry.audit_detail != detail:
            entry.audit_status = Entry.AuditStatus.MISMATCH
            entry.audit_resolved_by = None
        entry.audit_detail = detail
        entry.audited_at = timezone.now()
        entry.save(
            update_fields=["audit_status", "audit_detail", "audited_at", "audit_resolved_by"]
        )
        if entry.under_review != was_under_review:
            entry_results_update(game=g)
    return audit


def _audit(game_id: int, fresh: Mapping[int, PlayedRound] | None = None) -> GameAudit:
    g = Game.objects.select_related("entry__tournament", "user").get(pk=game_id)
    if g.status != Game.Status.FINISHED:
        raise GameNotFinished.of(_("Only a finished game can be audited."))
    return _audit_store(g, _audit_problems(g, fresh))


def game_audit(*, game_id: int) -> GameAudit:
    """Rebuild a finished game from its secret and move log through the engine and compare
    it with what is stored; keep the finding on its entry (a mismatch takes the entry out
    of the ranking until it is resolved). Raises ``GameNotFinished``."""
    return _audit(game_id)


def tournament_audit(*, tournament_id: int) -> list[GameAudit]:
    """``game_audit`` for every finished game of a tournament (the close runs it)."""
    game_ids = Game.objects.filter(
        entry__tournament_id=tournament_id, status=Game.Status.FINISHED
    ).order_by("pk")
    return [_audit(game_id) for game_id in game_ids.values_list("pk", flat=True)]


def games_audit(*, tournament_id: int | None = None) -> list[GameAudit]:
    """``game_audit`` for every finished game, practice games too, or a tournament's."""
    if tournament_id is not None:
        return tournament_audit(tournament_id=tournament_id)
    game_ids = Game.objects.filter(status=Game.Status.FINISHED).order_by("pk")
    return [_audit(game_id) for game_id in game_ids.values_list("pk", flat=True)]


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
    return entry
