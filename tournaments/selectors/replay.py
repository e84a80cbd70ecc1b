"""A game's moves and records read back: replay frames, the score sheet, the record and
the verification of a closed tournament's deals from its revealed secret.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_lazy as _

from engine import dealing, record
from engine.protocol import GameModule
from tournaments.errors import TournamentNotOpen
from tournaments.games import PLAYER_SEAT, PlayedRound, current_round, dealt_round, module_of
from tournaments.models import Game, GameRound, Tournament, WhatIf
from tournaments.presentation.delta import observation_delta
from tournaments.presentation.words import describe_action


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


#: What ``_stored_rounds`` reads of a game's ``GameRound`` rows.
RoundRow = tuple[int, str, int | None, int]


def round_rows(*, game_ids: Sequence[int]) -> dict[int, list[RoundRow]]:
    """The ``GameRound`` rows of several games in one query (each game's in round order),
    for ``game_actions``'s ``rows``."""
    out: dict[int, list[RoundRow]] = {game_id: [] for game_id in game_ids}
    rows = (
        GameRound.objects.filter(game_id__in=list(game_ids))
        .order_by("game_id", "round_index")
        .values_list("game_id", "round_index", "actions", "bot_from", "moves")
    )
    for game_id, round_index, actions, bot_from, moves in rows:
        out[game_id].append((round_index, actions, bot_from, moves))
    return out


def _stored_rounds(game: Game, rows: Sequence[RoundRow] | None = None) -> list[StoredRound]:
    """The game's rounds as stored, in order: the finished rounds' rows (``rows``: read
    already, ``round_rows``), then the round being played (a game still playing)."""
    if rows is None:
        rows = list(
            game.played_rounds.order_by("round_index").values_list(
                "round_index", "actions", "bot_from", "moves"
            )
        )
    out: list[StoredRound] = []
    seq = 0
    for round_index, actions, bot_from, moves in rows:
        out.append(StoredRound(round_index, json.loads(actions), bot_from, moves, seq))
        seq += moves
    if game.status != Game.Status.FINISHED:
        module = module_of(game.game)
        variant = module.variant_from_json(game.variant)
        _state, current, own = current_round(game, module, variant)
        out.append(StoredRound(game.round_index, own, None, len(current), game.seq - len(current)))
    return out


def _replay_stored(game: Game, module: GameModule, variant: Any, stored: StoredRound) -> Any:
    """``engine.record.replay_round`` of a stored round: its bots' moves recomputed."""
    return record.replay_round(
        module,
        variant,
        secret=game.deal_secret(stored.round_index),
        round_index=stored.round_index,
        bot_level=game.bot_level,
        bot_version=game.bot_version,
        own_actions=stored.actions,
        bot_from=stored.bot_from,
        dealt=dealt_round(
            game.game, variant, game.deal_secret(stored.round_index), stored.round_index
        ),
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
        deal = module.new_round(
            variant, secret=game.deal_secret(round_index), round_index=round_index
        )
        return [Frame(None, None, False, "", "", deal, n)]
    replay = _replay_stored(game, module, variant, stored)
    frames = [Frame(None, None, False, "", "", replay.deal, n)]
    for i, (done, state) in enumerate(zip(replay.actions, replay.states, strict=True)):
        action = module.action_from_json(done.action)
        nl, en = describe_action(action, done.seat, n, module=module, player=player)
        frames.append(Frame(stored.first_seq + i, done.seat, done.by_bot, nl, en, state, n))
    return frames


#: Keys of an observation that belong to its seat, not to the table.
_OWN_KEYS = frozenset({"hand", "hand_codes", "legal_actions"})


def _hand_codes(game: str, state: Any, seat: int) -> list[str]:
    """The codes ("7h", "**") of a seat's hand, read straight from the state (the game
    module's ``card_code``)."""
    if not hasattr(state, "hands"):
        return list(state.observation(seat)["hand_codes"])
    code = module_of(game).card_code
    return [code(c) for c in state.hands[seat]]


def replay_frames_json(*, game: Game, frames: Sequence[Frame]) -> list[dict[str, Any]]:
    """The frames of a replay for the page, small: per frame the action, every seat's
    hand (the replay is public only once nobody can still play these deals) and only what
    changed on the table since the frame before (``observation_delta``, as a move
    event carries it; the first frame sets everything). The table view is what South
    sees without its own hand; the page rebuilds each full view by applying the deltas
    in order (``withDelta``, as the table does)."""
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
                **observation_delta(before, view),
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
    #: Every deal: each round's, in a deal pool each copy's of each round (its ``round``
    #: and ``copy`` in the dict, from 0).
    deals: list[dict[str, Any]]
    #: The copies of each round (1: no deal pool).
    copies: int = 1


def tournament_verify(*, tournament: Tournament) -> Verification:
    """Recompute a closed tournament's commitment from its revealed secret, and its deals:
    in a deal pool every copy of every round (docs/rules.md §5, "Deal pools")."""
    if tournament.closed_at is None:
        raise TournamentNotOpen.of(_("The secret is revealed when the tournament closes."))
    module = module_of(tournament.game)
    variant = module.variant_from_json(tournament.variant)
    secret = tournament.secret_bytes
    recomputed = dealing.commitment(secret)
    deals = [
        {
            "round": r,
            "copy": c,
            **module.deal_summary(variant, secret=tournament.copy_secret(c), round_index=r),
        }
        for r in range(tournament.rounds)
        for c in range(tournament.pool_copies)
    ]
    return Verification(
        secret_hex=secret.hex(),
        commitment=tournament.commitment,
        recomputed=recomputed,
        matches=hmac.compare_digest(recomputed, tournament.commitment),
        deals=deals,
        copies=tournament.pool_copies,
    )


def game_actions(
    game: Game,
    fresh: Mapping[int, PlayedRound] | None = None,
    rows: Sequence[RoundRow] | None = None,
) -> tuple[list[list[record.RecordedAction]], dict[int, Any], list[str]]:
    """Every action of every stored round, rebuilt from the entrant's actions (the bots'
    recomputed; ``fresh``: rounds this process has just played with the same bots, taken
    as they were played, compared with their stored row instead of replayed), and what
    contradicts the stored rounds: a round missing, an action the engine refuses, a
    round's number of moves, its entrant's actions, the game's ``seq``. Also the state at
    the end of each round rebuilt without a problem (for ``record.verify``)."""
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    stored = _stored_rounds(game, rows)
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
    actions, _final, _problems = game_actions(game)
    return game_record_of(game, actions)


def game_record_of(game: Game, actions: list[list[record.RecordedAction]]) -> record.GameRecord:
    tournament = game.tournament
    return record.build_record(
        game=game.game,
        variant=game.variant,
        bot_level=game.bot_level,
        bot_version=game.bot_version,
        secret=game.secret_bytes,
        pool=record.Pool(entry=game.entry_id, copies=tournament.pool_copies)
        if tournament is not None and tournament.pooled and game.entry_id is not None
        else None,
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


# --- Reading a game's rounds ----------------------------------------------------------------


def round_actions(*, game: Game, round_index: int) -> list[record.RecordedAction]:
    """Every action of round ``round_index`` of ``game`` (from its record; none for a
    round not played)."""
    actions = game_record(game=game).actions
    return list(actions[round_index]) if round_index < len(actions) else []


def what_if_round(*, game: Game) -> int | None:
    """The source game's round (from 0) that a "play from here" game plays, else ``None``
    (a tournament game never is one: no query)."""
    if game.entry_id is not None:
        return None
    return WhatIf.objects.filter(game=game).values_list("round_index", flat=True).first()


def replay_rounds(*, game: Game) -> list[int]:
    """The rounds of a game a replay can show: every finished round, or, for a what-if
    game, its one round."""
    what_if = what_if_round(game=game)
    if what_if is not None:
        return [what_if] if game.round_scores else []
    return list(range(len(game.round_scores)))
