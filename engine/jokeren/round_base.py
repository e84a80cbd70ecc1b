"""``RoundBase``: the fields of one Jokeren round and what they show, the base of
``JokerenState`` (as python-chess's ``BaseBoard`` is of ``Board``): whose turn it is and
who may lay down or lay off (docs/rules.md §2-§3), the scores, what a seat sees (typed and
as JSON) and the state's JSON. How the round moves on (applying actions, the legal
actions) is ``engine.jokeren.round``; the rules and JSON shapes are described in
``engine.jokeren.state``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from engine.cards import CARD_CODE, CARD_KIND, CARD_POINTS
from engine.jokeren.actions import DISCARDS, DRAW_OPEN, DRAW_STOCK, Action
from engine.jokeren.lay_downs import table_play_actions
from engine.jokeren.melds import Meld
from engine.jokeren.observation import JokerenObservation, SeatView
from engine.jokeren.round_log import LOG_CHUNK, Log, LogNode, entry_json, flat, linked_log
from engine.jokeren.turns import EndReason, Phase, has_other_kind, melding_rights
from engine.jokeren.variants import Contract, Variant

_new = object.__new__
_new_seat_view: Final = tuple.__new__


@dataclass(frozen=True)
class RoundBase:
    """The fields of one Jokeren round and what they show (immutable); ``JokerenState``
    adds the moves."""

    variant: Variant
    round_index: int
    dealer: int
    round_seed: bytes = field(repr=False)
    current_player: int | None
    phase: Phase
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    open_pile: tuple[int, ...]
    table: tuple[Meld, ...]
    out: tuple[bool, ...]
    came_out_this_turn: bool
    taken_from_open: int | None
    turn: int
    move_count: int
    reshuffles: int
    removed: tuple[int, ...]
    winner: int | None
    end_reason: EndReason | None
    log_chunks: tuple[Log, ...] = field(repr=False)
    log_tail: Log = field(repr=False)
    #: ``(seat, card id)`` of every draw from the open pile in the log, in order (kept
    #: with the log; not stored in the JSON, which has the log).
    open_takes: tuple[tuple[int, int], ...] = field(default=(), repr=False)

    # --- the turn, and what the player to move may do -----------------------------

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    @property
    def log(self) -> Log:
        """The public log, oldest entry first."""
        return flat(self.log_chunks, self.log_tail)

    @property
    def num_players(self) -> int:
        return self.variant.num_players

    @property
    def log_node(self) -> LogNode:
        """The log as a linked list, newest entry first (built on each call)."""
        return linked_log(self.log)

    def actions(self) -> list[tuple[int, Action]]:
        """Every action applied so far, with the seat that made it, in order."""
        return [(s, a) for kind, s, a, _ in self.log if kind == "action" and a is not None]

    @property
    def contract(self) -> Contract | None:
        """This round's contract (``None`` unless the variant's opening is a contract)."""
        return self.variant.contract_for(self.round_index)

    @property
    def first_cycle(self) -> bool:
        """Whether laying down is still forbidden: each seat's first turn (seed 001)."""
        return self.variant.first_cycle_no_meld and self.turn < self.variant.num_players

    def may_meld(self, seat: int) -> bool:
        """Whether ``seat`` may lay new melds now (its turn, after drawing)."""
        return self.current_player == seat and self.phase == "play" and not self.first_cycle

    def may_lay_off(self, seat: int) -> bool:
        """Whether ``seat`` may lay off or swap a joker now."""
        if not self.may_meld(seat):
            return False
        v = self.variant
        if v.lay_off_before_out:
            return True
        if not self.out[seat]:
            return False
        return v.lay_off_same_turn or not self.came_out_this_turn

    def needs_opening(self, seat: int) -> bool:
        """Whether ``seat``'s next lay-down must meet the opening requirement."""
        return self.variant.opening != "none" and not self.out[seat]

    def actions_but_lay_melds(self) -> list[Action]:
        """Every legal action of the player to move but the ``LayMelds``, in the order
        ``legal_actions`` lists them (docs/rules.md §2-§3): in the draw phase
        ``Draw("stock")`` and, unless taking it would leave nothing to discard,
        ``Draw("open")``; after the draw every ``LayOff`` (by card, meld, joker choice) and
        ``SwapJoker`` the player may make now, then every ``Discard`` (by card id; never
        the card taken from the open pile this turn, nor a copy of it)."""
        seat = self.current_player
        if seat is None:
            return []
        hand = self.hands[seat]
        if self.phase == "draw":
            acts: list[Action] = [DRAW_STOCK]
            pile = self.open_pile
            if pile and has_other_kind(hand, CARD_KIND[pile[-1]]):
                acts.append(DRAW_OPEN)
            return acts
        taken = self.taken_from_open
        out: list[Action] = []
        if self.table and self.may_lay_off(seat):
            out.extend(table_play_actions(hand, taken, self.table))
        if taken is None:
            out.extend([DISCARDS[c] for c in hand])
        else:
            kind = CARD_KIND[taken]
            out.extend([DISCARDS[c] for c in hand if CARD_KIND[c] != kind])
        return out

    # --- results -------------------------------------------------------------------------

    def scores(self) -> list[int]:
        """Each seat's score for the round: points in hand (or the number of cards, per
        variant); the player who went out has no cards and scores 0."""
        if self.variant.scoring == "cards":
            return [len(h) for h in self.hands]
        return [sum(CARD_POINTS[c] for c in h) for h in self.hands]

    # --- what a seat sees ------------------------------------------------------------------

    def observe(self, seat: int) -> JokerenObservation:
        """What ``seat`` may see, typed (cheap: no copies, no JSON)."""
        # the state's fields without the hidden ones, and the seat's own
        d = self.__dict__.copy()
        del d["round_seed"]
        hands = d.pop("hands")
        d["stock_count"] = len(d.pop("stock"))
        v = self.variant
        player = d["current_player"]
        out = d["out"]
        first_cycle, d["may_meld"], d["may_lay_off"] = melding_rights(
            v, seat, player, d["phase"], d["turn"], out, d["came_out_this_turn"]
        )
        d["seat"] = seat
        d["hand"] = hands[seat]
        if len(hands) == 4:
            d["hand_counts"] = (len(hands[0]), len(hands[1]), len(hands[2]), len(hands[3]))
        else:
            d["hand_counts"] = tuple(map(len, hands))
        d["first_cycle"] = first_cycle
        opening = v.opening
        d["needs_opening"] = opening != "none" and not out[seat]
        d["contract"] = v.contract_for(d["round_index"])
        d["is_terminal"] = player is None
        obs = _new(JokerenObservation)
        _set_obs_dict(obs, d)
        return obs

    def seat_view(self, seat: int) -> SeatView:
        """The ``SeatView`` of ``seat``: ``observe(seat)``'s fields that it names, with the
        same values (cheaper: no other field is made)."""
        v = self.variant
        player = self.current_player
        phase = self.phase
        turn = self.turn
        out = self.out
        came_out = self.came_out_this_turn
        first_cycle, may_meld, may_lay_off = melding_rights(
            v, seat, player, phase, turn, out, came_out
        )
        # made positionally, in the order of the fields (the named form costs a call)
        return _new_seat_view(
            SeatView,
            (
                seat,
                v,
                self.round_index,
                self.dealer,
                player,
                phase,
                turn,
                self.move_count,
                self.reshuffles,
                self.hands[seat],
                self.open_pile,
                self.table,
                self.removed,
                out,
                came_out,
                self.taken_from_open,
                first_cycle,
                may_meld,
                may_lay_off,
                v.opening != "none" and not out[seat],
            ),
        )

    def observation(self, seat: int, *, log: bool = True) -> dict[str, Any]:
        """What ``seat`` may see, as JSON (shape in ``engine.jokeren.state``); ``log=False``
        leaves out the public log (its ``"log"`` key), which ``log_json`` gives from any
        entry on: it only grows within a round, so a caller that has shown its first
        entries needs only the new ones.

        ``"legal_actions"``: for the player to move (else ``[]``) the JSON of every legal
        action but the new melds, ``actions_but_lay_melds`` in ``legal_actions``' order:
        the draws, the lay-offs (one per joker choice), the joker swaps and the discards.
        New melds (``lay_melds``) are not listed: any selection of the hand may be one, and
        ``meld_readings`` reads a selection; the engine judges a lay-down when it is made.
        Every card listed is in the seat's own hand or on the table."""
        if not 0 <= seat < self.variant.num_players:
            raise ValueError(f"no seat {seat} at this table")
        hand = self.hands[seat]
        contract = self.contract
        seen = {
            "game": "jokeren",
            "variant": self.variant.name,
            "seat": seat,
            "round_index": self.round_index,
            "dealer": self.dealer,
            "current_player": self.current_player,
            "phase": self.phase,
            "turn": self.turn,
            "move_count": self.move_count,
            "hand": list(hand),
            "hand_codes": [CARD_CODE[c] for c in hand],
            "hand_counts": [len(h) for h in self.hands],
            "stock_count": len(self.stock),
            "open_pile": list(self.open_pile),
            "open_top": self.open_pile[-1] if self.open_pile else None,
            "table": [m.to_json() for m in self.table],
            "removed": list(self.removed),
            "out": list(self.out),
            "came_out_this_turn": self.came_out_this_turn,
            "taken_from_open": self.taken_from_open,
            "first_cycle": self.first_cycle,
            "may_meld": self.may_meld(seat),
            "may_lay_off": self.may_lay_off(seat),
            "needs_opening": self.needs_opening(seat),
            "contract": None if contract is None else contract.to_json(),
            "opening": self.variant.opening,
            "opening_points": self.variant.opening_points,
            "reshuffles": self.reshuffles,
            "log": None,
            "legal_actions": (
                [a.to_json() for a in self.actions_but_lay_melds()]
                if seat == self.current_player
                else []
            ),
            "is_terminal": self.is_terminal,
            "winner": self.winner,
            "end_reason": self.end_reason,
            "scores": self.scores() if self.is_terminal else None,
            "final_hands": [list(h) for h in self.hands] if self.is_terminal else None,
        }
        if log:
            seen["log"] = self.log_json()
        else:
            del seen["log"]
        return seen

    @property
    def log_length(self) -> int:
        """How many entries the public log has."""
        return len(self.log_chunks) * LOG_CHUNK + len(self.log_tail)

    def log_json(self, start: int = 0) -> list[dict[str, Any]]:
        """The public log's entries from ``start`` on, as the observation shows them
        (oldest first; the whole log from 0)."""
        cut = len(self.log_chunks) * LOG_CHUNK
        if start >= cut:  # all in the tail (a move's few new entries): nothing flattened
            return [entry_json(e) for e in self.log_tail[start - cut :]]
        return [entry_json(e) for e in self.log[start:]]

    # --- JSON ------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The full state (hidden parts included) as plain JSON."""
        return {
            "game": "jokeren",
            "variant": self.variant.to_json(),
            "round_index": self.round_index,
            "dealer": self.dealer,
            "round_seed": self.round_seed.hex(),
            "current_player": self.current_player,
            "phase": self.phase,
            "hands": [list(h) for h in self.hands],
            "stock": list(self.stock),
            "open_pile": list(self.open_pile),
            "table": [m.to_json() for m in self.table],
            "out": list(self.out),
            "came_out_this_turn": self.came_out_this_turn,
            "taken_from_open": self.taken_from_open,
            "turn": self.turn,
            "move_count": self.move_count,
            "reshuffles": self.reshuffles,
            "removed": list(self.removed),
            "winner": self.winner,
            "end_reason": self.end_reason,
            "log": [entry_json(e) for e in self.log],
        }

    def state_hash(self) -> str:
        """First 16 hex digits of the SHA-256 of the canonical JSON of the full state."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


#: Set an observation's ``__dict__`` (the fields of a new observation) directly.
_set_obs_dict: Callable[[JokerenObservation, dict[str, Any]], None] = JokerenObservation.__dict__[
    "__dict__"
].__set__
