"""Game records: a finished game as one JSON document, and its verification by replay.

A record holds everything needed to rebuild a game without the site: the game and its
full variant, the bots' level and version, the revealed secret and its commitment, every action of
every round with the seat that made it, and the scores the site recorded. ``verify``
deals every round again from the secret (docs/rules.md §5), applies the actions in order
through the engine, checks that each bot action is the bot's own choice (the bots are
deterministic), and compares each round's scores and the totals with the record's.
The format is documented in docs/game-record.md; the site exports it (replay page) and
audits its stored games with the same ``verify``; ``python -m engine verify-game FILE``
runs it on a file.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.dealing import commitment, copy_secret, pool_copy
from engine.errors import IllegalMove
from engine.match import bot_move
from engine.protocol import GameModule
from engine.registry import GAMES, game_module

#: The ``format`` of a record this module writes and reads.
FORMAT = "jokeren-game-record/1"
#: The fields every record has (``player_seat`` and ``context`` are optional).
REQUIRED: tuple[str, ...] = ("game", "variant", "bot_level", "secret", "commitment")
REQUIRED += ("rounds", "actions", "round_scores", "totals")
#: The bots' version of a record without ``bot_version`` (written before versions existed,
#: when every game had the bots of version 1).
UNVERSIONED_BOT_VERSION = 1
#: The seat of the entrant (the other seats are bots); its actions need not be a bot's.
PLAYER_SEAT = 0


class RecordError(ValueError):
    """A document that is not a game record this module can read (the reason in English)."""


@dataclass(frozen=True)
class RecordedAction:
    """One action of a round: who made it, the action's JSON, and whether a bot chose it
    (the opponents always; the player's seat when the bot finished the game)."""

    seat: int
    action: Mapping[str, Any]
    by_bot: bool

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "action": dict(self.action), "by_bot": self.by_bot}


@dataclass(frozen=True)
class Pool:
    """A game of a pooled tournament (docs/rules.md §5, "Deal pools"): its entry's number
    and the copies of each round; its copy of round r is
    ``engine.dealing.pool_copy(secret, entry=entry, round_index=r, copies=copies)``."""

    entry: int
    copies: int

    def copy_of(self, secret: bytes, round_index: int) -> int:
        return pool_copy(secret, entry=self.entry, round_index=round_index, copies=self.copies)

    def to_json(self) -> dict[str, int]:
        return {"entry": self.entry, "copies": self.copies}


@dataclass(frozen=True)
class GameRecord:
    game: str
    variant: Mapping[str, Any]
    bot_level: str
    secret: bytes
    commitment: str
    rounds: int
    actions: Sequence[Sequence[RecordedAction]]
    round_scores: Sequence[Sequence[int]]
    totals: Sequence[int]
    context: Mapping[str, Any]
    #: The bots' version the game was played with (the game module's ``BOT_VERSIONS``).
    bot_version: int = UNVERSIONED_BOT_VERSION
    #: The deal pool the game was played in (``None``: none, every round dealt from
    #: ``secret``).
    pool: Pool | None = None

    def round_secret(self, round_index: int) -> bytes:
        """The secret round ``round_index`` is dealt from: its copy's in a deal pool."""
        if self.pool is None:
            return self.secret
        return copy_secret(self.secret, self.pool.copy_of(self.secret, round_index))

    def to_json(self) -> dict[str, Any]:
        pool = {} if self.pool is None else {"pool": self.pool.to_json()}
        return {
            "format": FORMAT,
            "game": self.game,
            "variant": dict(self.variant),
            "bot_level": self.bot_level,
            "bot_version": self.bot_version,
            "secret": self.secret.hex(),
            "commitment": self.commitment,
            "player_seat": PLAYER_SEAT,
            "rounds": self.rounds,
            "actions": [[a.to_json() for a in round_actions] for round_actions in self.actions],
            "round_scores": [list(scores) for scores in self.round_scores],
            "totals": list(self.totals),
            "context": dict(self.context),
            **pool,
        }


def build_record(
    *,
    game: str,
    variant: Mapping[str, Any],
    bot_level: str,
    bot_version: int,
    secret: bytes,
    rounds: int,
    actions: Sequence[Sequence[RecordedAction]],
    round_scores: Sequence[Sequence[int]],
    totals: Sequence[int],
    context: Mapping[str, Any] | None = None,
    pool: Pool | None = None,
) -> GameRecord:
    """A record of a game as stored (nothing is checked here: ``verify`` does that)."""
    return GameRecord(
        game=game,
        variant=dict(variant),
        bot_level=bot_level,
        bot_version=bot_version,
        secret=secret,
        commitment=commitment(secret),
        rounds=rounds,
        actions=[list(r) for r in actions],
        round_scores=[[int(s) for s in scores] for scores in round_scores],
        totals=[int(t) for t in totals],
        context=dict(context or {}),
        pool=pool,
    )


# --- Rebuilding a round from the entrant's actions ----------------------------------------


@dataclass(frozen=True)
class RoundReplay:
    """A round rebuilt from the entrant's own actions: every action in order (the bots'
    recomputed) with the state after it, and what went wrong (``None``: nothing)."""

    deal: Any
    actions: tuple[RecordedAction, ...]
    states: tuple[Any, ...]
    problem: str | None

    @property
    def final_state(self) -> Any:
        return self.states[-1] if self.states else self.deal


def replay_round(
    module: GameModule,
    variant: Any,
    *,
    secret: bytes,
    round_index: int,
    bot_level: str,
    bot_version: int,
    own_actions: Sequence[Mapping[str, Any]],
    bot_from: int | None = None,
    dealt: Any | None = None,
) -> RoundReplay:
    """Deal round ``round_index`` from the secret and play it: the bots (of ``bot_level``
    and ``bot_version``, the game's) choose every other seat's action (they are
    deterministic), seat 0 plays ``own_actions`` in order, and from its ``bot_from``-th
    action on (the bot took over the entrant's seat) the bot plays seat 0 too. Stops when
    the round is over, or when seat 0 is to move and its actions are used up (a round
    still being played). An action that cannot be read or is illegal, or actions left over
    after the round ended, are the ``problem``. ``dealt``: the round as
    ``module.new_round`` deals it from these arguments, where the caller keeps it (the
    engine's states are immutable)."""
    deal = (
        dealt
        if dealt is not None
        else module.new_round(variant, secret=secret, round_index=round_index)
    )
    state = deal
    done: list[RecordedAction] = []
    states: list[Any] = []
    used = 0
    seat0 = 0
    while not state.is_terminal:
        seat = state.current_player
        by_bot = seat != PLAYER_SEAT or (bot_from is not None and seat0 >= bot_from)
        if by_bot:
            # the bot's move as the site makes it: its choice, or its simplest legal
            # action where the engine refuses that choice (engine.match.bot_move)
            move = bot_move(module, state, level=bot_level, version=bot_version)
            action, state = move.action, move.state
        elif used >= len(own_actions):
            break
        else:
            try:
                action = module.action_from_json(own_actions[used])
            except (IllegalMove, ValueError, KeyError, TypeError, AttributeError) as exc:
                problem = f"the player's action {used + 1} cannot be read: {exc}"
                return RoundReplay(deal, tuple(done), tuple(states), problem)
            used += 1
            try:
                state = state.apply(action)
            except IllegalMove as exc:
                problem = f"action {len(done) + 1} (seat {seat}) is illegal: {exc.en}"
                return RoundReplay(deal, tuple(done), tuple(states), problem)
        if seat == PLAYER_SEAT:
            seat0 += 1
        done.append(RecordedAction(seat, action.to_json(), by_bot))
        states.append(state)
    left = len(own_actions) - used
    extra = f"{left} of the player's actions come after the round ended" if left else None
    return RoundReplay(deal, tuple(done), tuple(states), extra)


# --- Reading ------------------------------------------------------------------------------


def _int(value: Any, what: str, *, low: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{what} must be an integer")
    if low is not None and value < low:
        raise RecordError(f"{what} must be at least {low}")
    return value


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list")
    return value


def _ints(value: Any, what: str) -> list[int]:
    return [_int(v, f"{what}[{i}]") for i, v in enumerate(_list(value, what))]


def read_record(data: Any) -> GameRecord:
    """The record in ``data`` (parsed JSON); raises ``RecordError`` saying what is wrong."""
    if not isinstance(data, Mapping):
        raise RecordError("a game record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    missing = [key for key in REQUIRED if key not in data]
    if missing:
        raise RecordError(f"missing field(s): {', '.join(missing)}")
    game = data["game"]
    if game not in GAMES:
        raise RecordError(f"game must be one of {', '.join(GAMES)}, not {game!r}")
    module = game_module(game)
    if not isinstance(data["variant"], Mapping):
        raise RecordError("variant must be a JSON object")
    try:
        variant = module.variant_from_json(data["variant"])
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise RecordError(f"variant is not a valid {game} variant: {exc}") from None
    if data["bot_level"] not in module.BOT_LEVELS:
        raise RecordError(f"bot_level must be one of {', '.join(module.BOT_LEVELS)}")
    bot_version = data.get("bot_version", UNVERSIONED_BOT_VERSION)
    if isinstance(bot_version, bool) or bot_version not in module.BOT_VERSIONS:
        versions = ", ".join(str(v) for v in module.BOT_VERSIONS)
        raise RecordError(
            f"bot_version {bot_version!r} is not one this engine plays ({versions}): "
            "verify the record with an engine that has its bots"
        )
    secret_text = data["secret"]
    try:
        secret = bytes.fromhex(secret_text) if isinstance(secret_text, str) else b""
    except ValueError:
        secret = b""
    if not secret:
        raise RecordError("secret must be the revealed secret in hexadecimal")
    if not isinstance(data["commitment"], str):
        raise RecordError("commitment must be a hexadecimal string")
    if data.get("player_seat", PLAYER_SEAT) != PLAYER_SEAT:
        raise RecordError(f"player_seat must be {PLAYER_SEAT}")
    actions: list[list[RecordedAction]] = []
    for r, round_actions in enumerate(_list(data["actions"], "actions")):
        row = []
        for i, item in enumerate(_list(round_actions, f"actions[{r}]")):
            where = f"actions[{r}][{i}]"
            if not isinstance(item, Mapping) or not isinstance(item.get("action"), Mapping):
                raise RecordError(f"{where} must be an object with seat, action and by_bot")
            by_bot = item.get("by_bot")
            if not isinstance(by_bot, bool):
                raise RecordError(f"{where}.by_bot must be true or false")
            seat = _int(item.get("seat"), f"{where}.seat", low=0)
            row.append(RecordedAction(seat=seat, action=dict(item["action"]), by_bot=by_bot))
        actions.append(row)
    round_scores = [
        _ints(s, f"round_scores[{r}]")
        for r, s in enumerate(_list(data["round_scores"], "round_scores"))
    ]
    n = int(variant.num_players)
    for r, scores in enumerate(round_scores):
        if len(scores) != n:
            raise RecordError(f"round_scores[{r}] must have {n} scores, one per seat")
    totals = _ints(data["totals"], "totals")
    if len(totals) != n:
        raise RecordError(f"totals must have {n} scores, one per seat")
    context = data.get("context", {})
    pool = None
    if data.get("pool") is not None:
        if not isinstance(data["pool"], Mapping):
            raise RecordError("pool must be an object with entry and copies")
        pool = Pool(
            entry=_int(data["pool"].get("entry"), "pool.entry", low=0),
            copies=_int(data["pool"].get("copies"), "pool.copies", low=1),
        )
    return GameRecord(
        game=game,
        variant=dict(data["variant"]),
        bot_level=data["bot_level"],
        bot_version=int(bot_version),
        secret=secret,
        commitment=data["commitment"],
        rounds=_int(data["rounds"], "rounds", low=1),
        actions=actions,
        round_scores=round_scores,
        totals=totals,
        context=dict(context) if isinstance(context, Mapping) else {},
        pool=pool,
    )


# --- Verifying ----------------------------------------------------------------------------

NOT_OVER = "the round is not over after its last action"


def game_is_over(
    module: GameModule, variant: Any, *, rounds: int, round_scores: Sequence[Sequence[int]]
) -> bool:
    """All ``rounds`` rounds played, or the game module's own end (``game_over``, e.g. a
    Klaverjas points limit) where the module has one."""
    if len(round_scores) >= rounds:
        return True
    game_over = getattr(module, "game_over", None)
    if not callable(game_over):
        return False
    totals = [sum(column) for column in zip(*round_scores, strict=True)] if round_scores else []
    return bool(game_over(variant, rounds_played=len(round_scores), totals=totals))


@dataclass(frozen=True)
class RoundCheck:
    """One round replayed: the record's scores, the replay's (``None`` when the replay
    could not reach the round's end) and what went wrong (empty when it matches)."""

    round_index: int
    claimed: list[int] | None
    replayed: list[int] | None
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


@dataclass(frozen=True)
class Verification:
    """The whole record replayed. ``final_state`` is the state after the last action of
    the last round (``None`` when that round could not be replayed)."""

    rounds: list[RoundCheck]
    totals_claimed: list[int]
    totals_replayed: list[int]
    commitment_ok: bool
    problems: list[str]
    final_state: Any

    @property
    def ok(self) -> bool:
        return self.commitment_ok and not self.problems and all(r.ok for r in self.rounds)

    def all_problems(self) -> list[str]:
        """Every problem, the rounds' first, each naming its round (from 1)."""
        out = [f"round {r.round_index + 1}: {p}" for r in self.rounds for p in r.problems]
        if not self.commitment_ok:
            out.append("the secret does not match the commitment")
        return [*out, *self.problems]


def _replay_round(
    module: GameModule,
    variant: Any,
    record: GameRecord,
    round_index: int,
    *,
    check_bots: bool = True,
) -> tuple[Any, list[str]]:
    """The state after the round's recorded actions, and the first thing wrong with them
    (an action by the wrong seat, an illegal one, a bot's that is not the bot's choice
    (with ``check_bots``), an action after the round ended, or a round not over after its
    last action)."""
    state = module.new_round(
        variant, secret=record.round_secret(round_index), round_index=round_index
    )
    for i, recorded in enumerate(record.actions[round_index]):
        where = f"action {i + 1} (seat {recorded.seat})"
        if state.is_terminal:
            return None, [f"{where} comes after the round ended"]
        if recorded.seat != state.current_player:
            return None, [f"{where}: seat {state.current_player} is to move"]
        if not recorded.by_bot and recorded.seat != PLAYER_SEAT:
            return None, [f"{where}: only seat {PLAYER_SEAT} is not a bot"]
        try:
            action = module.action_from_json(recorded.action)
            if recorded.by_bot and check_bots:
                # the bot's move as the site makes it: its choice, or its simplest legal
                # action where the engine refuses that choice (engine.match.bot_move)
                chosen = bot_move(
                    module, state, level=record.bot_level, version=record.bot_version
                ).action
                if chosen.to_json() != action.to_json():
                    return None, [
                        f"{where} is not the bot's choice {chosen.to_json()}: "
                        f"{dict(recorded.action)}"
                    ]
            state = state.apply(action)
        except IllegalMove as exc:
            return None, [f"{where} is illegal: {exc.en}"]
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            return None, [f"{where} cannot be read: {exc}"]
    if not state.is_terminal:
        return state, [NOT_OVER]
    return state, []


def verify(
    record: GameRecord,
    *,
    check_bots: bool = True,
    final_states: Mapping[int, Any] | None = None,
) -> Verification:
    """Replay ``record`` through the engine and compare it with what it claims.
    ``check_bots=False``: the caller made the bots' actions itself with ``bot_move`` (the
    site's audit rebuilds them by ``replay_round``), so they are applied, not chosen
    again; ``final_states``: the state after the last action of those rounds the caller
    has applied already (``replay_round``), which are then not applied again."""
    module = game_module(record.game)
    variant = module.variant_from_json(record.variant)
    problems: list[str] = []
    commitment_ok = hmac.compare_digest(
        hashlib.sha256(record.secret).hexdigest(), record.commitment.lower()
    )
    played = max(len(record.actions), len(record.round_scores))
    checks: list[RoundCheck] = []
    replayed_scores: list[list[int]] = []
    final_state: Any = None
    for r in range(played):
        claimed = list(record.round_scores[r]) if r < len(record.round_scores) else None
        if r >= len(record.actions):
            checks.append(RoundCheck(r, claimed, None, ["the record has no actions"]))
            continue
        known = None if final_states is None else final_states.get(r)
        if known is not None:
            state = known
            round_problems = [] if known.is_terminal else [NOT_OVER]
        else:
            state, round_problems = _replay_round(module, variant, record, r, check_bots=check_bots)
        final_state = state
        replayed = [int(s) for s in state.scores()] if not round_problems else None
        if replayed is not None:
            replayed_scores.append(replayed)
            if claimed is None:
                round_problems.append("the record has no scores for it")
            elif claimed != replayed:
                round_problems.append(f"recorded scores {claimed}, the replay gives {replayed}")
        checks.append(RoundCheck(r, claimed, replayed, round_problems))
    n = int(variant.num_players)
    totals = [sum(column) for column in zip(*replayed_scores, strict=True)] or [0] * n
    if all(c.ok for c in checks) and list(record.totals) != totals:
        problems.append(f"recorded totals {list(record.totals)}, the rounds add up to {totals}")
    if all(c.ok for c in checks) and played and not _ends_after(module, variant, record):
        problems.append("the game does not end where the record ends")
    if not played:
        problems.append("the record has no rounds")
    return Verification(
        rounds=checks,
        totals_claimed=list(record.totals),
        totals_replayed=totals,
        commitment_ok=commitment_ok,
        problems=problems,
        final_state=final_state,
    )


def _ends_after(module: GameModule, variant: Any, record: GameRecord) -> bool:
    """The game is over after its last recorded round and not after any round before."""
    scores = record.round_scores
    return game_is_over(module, variant, rounds=record.rounds, round_scores=scores) and not any(
        game_is_over(module, variant, rounds=record.rounds, round_scores=scores[:r])
        for r in range(1, len(scores))
    )


def verification_lines(verification: Verification) -> list[str]:
    """The verification for people: one line per round, the totals, the commitment and
    the verdict."""
    lines = []
    for check in verification.rounds:
        scores = " ".join(str(s) for s in (check.replayed or check.claimed or []))
        if check.ok:
            lines.append(f"round {check.round_index + 1}: {scores}  ok")
        else:
            lines.append(f"round {check.round_index + 1}: MISMATCH: {'; '.join(check.problems)}")
    totals = " ".join(str(t) for t in verification.totals_replayed)
    lines.append(f"totals: {totals}")
    lines.append(
        "commitment: ok" if verification.commitment_ok else "commitment: MISMATCH with the secret"
    )
    lines.extend(f"MISMATCH: {p}" for p in verification.problems)
    if verification.ok:
        lines.append("verified: every round score and the totals match the replay")
    else:
        lines.append(f"NOT verified: {len(verification.all_problems())} problem(s)")
    return lines
