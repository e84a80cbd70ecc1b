"""The use cases of the site. Every write goes through here, inside a transaction.

The game's rules are in ``engine``; this module never branches on a game's name except
to pick its module with ``engine.registry.game_module``. Seat 0 (South) is the player;
the other seats are bots (``module.bot_action`` at the tournament's bot level).
"""

from __future__ import annotations

import dataclasses
import hmac
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from engine import dealing
from engine.errors import IllegalMove
from engine.protocol import GameModule
from engine.registry import GAMES, game_module
from tournaments.models import MAX_ROUNDS, Entry, Game, Move, Tournament

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


class IllegalMoveError(ServiceError):
    """The engine refused the action (``engine.errors.IllegalMove``)."""

    code = "illegal_move"

    @classmethod
    def from_engine(cls, exc: IllegalMove) -> IllegalMoveError:
        return cls(exc.nl, exc.en, code=exc.code)


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
    except (ValueError, KeyError, TypeError) as exc:
        raise InvalidSettings.of(_("Invalid variant settings: %(reason)s"), reason=exc) from exc


def _check_rounds(rounds: int) -> None:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidSettings.of(
            _("The number of rounds must be between 1 and %(max)s."), max=MAX_ROUNDS
        )


def _check_bot_level(module: GameModule, bot_level: str) -> None:
    if bot_level not in module.BOT_LEVELS:
        raise InvalidSettings.of(_("Unknown bot level: %(level)s."), level=bot_level)


def _check_window(opens_at: datetime, closes_at: datetime) -> None:
    if closes_at <= opens_at:
        raise InvalidSettings.of(_("The closing time must be after the opening time."))


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
) -> Tournament:
    """A new tournament with a fresh 32-byte secret and its commitment (RULES.md §5)."""
    module = module_of(game)
    _check_rounds(rounds)
    level = bot_level if bot_level is not None else module.DEFAULT_BOT_LEVEL
    _check_bot_level(module, level)
    _check_window(opens_at, closes_at)
    if max_entrants < 1:
        raise InvalidSettings.of(_("A tournament needs room for at least one entrant."))
    variant_json = _variant_for(module, preset, variant, rounds)
    secret = dealing.new_secret()
    with transaction.atomic():
        return Tournament.objects.create(
            name=name,
            game=game,
            preset=preset,
            variant=variant_json,
            rounds=rounds,
            max_entrants=max_entrants,
            bot_level=level,
            opens_at=opens_at,
            closes_at=closes_at,
            secret=secret,
            commitment=dealing.commitment(secret),
            created_by=created_by,
        )


_GAME_FIELDS = ("game", "preset", "variant", "rounds", "bot_level")


def tournament_update(*, tournament: Tournament, **changes: Any) -> Tournament:
    """Change a tournament's settings. Name, window and maximum can change until it closes;
    the game, variant, rounds and bot level only while nobody has entered (every entrant
    must play the same game). The secret never changes."""
    allowed = {"name", "max_entrants", "opens_at", "closes_at", *_GAME_FIELDS}
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
        if t.max_entrants < max(1, entrants):
            raise InvalidSettings.of(
                _("The maximum cannot be below the %(count)s entrants already in."),
                count=entrants,
            )
        t.variant = _variant_for(module, t.preset, t.variant, t.rounds)
        t.save()
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


def tournament_close(*, tournament_id: int) -> Tournament:
    """Close a tournament: end its window, let the bot play every unfinished game to the
    end in the entrant's seat (marked ``bot_finished``), then reveal the secret
    (``closed_at``). Idempotent."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.closed_at is not None:
            return t
        _end_window(t)
    unfinished = Game.objects.filter(
        entry__tournament_id=tournament_id, status=Game.Status.PLAYING
    ).values_list("pk", flat=True)
    for game_id in list(unfinished):
        game_bot_finish(game_id=game_id)
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if t.closed_at is None:
            t.closed_at = timezone.now()
            t.save(update_fields=["closed_at", "updated_at"])
        _standings_changed(t)
    return t


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
    (round 0 dealt, the bots before South have played)."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not t.window_open():
            raise TournamentNotOpen.of(_("This tournament is not open for entries."))
        if Entry.objects.filter(tournament=t, user=user).exists():
            raise AlreadyEntered.of(_("You have already entered this tournament."))
        if t.entries.count() >= t.max_entrants:
            raise TournamentFull.of(_("This tournament is full."))
        entry = Entry.objects.create(tournament=t, user=user)
        _game_start(
            user=user,
            entry=entry,
            game=t.game,
            preset=t.preset,
            variant=t.variant,
            rounds=t.rounds,
            bot_level=t.bot_level,
            secret=None,
            deal_secret=t.secret_bytes,
        )
        _standings_changed(t)
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
            secret=secret,
            deal_secret=secret,
        )
    return g


@dataclass
class _Run:
    """A game being advanced inside one transaction."""

    game: Game
    module: GameModule
    variant: Any
    secret: bytes
    state: Any
    moves: list[Move] = dataclasses.field(default_factory=list)
    events: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    rounds_done: int = 0


def _game_start(
    *,
    user: User,
    entry: Entry | None,
    game: str,
    preset: str,
    variant: Mapping[str, Any],
    rounds: int,
    bot_level: str,
    secret: bytes | None,
    deal_secret: bytes,
) -> tuple[Game, list[dict[str, Any]]]:
    module = module_of(game)
    v = module.variant_from_json(variant)
    state = module.new_round(v, secret=deal_secret, round_index=0)
    g = Game(
        user=user,
        entry=entry,
        game=game,
        preset=preset,
        variant=dict(variant),
        rounds=rounds,
        bot_level=bot_level,
        secret=secret,
        state=state.to_json(),
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
    return dict(run.state.observation(PLAYER_SEAT))


def _record(run: _Run, action: Any, *, seat: int, by_bot: bool) -> None:
    """Apply ``action`` through the engine (an ``IllegalMove`` leaves the run unchanged),
    then log it and add its event."""
    g = run.game
    after = run.state.apply(action)
    nl, en = describe_action(action, seat, run.variant.num_players)
    run.moves.append(
        Move(
            game=g,
            seq=g.seq,
            round_index=g.round_index,
            seat=seat,
            action=action.to_json(),
            by_bot=by_bot,
        )
    )
    g.seq += 1
    run.state = after
    run.events.append(
        {
            "seat": seat,
            "action": action.to_json(),
            "text_nl": nl,
            "text_en": en,
            "observation": _observe(run),
        }
    )


def describe_action(action: Any, seat: int, num_players: int) -> tuple[str, str]:
    """The action in words, Dutch and English, after the seat's name: the game module's
    ``describe(action) -> (nl, en)`` where it has one, else the action's JSON."""
    names_nl = seat_names("nl", num_players)
    names_en = seat_names("en", num_players)
    describe = getattr(sys.modules.get(type(action).__module__), "describe", None)
    if callable(describe):
        nl, en = describe(action)
    else:
        body = action.to_json()
        nl = en = " ".join(f"{v}" for v in body.values())
    return f"{names_nl[seat]}: {nl}", f"{names_en[seat]}: {en}"


def seat_names(language: str, num_players: int = 4) -> list[str]:
    """The seats' names in a language: the player, then clockwise."""
    names = [_("You"), _("West"), _("North"), _("East")]
    with translation.override(language):
        out = [str(n) for n in names]
    if num_players == 3:
        return [out[0], out[1], out[3]]
    return out[:num_players]


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
            run.events.append(
                {
                    "type": "round_over",
                    "round": g.round_index,
                    "scores": scores,
                    "hands": _revealed_hands(run.state, run.variant.num_players),
                    "result": outcome,
                }
            )
            if _game_over(run):
                _finish(g)
                return
            g.round_index += 1
            run.state = run.module.new_round(
                run.variant, secret=run.secret, round_index=g.round_index
            )
            continue
        seat = run.state.current_player
        if seat not in bot_seats:
            return
        action = run.module.bot_action(run.state, level=g.bot_level)
        _record(run, action, seat=seat, by_bot=True)


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
    if len(g.round_scores) >= g.rounds:
        return True
    game_over = getattr(run.module, "game_over", None)
    if callable(game_over):
        return bool(
            game_over(run.variant, rounds_played=len(g.round_scores), totals=list(g.totals))
        )
    return False


def _revealed_hands(state: Any, num_players: int) -> list[Any]:
    """Each seat's remaining cards at the end of a round (what the round's scoring shows)."""
    return [state.observation(seat).get("hand", []) for seat in range(num_players)]


def _finish(g: Game) -> None:
    g.status = Game.Status.FINISHED
    g.finished_at = timezone.now()


def _store(run: _Run) -> None:
    g = run.game
    g.state = run.state.to_json()
    Move.objects.bulk_create(run.moves)
    g.save()
    if run.rounds_done and g.entry_id is not None:
        _standings_changed(g.entry.tournament)  # type: ignore[union-attr]


def game_finish(*, game: Game) -> Game:
    """Mark a game whose last round is over as finished (idempotent)."""
    with transaction.atomic():
        g = Game.objects.select_for_update().get(pk=game.pk)
        if g.status != Game.Status.FINISHED and len(g.round_scores) >= g.rounds:
            _finish(g)
            g.save(update_fields=["status", "finished_at", "updated_at"])
    game.refresh_from_db()
    return game


@dataclass(frozen=True)
class MoveOutcome:
    game: Game
    events: list[dict[str, Any]]


def game_play_move(*, game_id: int, user: User, seq: int, action: Mapping[str, Any]) -> MoveOutcome:
    """Play the player's ``action`` in their game, then the bots until it is the player's
    turn again or the game is over.

    Raises ``Game.DoesNotExist`` (not the user's game), ``StaleMove`` (``seq`` is not the
    current one: nothing stored), ``IllegalMoveError`` (the engine refused it, with its
    reason: nothing stored), ``GameFinished`` and ``TournamentClosed``.
    """
    try:
        with transaction.atomic():
            g = (
                Game.objects.select_for_update(of=("self",))
                .select_related("entry__tournament")
                .get(pk=game_id, user=user)
            )
            if g.seq != seq:
                raise StaleMove.at(g.seq)
            if g.status == Game.Status.FINISHED:
                raise GameFinished.of(_("This game is over."))
            t = g.tournament
            if t is not None and not t.window_open():
                raise TournamentClosed.of(_("This tournament is closed for play."))
            module = module_of(g.game)
            variant = module.variant_from_json(g.variant)
            state = module.state_from_json(g.state)
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
            run = _Run(game=g, module=module, variant=variant, secret=g.secret_bytes, state=state)
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
    return MoveOutcome(game=g, events=run.events)


def game_bot_finish(*, game_id: int) -> Game:
    """Play an unfinished game to its end with the bot in every seat, the player's too,
    and mark it ``bot_finished`` (RULES.md §4, platform)."""
    with transaction.atomic():
        g = (
            Game.objects.select_for_update(of=("self",))
            .select_related("entry__tournament")
            .get(pk=game_id)
        )
        if g.status == Game.Status.FINISHED:
            return g
        module = module_of(g.game)
        variant = module.variant_from_json(g.variant)
        run = _Run(
            game=g,
            module=module,
            variant=variant,
            secret=g.secret_bytes,
            state=module.state_from_json(g.state),
        )
        _advance(run, bot_seats=frozenset(range(variant.num_players)))
        g.bot_finished = True
        _store(run)
    return g


# --- Results ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Standing:
    rank: int | None
    entry_id: int
    user_id: int
    username: str
    game_id: int
    total: int
    opponents_average: float
    result: float | None
    rounds_played: int
    finished: bool
    bot_finished: bool


def _result_key(value: float) -> float:
    # Results are averages of integers: equal results may differ in the last float bit.
    return round(value, 9)


def opponents_of(total: int, result: float) -> float:
    """What the player's total is measured against: ``total - result``. With the game
    module's ``results`` that is the opponents' average (Jokeren) or the other team's
    points (Klaverjassen), without knowing which game it is."""
    return round(total - result, 9)


def game_result(game: Game) -> tuple[int, float, float]:
    """(own total, opponents' average, duplicate result) of seat 0, from the game module's
    ``results(totals)``."""
    module = module_of(game.game)
    totals = [int(t) for t in game.totals]
    result = float(module.results(totals)[0])
    return totals[0], opponents_of(totals[0], result), result


def rank_values(values: Sequence[float | None], *, lower_is_better: bool) -> list[int | None]:
    """Competition ranking ("1, 2, 2, 4"): equal values share a rank; ``None`` is unranked."""
    ranked = sorted((_result_key(v), i) for i, v in enumerate(values) if v is not None)
    if not lower_is_better:
        ranked.sort(key=lambda kv: -kv[0])
    out: list[int | None] = [None] * len(values)
    previous: float | None = None
    rank = 0
    for position, (value, index) in enumerate(ranked, start=1):
        if value != previous:
            rank = position
            previous = value
        out[index] = rank
    return out


def _standings_key(t: Tournament) -> str:
    return f"standings:{t.pk}:{t.commitment[:16]}"


def _standings_compute(t: Tournament) -> list[Standing]:
    module = module_of(t.game)
    games = list(
        Game.objects.filter(entry__tournament=t).select_related("user").order_by("entry_id")
    )
    rows = []
    for g in games:
        total, average, result = game_result(g)
        played = len(g.round_scores)
        rows.append((g, total, average, result if played else None, played))
    ranks = rank_values([r[3] for r in rows], lower_is_better=module.LOWER_IS_BETTER)
    standings = [
        Standing(
            rank=rank,
            entry_id=g.entry_id,  # type: ignore[arg-type]
            user_id=g.user_id,
            username=g.user.get_username(),
            game_id=g.pk,
            total=total,
            opponents_average=average,
            result=result,
            rounds_played=played,
            finished=g.status == Game.Status.FINISHED,
            bot_finished=g.bot_finished,
        )
        for (g, total, average, result, played), rank in zip(rows, ranks, strict=True)
    ]
    standings.sort(key=lambda s: (s.rank is None, s.rank or 0, s.username.lower()))
    return standings


def standings(*, tournament: Tournament) -> list[Standing]:
    """The leaderboard: rank (equal results share a rank; entrants without a finished round
    are unranked, at the bottom), result, own total, opponents' average, rounds played.
    Served from the cache that ``standings_refresh`` fills; computed when missing."""
    key = _standings_key(tournament)
    cached = cache.get(key)
    if cached is not None:
        return [Standing(**row) for row in cached]
    return standings_refresh(tournament=tournament)


def standings_refresh(*, tournament: Tournament) -> list[Standing]:
    """Recompute a tournament's standings and keep them in the cache."""
    rows = _standings_compute(tournament)
    cache.set(_standings_key(tournament), [dataclasses.asdict(s) for s in rows], 3600)
    return rows


def _standings_changed(t: Tournament) -> None:
    from tournaments import tasks

    key = _standings_key(t)
    # Now (for readers inside this transaction) and again after the commit (a reader in
    # between may have cached the old standings).
    cache.delete(key)
    transaction.on_commit(lambda: cache.delete(key))
    # A DjangoTask at run time (see tournament_close_early).
    tasks.tournament_standings_refresh.delay_on_commit(t.pk)  # type: ignore[attr-defined]


def player_rank(*, game: Game) -> int | None:
    """The rank so far of a tournament game's player (``None`` for practice)."""
    t = game.tournament
    if t is None:
        return None
    for s in standings(tournament=t):
        if s.game_id == game.pk:
            return s.rank
    return None


@dataclass(frozen=True)
class DealRow:
    username: str
    game_id: int
    score: int
    opponents_average: float
    result: float
    rank: int | None


def deal_results(*, tournament: Tournament) -> list[list[DealRow]]:
    """Per round, how the field did on that same deal: each entrant who finished the
    round, with their score, the opponents' average and the round's result, ranked."""
    module = module_of(tournament.game)
    games = list(
        Game.objects.filter(entry__tournament=tournament).select_related("user").order_by("pk")
    )
    out: list[list[DealRow]] = []
    for r in range(tournament.rounds):
        rows = []
        for g in games:
            if r < len(g.round_scores):
                scores = [int(s) for s in g.round_scores[r]]
                result = float(module.results(scores)[0])
                rows.append((g, scores[0], opponents_of(scores[0], result), result))
        ranks = rank_values([row[3] for row in rows], lower_is_better=module.LOWER_IS_BETTER)
        deal = [
            DealRow(g.user.get_username(), g.pk, score, avg, res, rank)
            for (g, score, avg, res), rank in zip(rows, ranks, strict=True)
        ]
        deal.sort(key=lambda d: (d.rank or 0, d.username.lower()))
        out.append(deal)
    return out


# --- Replay and verification ----------------------------------------------------------------


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


def game_replay(*, game: Game, round_index: int) -> list[Frame]:
    """Rebuild one round of a game from the secret and the move log, step by step."""
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    state = module.new_round(variant, secret=game.secret_bytes, round_index=round_index)
    n = variant.num_players
    frames = [Frame(None, None, False, "", "", state, n)]
    for move in game.moves.filter(round_index=round_index).order_by("seq"):
        action = module.action_from_json(move.action)
        nl, en = describe_action(action, move.seat, n)
        state = state.apply(action)
        frames.append(Frame(move.seq, move.seat, move.by_bot, nl, en, state, n))
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
