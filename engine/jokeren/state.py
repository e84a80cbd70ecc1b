"""The state of one Jokeren round: the deal, the turns, the end and its scores.

Rules (docs/rules.md §2-3, seeds 000 and 001):

- Deal (docs/rules.md §5, ``engine.dealing``): the pack (per deck the suits c d h s, ranks
  A..K, then 2 jokers) is shuffled with the stream ``deal`` of the round seed; the
  dealer is seat ``round_index % num_players``; the cards are dealt one at a time
  clockwise from the next seat until every hand is full; the next card opens the open
  pile; the rest is the closed stock, top first.
- A turn: ``Draw`` (stock or open pile); then any number of ``LayMelds`` / ``LayOff`` /
  ``SwapJoker``; then ``Discard``. No action may leave the player without a card that
  may be discarded. The card taken from the open pile (or a copy of it: copies are
  interchangeable) may not be discarded in the same turn.
- Coming out is the first ``LayMelds``; it must meet the variant's opening (a contract
  or the opening points, judged on the melds of that one action). In the first cycle
  (each seat's first turn) nobody lays down, lays off or swaps when the variant says so.
  Laying off and swapping need the player to have come out (and, per variant, not in
  that same turn) unless the variant allows it always (Jokeren 7).
- A complete meld (group of 4 or run of 13, without joker) leaves the table at once:
  ``recycle`` puts its cards under the open pile (the meld's first card lowest),
  ``remove`` takes them out of the game.
- When the turn passes and the stock is empty, the open pile except its top card (listed
  from the bottom up) is shuffled with the stream ``reshuffle:k`` (k = 0 for the first
  reshuffle of the round) into a new stock, first card on top. With nothing to shuffle
  the round ends without a winner; so it does when ``variant.turn_limit`` turns have
  been played.
- The round ends when a player discards their last card; that player scores 0, every
  other player their hand (points or number of cards, per variant).

Storage: ``hands`` are sorted tuples of card ids per seat; ``stock`` is top first;
``open_pile`` is bottom first, its **top card last** (every card of it is public);
``table`` holds the melds in the order they were laid (when a complete meld leaves, the
later melds move up one index); ``removed`` the cards of complete melds out of the game;
``phase`` is ``draw``, ``play`` or ``over``; ``turn`` counts completed turns (the first
cycle is turns ``0 .. num_players-1``); the public log is ``log`` (kept internally in
chunks); ``open_takes`` lists ``(seat, card id)`` of every card taken from the open pile
this round, in order (public, as the log shows it; derived from the log when a state is
loaded from JSON). ``round_seed`` is hidden (never in an observation).

Observation JSON (``observation(seat)``; ``observe(seat)`` gives the same as a typed
``JokerenObservation``)::

    {
      "game": "jokeren", "variant": "<name>", "seat": 0, "round_index": 0, "dealer": 3,
      "current_player": 0 | null, "phase": "draw" | "play" | "over",
      "turn": 0,            # completed turns this round
      "move_count": 0,      # actions applied this round
      "hand": [ids, sorted], "hand_codes": ["7h", ...],
      "hand_counts": [n per seat], "stock_count": n,
      "open_pile": [ids, bottom first, top last],   # every card of the pile is public
      "open_top": id | null,
      "table": [{"kind": "group" | "run", "cards": [ids], "codes": ["7h", ...],
                 "stands_for": [null | "7h", ...], "owner": seat}, ...],
      "removed": [ids],     # complete melds taken out of the game
      "out": [bool per seat],               # has come out
      "came_out_this_turn": bool,           # of the player to move
      "taken_from_open": id | null,         # card the player to move took from the pile
      "first_cycle": bool,                  # laying down is still forbidden this cycle
      "may_meld": bool, "may_lay_off": bool, "needs_opening": bool,   # for this seat now
      "contract": {contract JSON} | null, "opening": "none" | "contract" | "points",
      "opening_points": 40,
      "reshuffles": 0,
      "log": [{"type": "action", "seat": s, "action": {action JSON}, "card": id (open draws)},
              {"type": "complete", "seat": owner, "cards": [ids], "to": "open_pile" | "removed"},
              {"type": "reshuffle", "k": k, "cards": n},
              {"type": "end", "winner": seat | null, "reason": "out" | "stock" | "turn_limit"}],
      "is_terminal": bool, "winner": seat | null, "end_reason": null | "out" | ...,
      "scores": [per seat] | null,    # only once the round is over
      "final_hands": [[ids] per seat] | null   # once over, every hand is shown (seed 001)
    }

The log never shows a card drawn from the stock; a ``lay_melds`` is logged with every
joker's card filled in (as laid on the table).
"""

from __future__ import annotations

import hashlib
import json
from bisect import bisect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations, filterfalse
from typing import Any, Final, Literal, NamedTuple

from engine.cards import (
    CARD_CODE,
    CARD_KIND,
    CARD_POINTS,
    CARD_RANK,
    CARD_SUIT,
    card_label,
    hand_value,
    jokeren_deck,
)
from engine.dealing import Stream, commitment, deal_hands, round_seed
from engine.errors import IllegalMove, InvalidState, MalformedAction, NotYourTurn, RoundOver
from engine.jokeren.actions import (
    DISCARDS,
    DRAW_OPEN,
    DRAW_STOCK,
    Action,
    AlreadyDrew,
    CannotDiscardTakenCard,
    CannotLayOffYet,
    CardNotInHand,
    ContractNotMet,
    Discard,
    Draw,
    FirstCycleNoMeld,
    LayMelds,
    LayOff,
    MeldSpec,
    MustDrawFirst,
    MustKeepDiscard,
    NoSuchMeld,
    OpenPileEmpty,
    SwapJoker,
    action_from_json,
    lay_off_action,
    move_key,
)
from engine.jokeren.melds import (
    InvalidMeld,
    Meld,
    Pattern,
    check_meld,
    hand_index,
    lay_off,
    lay_off_options,
    materialize_many,
    meld_from_json,
    meld_patterns,
    pattern_spec,
    pattern_usage,
    single_copies,
    swap_joker,
)
from engine.jokeren.variants import Contract, Variant, variant_from_json

Phase = Literal["draw", "play", "over"]
EndReason = Literal["out", "stock", "turn_limit"]
#: A public log entry: (kind, seat, action or None, data).
LogEntry = tuple[str, int, Action | None, tuple[int, ...]]
#: The public log, oldest entry first.
Log = tuple[LogEntry, ...]
#: The log as a linked list, newest first: (previous node, entry) or None.
LogNode = tuple[Any, LogEntry] | None

#: The log entry of a draw from the stock, per seat (shared: entries are immutable).
_STOCK_DRAWS: tuple[LogEntry, ...] = tuple(("action", s, DRAW_STOCK, ()) for s in range(4))
#: The log entry of the discard of each card (``DISCARDS``), per seat (shared too: a log
#: entry lives as long as the round, and an entry made for every discard outlived the
#: garbage collector's youngest generation)
_DISCARD_ENTRIES: tuple[tuple[LogEntry, ...], ...] = tuple(
    tuple(("action", s, d, ()) for d in DISCARDS) for s in range(4)
)
#: The ``CARD_KIND`` of every joker.
_JOKER_KIND = CARD_KIND[52]


#: Caps on the enumerated opening combinations (``legal_actions`` stays finite and fast;
#: ``is_legal``/``apply`` accept every legal combination).
_MAX_COMBOS = 400
_MAX_NODES = 20000


#: The log is kept as full chunks of this many entries and a short tail, so that an
#: action copies at most one chunk (a flat tuple would copy the whole log each time).
_LOG_CHUNK = 16


def _chunked(log: Log) -> tuple[tuple[Log, ...], Log]:
    """Full chunks of ``_LOG_CHUNK`` entries and the rest."""
    cut = len(log) - len(log) % _LOG_CHUNK
    chunks = tuple(log[i : i + _LOG_CHUNK] for i in range(0, cut, _LOG_CHUNK))
    return chunks, log[cut:]


def _flat(chunks: tuple[Log, ...], tail: Log) -> Log:
    if not chunks:
        return tail
    return tuple(e for chunk in chunks for e in chunk) + tail


def _log_node(log: Log) -> LogNode:
    node: LogNode = None
    for entry in log:
        node = (node, entry)
    return node


def _entry_json(entry: LogEntry) -> dict[str, Any]:
    kind, seat, action, data = entry
    if kind == "action":
        assert action is not None
        obj: dict[str, Any] = {"type": "action", "seat": seat, "action": action.to_json()}
        if data:
            obj["card"] = data[0]
        return obj
    if kind == "complete":
        return {
            "type": "complete",
            "seat": seat,
            "cards": list(data[1:]),
            "to": "open_pile" if data[0] == 0 else "removed",
        }
    if kind == "reshuffle":
        return {"type": "reshuffle", "k": data[0], "cards": data[1]}
    return {
        "type": "end",
        "winner": None if seat < 0 else seat,
        "reason": ("out", "stock", "turn_limit")[data[0]],
    }


def _entry_from_json(obj: Mapping[str, Any]) -> LogEntry:
    kind = obj["type"]
    if kind == "action":
        card = obj.get("card")
        data = () if card is None else (int(card),)
        return ("action", int(obj["seat"]), action_from_json(obj["action"]), data)
    if kind == "complete":
        to = 0 if obj["to"] == "open_pile" else 1
        return ("complete", int(obj["seat"]), None, (to, *(int(c) for c in obj["cards"])))
    if kind == "reshuffle":
        return ("reshuffle", -1, None, (int(obj["k"]), int(obj["cards"])))
    if kind == "end":
        winner = obj["winner"]
        reason = ("out", "stock", "turn_limit").index(obj["reason"])
        return ("end", -1 if winner is None else int(winner), None, (reason,))
    raise ValueError(f"unknown log entry type {kind!r}")


def _discardable(hand: Sequence[int], taken: int | None) -> bool:
    """Whether ``hand`` holds a card that may be discarded this turn."""
    if not hand:
        return False
    if taken is None:
        return True
    return _has_other_kind(hand, CARD_KIND[taken])


def _has_other_kind(hand: Sequence[int], kind: int) -> bool:
    """Whether ``hand`` holds a card that is no copy of a card of ``kind``."""
    for c in hand:  # noqa: SIM110 - a loop that stops early is faster than any(...)
        if CARD_KIND[c] != kind:
            return True
    return False


def _take_out(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` without ``card`` (which it holds)."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def _put_in(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """Sorted ``hand`` with ``card`` added in its place."""
    i = bisect(hand, card)
    return (*hand[:i], card, *hand[i:])


def _set_hand(
    hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """``hands`` with the hand of ``seat`` replaced."""
    if len(hands) == 4:
        a, b, c, d = hands
        if seat == 0:
            return (hand, b, c, d)
        if seat == 1:
            return (a, hand, c, d)
        if seat == 2:
            return (a, b, hand, d)
        return (a, b, c, hand)
    out = list(hands)
    out[seat] = hand
    return tuple(out)


def _append_log(d: dict[str, Any], entries: tuple[LogEntry, ...]) -> None:
    """Append ``entries`` to the log fields of the state fields ``d`` (in place; full
    chunks are shared, not copied)."""
    tail = d["log_tail"] + entries
    if len(tail) < _LOG_CHUNK:
        d["log_tail"] = tail
    else:
        chunks, d["log_tail"] = _chunked(tail)
        d["log_chunks"] = d["log_chunks"] + chunks


def _open_takes(log: Log) -> tuple[tuple[int, int], ...]:
    """(seat, card) of every draw from the open pile in ``log``, in order: the only
    action entries that carry a card."""
    return tuple((seat, data[0]) for kind, seat, _, data in log if kind == "action" and data)


_new = object.__new__
_new_seat_view: Final = tuple.__new__


def state_of_fields(fields: dict[str, Any]) -> JokerenState:
    """A state with these fields (every field of ``JokerenState``, by name; the dict
    becomes the state's own): ``JokerenState(**fields)`` without the frozen dataclass's
    ``__init__``, which sets each field with a call (the bots' going-out search makes
    one for every search)."""
    state = _new(JokerenState)
    _set_state_dict(state, fields)
    return state


def _without(hand: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    if len(cards) == 1:
        return _take_out(hand, cards[0])
    drop = set(cards)
    return tuple([c for c in hand if c not in drop])


def _meets_requirements(contract: Contract, melds: Sequence[Meld]) -> bool:
    """Whether distinct melds cover each required run (minimum length) and group (size)."""
    reqs = [("run", n) for n in contract.runs] + [("group", n) for n in contract.groups]
    if not reqs:
        return True
    used = [False] * len(melds)

    def match(k: int) -> bool:
        if k == len(reqs):
            return True
        kind, n = reqs[k]
        for i, m in enumerate(melds):
            if not used[i] and m.kind == kind and len(m.cards) >= n:
                used[i] = True
                if match(k + 1):
                    return True
                used[i] = False
        return False

    return match(0)


def _pattern_points(pattern: Pattern) -> int:
    return sum(hand_value(0 if joker else r) for r, _, joker in pattern[1])


def _fits_requirement(contract: Contract, pattern: Pattern) -> bool:
    kind, slots = pattern
    n = len(slots)
    if kind == "run":
        return any(n >= k for k in contract.runs)
    return any(n >= k for k in contract.groups)


def _melding_rights(
    v: Variant,
    seat: int,
    player: int | None,
    phase: Phase,
    turn: int,
    out: tuple[bool, ...],
    came_out: bool,
) -> tuple[bool, bool, bool]:
    """``(first_cycle, may_meld, may_lay_off)`` for ``seat``: in the first round of turns
    nobody melds where the variant says so (``first_cycle_no_meld``); otherwise the player
    to move may lay melds after the draw, and lay off too where the variant allows it
    before coming out, or once out (not in the turn it came out, unless
    ``lay_off_same_turn``): docs/rules.md §2-§3. One rule for the observation and the seat's
    narrow view."""
    first_cycle = v.first_cycle_no_meld and turn < v.num_players
    if player == seat and phase == "play" and not first_cycle:
        return (
            first_cycle,
            True,
            v.lay_off_before_out or (out[seat] and (v.lay_off_same_turn or not came_out)),
        )
    return first_cycle, False, False


@dataclass(frozen=True)
class JokerenObservation:
    """What one seat may see (see the module text); built cheaply for the bots."""

    seat: int
    variant: Variant
    round_index: int
    dealer: int
    current_player: int | None
    phase: Phase
    turn: int
    move_count: int
    hand: tuple[int, ...]
    hand_counts: tuple[int, ...]
    stock_count: int
    open_pile: tuple[int, ...]
    table: tuple[Meld, ...]
    removed: tuple[int, ...]
    out: tuple[bool, ...]
    came_out_this_turn: bool
    taken_from_open: int | None
    first_cycle: bool
    may_meld: bool
    may_lay_off: bool
    needs_opening: bool
    contract: Contract | None
    reshuffles: int
    winner: int | None
    end_reason: EndReason | None
    is_terminal: bool
    #: ``(seat, card id)`` of every card taken from the open pile this round, in order
    #: (public: the log shows each one).
    open_takes: tuple[tuple[int, int], ...]
    log_chunks: tuple[Log, ...] = field(repr=False)
    log_tail: Log = field(repr=False)

    @property
    def log(self) -> Log:
        """The public log, oldest entry first."""
        return _flat(self.log_chunks, self.log_tail)

    @property
    def open_top(self) -> int | None:
        return self.open_pile[-1] if self.open_pile else None

    @property
    def log_node(self) -> LogNode:
        """The log as a linked list, newest entry first (built on each call)."""
        return _log_node(self.log)


class SeatView(NamedTuple):
    """A narrow part of what one seat may see (``JokerenState.seat_view``): the fields of
    its ``JokerenObservation`` that a basic bot reads at most decisions, each the same
    value as the observation's field of the same name, made without the rest (a named
    tuple: made for every decision, and cheaply). Nothing in it is hidden from the seat:
    its own hand and public facts."""

    seat: int
    variant: Variant
    round_index: int
    dealer: int
    current_player: int | None
    phase: Phase
    turn: int
    move_count: int
    reshuffles: int
    hand: tuple[int, ...]
    open_pile: tuple[int, ...]
    table: tuple[Meld, ...]
    removed: tuple[int, ...]
    out: tuple[bool, ...]
    came_out_this_turn: bool
    taken_from_open: int | None
    first_cycle: bool
    may_meld: bool
    may_lay_off: bool
    needs_opening: bool


@dataclass(frozen=True)
class JokerenState:
    """One Jokeren round (immutable; ``apply`` returns a new state)."""

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

    # --- small helpers ---------------------------------------------------------------

    def _evolve(self, **changes: Any) -> JokerenState:
        """A copy with some fields changed (cheaper than ``dataclasses.replace``)."""
        d = self.__dict__.copy()
        d.update(changes)
        return state_of_fields(d)

    @property
    def is_terminal(self) -> bool:
        return self.current_player is None

    @property
    def log(self) -> Log:
        """The public log, oldest entry first."""
        return _flat(self.log_chunks, self.log_tail)

    @property
    def num_players(self) -> int:
        return self.variant.num_players

    @property
    def log_node(self) -> LogNode:
        """The log as a linked list, newest entry first (built on each call)."""
        return _log_node(self.log)

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

    # --- legality helpers for bots ---------------------------------------------------

    def can_lay_off(self, card: int, meld_index: int) -> bool:
        """Whether the player to move may lay ``card`` off onto meld ``meld_index``."""
        seat = self.current_player
        if seat is None or not self.may_lay_off(seat):
            return False
        if card not in self.hands[seat] or not 0 <= meld_index < len(self.table):
            return False
        if not lay_off_options(self.table[meld_index], card):
            return False
        return _discardable(_without(self.hands[seat], (card,)), self.taken_from_open)

    def is_legal(self, action: Action) -> bool:
        """Whether the player to move may make ``action``."""
        try:
            self.apply(action)
        except IllegalMove:
            return False
        return True

    def same_move(self, a: Action, b: Action) -> bool:
        """Whether actions ``a`` and ``b`` make the same move in this position: the same
        cards (copies and jokers alike), the same melds whatever order their cards or the
        melds of one action are given in, the same joker stand-ins (``move_key``)."""
        return a == b or move_key(a, self.table) == move_key(b, self.table)

    # --- applying actions --------------------------------------------------------------

    def apply(self, action: Action, *, seat: int | None = None) -> JokerenState:
        """The state after the player to move makes ``action``; raises an ``IllegalMove``
        subclass naming the broken rule. With ``seat`` given, it must be that seat's turn.
        """
        player = self.current_player
        if player is None:
            raise RoundOver("De ronde is voorbij.", "The round is over.")
        if seat is not None and seat != player:
            raise NotYourTurn(
                f"Je bent niet aan de beurt: plaats {player} is aan de beurt.",
                f"It is seat {player}'s turn.",
            )
        t = type(action)
        if t is Draw:
            if action.source == "stock" and self.phase == "draw":  # type: ignore[union-attr]
                # the most common action, without a further call
                hands = self.hands
                stock = self.stock
                hand = hands[player]
                card = stock[0]
                i = bisect(hand, card)
                d = self.__dict__.copy()
                d["hands"] = _set_hand(hands, player, (*hand[:i], card, *hand[i:]))
                d["stock"] = stock[1:]
                d["taken_from_open"] = None
                d["phase"] = "play"
                d["move_count"] = self.move_count + 1
                entry = _STOCK_DRAWS[player]
                _append_log(d, (entry,))
                new = _new(JokerenState)
                _set_state_dict(new, d)
                return new
            return self._draw(player, action)  # type: ignore[arg-type]
        if t not in _PLAY_ACTIONS:
            raise _not_an_action(action)
        if self.phase == "draw":
            raise MustDrawFirst(
                "Pak eerst een kaart van de dichte of de open stapel.",
                "Draw a card from the stock or the open pile first.",
            )
        if t is Discard:
            return self._discard(player, action)  # type: ignore[arg-type]
        if t is LayOff:
            return self._lay_off(player, action)  # type: ignore[arg-type]
        if t is LayMelds:
            return self._lay_melds(player, action)  # type: ignore[arg-type]
        if t is SwapJoker:
            return self._swap(player, action)  # type: ignore[arg-type]
        raise _not_an_action(action)

    # Each action copies the fields (a dict), changes what it changes and makes the new
    # state from them: the old state is never changed.

    def _draw(self, seat: int, action: Draw) -> JokerenState:
        """Any draw but one from the stock in the draw phase (``apply`` does that one):
        a second draw, or one from the open pile."""
        if self.phase != "draw":
            raise AlreadyDrew(
                "Je hebt deze beurt al een kaart gepakt.", "You already drew a card this turn."
            )
        pile = self.open_pile
        if not pile:
            raise OpenPileEmpty("De open stapel is leeg.", "The open pile is empty.")
        card = pile[-1]
        hand = self.hands[seat]
        if not _has_other_kind(hand, CARD_KIND[card]):
            nl, en = card_label(CARD_CODE[card], "nl"), card_label(CARD_CODE[card], "en")
            raise CannotDiscardTakenCard(
                f"Met {nl} van de open stapel hou je geen kaart over om weg te gooien.",
                f"Taking {en} from the open pile would leave you nothing you may discard.",
            )
        d = self.__dict__.copy()
        d["hands"] = _set_hand(self.hands, seat, _put_in(hand, card))
        d["open_pile"] = pile[:-1]
        d["taken_from_open"] = card
        d["open_takes"] = (*self.open_takes, (seat, card))
        d["phase"] = "play"
        d["move_count"] = self.move_count + 1
        _append_log(d, (("action", seat, DRAW_OPEN, (card,)),))
        return state_of_fields(d)

    def _discard(self, seat: int, action: Discard) -> JokerenState:
        card = action.card
        hands = self.hands
        hand = hands[seat]
        try:
            i = hand.index(card)
        except ValueError:
            raise _not_in_hand(card) from None
        taken = self.taken_from_open
        if taken is not None and CARD_KIND[card] == CARD_KIND[taken]:
            raise CannotDiscardTakenCard(
                f"Je mag {card_label(CARD_CODE[card], 'nl')} niet weggooien: je pakte die "
                "kaart deze beurt van de open stapel.",
                f"You may not discard {card_label(CARD_CODE[card], 'en')}: you took that card "
                "from the open pile this turn.",
            )
        new_hand = hand[:i] + hand[i + 1 :]
        pile = (*self.open_pile, card)
        d = self.__dict__.copy()
        d["hands"] = _set_hand(hands, seat, new_hand)
        d["open_pile"] = pile
        d["came_out_this_turn"] = False
        d["taken_from_open"] = None
        d["move_count"] = self.move_count + 1
        shared = action is DISCARDS[card]
        entry = _DISCARD_ENTRIES[seat][card] if shared else ("action", seat, action, ())
        if not new_hand:
            d["current_player"] = None
            d["phase"] = "over"
            d["winner"] = seat
            d["end_reason"] = "out"
            _append_log(d, (entry, ("end", seat, None, (0,))))
            return state_of_fields(d)
        turn = self.turn + 1
        d["turn"] = turn
        v = self.variant
        if turn >= v.turn_limit:
            d["current_player"] = None
            d["phase"] = "over"
            d["end_reason"] = "turn_limit"
            _append_log(d, (entry, ("end", -1, None, (2,))))
            return state_of_fields(d)
        if self.stock:
            _append_log(d, (entry,))
        else:
            below = pile[:-1]
            if not below:
                d["current_player"] = None
                d["phase"] = "over"
                d["end_reason"] = "stock"
                _append_log(d, (entry, ("end", -1, None, (1,))))
                return state_of_fields(d)
            reshuffles = self.reshuffles
            d["stock"] = tuple(Stream(self.round_seed, f"reshuffle:{reshuffles}").shuffle(below))
            d["open_pile"] = pile[-1:]
            d["reshuffles"] = reshuffles + 1
            _append_log(d, (entry, ("reshuffle", -1, None, (reshuffles, len(below)))))
        d["current_player"] = (seat + 1) % v.num_players
        d["phase"] = "draw"
        new = _new(JokerenState)
        _set_state_dict(new, d)
        return new

    def _check_lay_off_allowed(self, seat: int) -> None:
        v = self.variant
        if v.first_cycle_no_meld and self.turn < v.num_players:
            raise _first_cycle()
        if v.lay_off_before_out:
            return
        if not self.out[seat]:
            raise CannotLayOffYet(
                "Aanleggen en jokers wisselen mag pas als je zelf op tafel bent gekomen.",
                "You may lay off or swap a joker only after you have come out.",
            )
        if self.came_out_this_turn and not v.lay_off_same_turn:
            raise CannotLayOffYet(
                "Aanleggen en jokers wisselen mag pas vanaf de beurt nadat je op tafel kwam.",
                "You may lay off or swap a joker only from the turn after you came out.",
            )

    def _keep_discard(self, hand: tuple[int, ...]) -> None:
        if not _discardable(hand, self.taken_from_open):
            raise _must_keep_discard()

    def _leave(self, d: dict[str, Any], meld: Meld) -> LogEntry:
        """A complete meld leaves the table: under the open pile (its first card lowest)
        or out of the game, per variant; changes the fields ``d``; the log entry."""
        cards = meld.cards
        if self.variant.complete_meld == "recycle":
            d["open_pile"] = cards + d["open_pile"]
            return ("complete", meld.owner, None, (0, *cards))
        d["removed"] = d["removed"] + cards
        return ("complete", meld.owner, None, (1, *cards))

    def _after_table_play(
        self, seat: int, action: LayOff | SwapJoker, i: int, meld: Meld, hand: tuple[int, ...]
    ) -> JokerenState:
        """The state after meld ``i`` became ``meld`` and the hand ``hand``."""
        taken = self.taken_from_open
        if not hand or (taken is not None and not _has_other_kind(hand, CARD_KIND[taken])):
            raise _must_keep_discard()
        d = self.__dict__.copy()
        hands = list(self.hands)
        hands[seat] = hand
        d["hands"] = tuple(hands)
        d["move_count"] = self.move_count + 1
        table = self.table
        entry: LogEntry = ("action", seat, action, ())
        if meld.is_complete:
            d["table"] = table[:i] + table[i + 1 :]
            _append_log(d, (entry, self._leave(d, meld)))
        else:
            d["table"] = (*table[:i], meld, *table[i + 1 :])
            _append_log(d, (entry,))
        new = _new(JokerenState)
        _set_state_dict(new, d)
        return new

    def _table_play(self, seat: int, card: int, i: int) -> tuple[tuple[int, ...], Meld]:
        """The hand of ``seat`` and meld ``i`` for a lay-off or a joker swap, checked: the
        seat may lay off now, holds ``card``, and meld ``i`` is on the table."""
        self._check_lay_off_allowed(seat)
        hand = self.hands[seat]
        if card not in hand:
            raise _not_in_hand(card)
        table = self.table
        if not 0 <= i < len(table):
            raise _no_meld(i)
        return hand, table[i]

    def _lay_off(self, seat: int, action: LayOff) -> JokerenState:
        card, i = action.card, action.meld_index
        hand, target = self._table_play(seat, card, i)
        meld = lay_off(target, card, action.stands_for)
        return self._after_table_play(seat, action, i, meld, _take_out(hand, card))

    def _swap(self, seat: int, action: SwapJoker) -> JokerenState:
        card, i = action.card, action.meld_index
        hand, target = self._table_play(seat, card, i)
        meld, joker = swap_joker(target, card)
        new_hand = _put_in(_take_out(hand, card), joker)
        return self._after_table_play(seat, action, i, meld, new_hand)

    def _lay_melds(self, seat: int, action: LayMelds) -> JokerenState:
        v = self.variant
        if v.first_cycle_no_meld and self.turn < v.num_players:
            raise _first_cycle()
        specs = action.melds
        if not specs:
            raise InvalidMeld("Leg minstens één setje neer.", "Lay at least one meld.")
        hand = self.hands[seat]
        cards = action.cards
        laid_cards = set(cards)
        if len(laid_cards) != len(cards):
            raise InvalidMeld(
                "Een kaart kan maar in één setje liggen.", "A card can be in only one meld."
            )
        for c in cards:
            if c not in hand:
                raise _not_in_hand(c)
        if len(specs) == 1:
            cs, sfs = specs[0]
            meld = check_meld(cs, sfs, owner=seat)
            melds = [meld]
            laid: tuple[MeldSpec, ...] = ((meld.cards, meld.stands_for),)
        else:
            melds = [check_meld(cs, sfs, owner=seat) for cs, sfs in specs]
            laid = tuple([(m.cards, m.stands_for) for m in melds])
        new_hand = tuple(filterfalse(laid_cards.__contains__, hand))
        self._keep_discard(new_hand)
        coming_out = not self.out[seat]
        if coming_out and v.opening != "none":
            self._check_opening(melds, len(new_hand))
        # the log shows the melds as they lie (every joker's card filled in)
        logged = action if laid == specs else _lay_melds_action(laid)
        d = self.__dict__.copy()
        hands = list(self.hands)
        hands[seat] = new_hand
        d["hands"] = tuple(hands)
        d["move_count"] = self.move_count + 1
        entries: list[LogEntry] = [("action", seat, logged, ())]
        table = self.table
        for m in melds:
            if m.is_complete:
                entries.append(self._leave(d, m))
            else:
                table = (*table, m)
        d["table"] = table
        if coming_out:
            out = list(self.out)
            out[seat] = True
            d["out"] = tuple(out)
            d["came_out_this_turn"] = True
        _append_log(d, tuple(entries))
        new = _new(JokerenState)
        _set_state_dict(new, d)
        return new

    def _check_opening(self, melds: Sequence[Meld], left: int) -> None:
        v = self.variant
        if v.opening == "none":
            return
        if v.opening == "points":
            total = sum(m.points for m in melds)
            if total < v.opening_points:
                raise ContractNotMet(
                    f"Om op tafel te komen leg je in één beurt setjes van samen minstens "
                    f"{v.opening_points} punten (nu {total}).",
                    f"To come out, lay melds worth at least {v.opening_points} points in "
                    f"one go (these are worth {total}).",
                )
            return
        contract = v.contract_for(self.round_index)
        assert contract is not None
        ok = _meets_requirements(contract, melds)
        if contract.points and sum(m.points for m in melds) < contract.points:
            ok = False
        if contract.all_out and left != 1:
            ok = False
        if not ok:
            raise ContractNotMet(
                f"Om op tafel te komen moet je in één beurt neerleggen: {contract.description_nl}.",
                f"To come out you must lay, in one action: {contract.description_en}.",
            )

    # --- legal actions -------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move, in a fixed canonical order.

        Draw phase: ``Draw("stock")``, ``Draw("open")``. Play phase: the ``LayMelds``
        (every single meld with canonical joker choices, or, to come out under an
        opening requirement, the smallest combinations that meet it), then every
        ``LayOff`` (by card, meld, joker choice), every ``SwapJoker`` and every
        ``Discard`` (by card id).
        """
        seat = self.current_player
        if seat is None:
            return []
        if self.phase == "draw":
            acts: list[Action] = [DRAW_STOCK]
            pile = self.open_pile
            if pile and _has_other_kind(self.hands[seat], CARD_KIND[pile[-1]]):
                acts.append(DRAW_OPEN)
            return acts
        hand = self.hands[seat]
        taken = self.taken_from_open
        out: list[Action] = []
        if not self.first_cycle:
            out.extend(self.lay_melds_options())
            if self.table and self.may_lay_off(seat):
                table = self.table
                # cards that may be discarded this turn: a card may leave the hand if
                # another such card stays
                taken_kind = -1 if taken is None else CARD_KIND[taken]
                free = sum(1 for c in hand if CARD_KIND[c] != taken_kind)
                for card in hand:
                    if free - (CARD_KIND[card] != taken_kind) < 1:
                        continue
                    rank = CARD_RANK[card]
                    if rank:
                        key = (rank, CARD_SUIT[card])
                        for i, meld in enumerate(table):
                            if key in meld.accepts:
                                out.append(lay_off_action(card, i, None))
                    else:
                        for i, meld in enumerate(table):
                            for sf in meld.joker_options:
                                out.append(lay_off_action(card, i, sf))
                with_jokers = [(i, m.stands_for) for i, m in enumerate(table) if m.has_joker]
                if with_jokers:
                    joker_free = taken_kind != _JOKER_KIND
                    for card in hand:
                        rank = CARD_RANK[card]
                        if not rank:
                            continue
                        if free - (CARD_KIND[card] != taken_kind) + joker_free < 1:
                            continue  # only the taken card (or copies) would be left
                        key = (rank, CARD_SUIT[card])
                        for i, sfs in with_jokers:
                            if key in sfs:
                                out.append(SwapJoker(card, i))
        if taken is None:
            out.extend([DISCARDS[c] for c in hand])
        else:
            kind = CARD_KIND[taken]
            out.extend([DISCARDS[c] for c in hand if CARD_KIND[c] != kind])
        return out

    def lay_melds_options(self) -> list[LayMelds]:
        """The ``LayMelds`` actions listed by ``legal_actions`` (see there)."""
        seat = self.current_player
        if seat is None or self.phase != "play" or self.first_cycle:
            return []
        hand = self.hands[seat]
        taken = self.taken_from_open
        by_key, jokers = hand_index(hand)
        patterns = meld_patterns(by_key, len(jokers), len(hand) - 1)
        v = self.variant
        result: list[LayMelds] = []

        size = len(hand)

        def add(melds: Sequence[Meld]) -> None:
            used = [c for m in melds for c in m.cards]
            if len(used) >= size:
                return
            if taken is None or _discardable(_without(hand, used), taken):
                result.append(LayMelds(tuple((m.cards, m.stands_for) for m in melds)))

        if self.out[seat] or v.opening == "none":
            return self._single_melds(patterns, by_key, jokers)
        if v.opening == "points":
            self._points_combos(patterns, by_key, jokers, v.opening_points, add)
            return result
        contract = v.contract_for(self.round_index)
        assert contract is not None
        if contract.all_out:
            self._all_out_combos(contract, hand, add)
            return result
        if contract.points:

            def ok_points(melds: Sequence[Meld]) -> None:
                if _meets_requirements(contract, melds):
                    add(melds)

            self._points_combos(patterns, by_key, jokers, contract.points, ok_points)
            return result
        k = len(contract.runs) + len(contract.groups)
        if k == 0:  # any meld
            return self._single_melds(patterns, by_key, jokers)
        fitting = [p for p in patterns if _fits_requirement(contract, p)]
        usage = [pattern_usage(p) for p in fitting]
        single = single_copies(by_key)
        num_jokers = len(jokers)
        for combo in combinations(range(len(fitting)), k):
            mask = 0
            need_jokers = 0
            clash = False
            for i in combo:
                m, j = usage[i]
                if mask & m & single:
                    clash = True
                    break
                mask |= m
                need_jokers += j
            if clash or need_jokers > num_jokers:
                continue
            melds = materialize_many([fitting[i] for i in combo], by_key, jokers)
            if melds is not None and _meets_requirements(contract, melds):
                add(melds)
                if len(result) >= _MAX_COMBOS:
                    break
        return result

    def _single_melds(
        self,
        patterns: Sequence[Pattern],
        by_key: dict[tuple[int, int], list[int]],
        jokers: Sequence[int],
    ) -> list[LayMelds]:
        """One ``LayMelds`` per pattern (each already leaves a card in hand)."""
        taken = self.taken_from_open
        seat = self.current_player
        assert seat is not None
        hand = self.hands[seat]
        out: list[LayMelds] = []
        for p in patterns:
            cards, sfs = pattern_spec(p, by_key, jokers)
            if taken is not None and not _discardable(_without(hand, cards), taken):
                continue
            out.append(LayMelds(((cards, sfs),)))
        return out

    def _points_combos(
        self,
        patterns: Sequence[Pattern],
        by_key: dict[tuple[int, int], list[int]],
        jokers: Sequence[int],
        need: int,
        add: Callable[[Sequence[Meld]], None],
    ) -> None:
        """Every minimal set of melds worth at least ``need`` points (dropping any meld
        would fall short), found by a bounded depth-first search."""
        pts = [_pattern_points(p) for p in patterns]
        usage = [pattern_usage(p) for p in patterns]
        single = single_copies(by_key)
        num_jokers = len(jokers)
        count = [0, 0]  # nodes visited, results

        def dfs(start: int, chosen: list[int], total: int, mask: int, used_jokers: int) -> None:
            for i in range(start, len(patterns)):
                if count[0] >= _MAX_NODES or count[1] >= _MAX_COMBOS:
                    return
                m, j = usage[i]
                if mask & m & single or used_jokers + j > num_jokers:
                    continue
                count[0] += 1
                sel = [*chosen, i]
                new_total = total + pts[i]
                if new_total >= need:
                    if new_total - min(pts[x] for x in sel) < need:
                        melds = materialize_many([patterns[x] for x in sel], by_key, jokers)
                        if melds is not None:
                            add(melds)
                            count[1] += 1
                else:
                    dfs(i + 1, sel, new_total, mask | m, used_jokers + j)

        dfs(0, [], 0, 0, 0)

    def _all_out_combos(
        self, contract: Contract, hand: tuple[int, ...], add: Callable[[Sequence[Meld]], None]
    ) -> None:
        """Every way to lay all cards but one in melds that meet the contract: a search
        that covers the lowest natural card left by a meld holding it, or keeps it as the
        card to discard (once), remembering dead ends."""
        by_key, jokers = hand_index(hand)
        patterns = meld_patterns(by_key, len(jokers), len(hand) - 1)
        if not patterns:
            return
        covered = {(r, s) for _, slots in patterns for r, s, j in slots if not j}
        if sum(len(v) for k, v in by_key.items() if k not in covered) > 1:
            return
        taken = self.taken_from_open
        taken_key = None if taken is None else (CARD_RANK[taken], CARD_SUIT[taken])
        counts = {k: len(v) for k, v in by_key.items()}
        found: list[list[Pattern]] = []
        dead: set[tuple[tuple[tuple[tuple[int, int], int], ...], int, bool]] = set()
        nodes = [0]

        def search(left: int, jokers_left: int, skipped: bool, chosen: list[Pattern]) -> None:
            if len(found) >= _MAX_COMBOS or nodes[0] >= _MAX_NODES:
                return
            nodes[0] += 1
            present = sorted(k for k, n in counts.items() if n)
            state_key = (tuple((k, counts[k]) for k in present), jokers_left, skipped)
            if state_key in dead:
                return
            before = len(found)
            if not present:
                if (skipped and not jokers_left) or (
                    not skipped and jokers_left == 1 and taken_key != (0, -1)
                ):
                    found.append(list(chosen))
            else:
                first = present[0]
                if not skipped and first != taken_key:
                    counts[first] -= 1
                    search(left - 1, jokers_left, True, chosen)
                    counts[first] += 1
                rest = {k: by_key[k] for k in present}
                for p in meld_patterns(rest, jokers_left, left):
                    if not any(not j and (r, s) == first for r, s, j in p[1]):
                        continue
                    used_jokers = 0
                    for r, s, j in p[1]:
                        if j:
                            used_jokers += 1
                        else:
                            counts[(r, s)] -= 1
                    chosen.append(p)
                    search(left - len(p[1]), jokers_left - used_jokers, skipped, chosen)
                    chosen.pop()
                    for r, s, j in p[1]:
                        if not j:
                            counts[(r, s)] += 1
            if len(found) == before:
                dead.add(state_key)

        search(len(hand), len(jokers), False, [])
        for combo in found:
            melds = materialize_many(combo, by_key, jokers)
            if melds is None:
                continue
            if not _meets_requirements(contract, melds):
                continue
            if contract.points and sum(m.points for m in melds) < contract.points:
                continue
            add(melds)

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
        first_cycle, d["may_meld"], d["may_lay_off"] = _melding_rights(
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
        first_cycle, may_meld, may_lay_off = _melding_rights(
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
        """What ``seat`` may see, as JSON (shape in the module text); ``log=False`` leaves
        out the public log (its ``"log"`` key), which ``log_json`` gives from any entry on:
        it only grows within a round, so a caller that has shown its first entries needs
        only the new ones."""
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
        return len(self.log_chunks) * _LOG_CHUNK + len(self.log_tail)

    def log_json(self, start: int = 0) -> list[dict[str, Any]]:
        """The public log's entries from ``start`` on, as the observation shows them
        (oldest first; the whole log from 0)."""
        cut = len(self.log_chunks) * _LOG_CHUNK
        if start >= cut:  # all in the tail (a move's few new entries): nothing flattened
            return [_entry_json(e) for e in self.log_tail[start - cut :]]
        return [_entry_json(e) for e in self.log[start:]]

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
            "log": [_entry_json(e) for e in self.log],
        }

    def state_hash(self) -> str:
        """First 16 hex digits of the SHA-256 of the canonical JSON of the full state."""
        text = json.dumps(self.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


#: Set an instance's ``__dict__`` (the fields of a new state or observation) directly.
_set_state_dict: Callable[[JokerenState, dict[str, Any]], None] = JokerenState.__dict__[
    "__dict__"
].__set__
_set_obs_dict: Callable[[JokerenObservation, dict[str, Any]], None] = JokerenObservation.__dict__[
    "__dict__"
].__set__


def _lay_melds_action(melds: tuple[MeldSpec, ...]) -> LayMelds:
    """``LayMelds(melds)``, built without the frozen dataclass's ``__init__``."""
    action = _new(LayMelds)
    _set_lay_melds_dict(action, {"melds": melds})
    return action


_set_lay_melds_dict: Callable[[LayMelds, dict[str, Any]], None] = LayMelds.__dict__[
    "__dict__"
].__set__


#: The actions of the play phase (after the draw).
_PLAY_ACTIONS = frozenset({Discard, LayOff, LayMelds, SwapJoker})


def _not_an_action(action: object) -> MalformedAction:
    """``apply`` takes the engine's action objects only (``action_from_json`` reads JSON)."""
    kind = type(action).__name__
    return MalformedAction(
        f"Geen Jokeren-zet: {kind} (lees JSON met action_from_json).",
        f"Not a Jokeren action: {kind} (read JSON with action_from_json).",
    )


def _not_in_hand(card: int) -> CardNotInHand:
    if not 0 <= card < len(CARD_CODE):
        return CardNotInHand(f"{card} zit niet in je hand.", f"{card} is not in your hand.")
    nl, en = card_label(CARD_CODE[card], "nl"), card_label(CARD_CODE[card], "en")
    return CardNotInHand(f"{nl} zit niet in je hand.", f"{en} is not in your hand.")


def _must_keep_discard() -> MustKeepDiscard:
    return MustKeepDiscard(
        "Je moet een kaart overhouden die je mag weggooien.",
        "You must keep a card that you may discard.",
    )


def _no_meld(index: int) -> NoSuchMeld:
    return NoSuchMeld(f"Er ligt geen setje {index} op tafel.", f"There is no meld {index}.")


def _first_cycle() -> FirstCycleNoMeld:
    return FirstCycleNoMeld(
        "In de eerste rondgang mag nog niemand neerleggen, aanleggen of een joker wisselen.",
        "In the first cycle nobody lays down, lays off or swaps a joker.",
    )


# --- the deal ------------------------------------------------------------------------------


def deal(
    variant: Variant, *, secret: bytes, round_index: int
) -> tuple[bytes, list[list[int]], int | None, list[int]]:
    """The round seed, the hands per seat in the order dealt, the open card (``None`` when
    the variant turns none, ``variant.open_card``) and the stock (top first) of round
    ``round_index`` (docs/rules.md §5: the card after the hands opens the pile; without an open
    card it stays on top of the stock)."""
    seed = round_seed(secret, round_index)
    pack = Stream(seed, "deal").shuffle(jokeren_deck(variant.decks))
    n = variant.num_players
    first = (round_index % n + 1) % n
    hands, rest = deal_hands(pack, num_players=n, hand_size=variant.hand_size, first_player=first)
    if not variant.open_card:
        return seed, hands, None, rest
    return seed, hands, rest[0], rest[1:]


def new_round(variant: Variant, *, secret: bytes, round_index: int) -> JokerenState:
    """The dealt state of round ``round_index`` (from 0) of a game with this secret."""
    if round_index < 0:
        raise ValueError("round_index must be >= 0")
    seed, hands, open_card, stock = deal(variant, secret=secret, round_index=round_index)
    n = variant.num_players
    dealer = round_index % n
    return state_of_fields(
        {
            "variant": variant,
            "round_index": round_index,
            "dealer": dealer,
            "round_seed": seed,
            "current_player": (dealer + 1) % n,
            "phase": "draw",
            "hands": tuple([tuple(sorted(h)) for h in hands]),
            "stock": tuple(stock),
            "open_pile": () if open_card is None else (open_card,),
            "table": (),
            "out": (False,) * n,
            "came_out_this_turn": False,
            "taken_from_open": None,
            "turn": 0,
            "move_count": 0,
            "reshuffles": 0,
            "removed": (),
            "winner": None,
            "end_reason": None,
            "log_chunks": (),
            "log_tail": (),
            "open_takes": (),
        }
    )


def deal_summary(variant: Variant, *, secret: bytes, round_index: int) -> dict[str, Any]:
    """The deal of a round as codes, for ``python -m engine deal``: the commitment, each
    seat's hand in the order dealt, the open pile and the stock (top first)."""
    _, hands, open_card, stock = deal(variant, secret=secret, round_index=round_index)
    return {
        "commitment": commitment(secret),
        "hands": [[CARD_CODE[c] for c in h] for h in hands],
        "open": [] if open_card is None else [CARD_CODE[open_card]],
        "stock": [CARD_CODE[c] for c in stock],
    }


# --- from JSON -------------------------------------------------------------------------------


def _ints(value: Any, what: str) -> tuple[int, ...]:
    """A JSON list of whole numbers (never ``true``, ``1.5`` or ``"7"``)."""
    if not isinstance(value, list) or not all(type(c) is int for c in value):
        raise InvalidState(f"state: {what} must be a list of whole numbers")
    return tuple(value)


def _whole(obj: Mapping[str, Any], key: str, low: int, high: int | None = None) -> int:
    """``obj[key]``, a whole number from ``low`` (up to ``high`` where given)."""
    value = obj[key]
    if type(value) is not int or value < low or (high is not None and value > high):
        bound = f"{low}..{high}" if high is not None else f">= {low}"
        raise InvalidState(f"state: {key} must be a whole number {bound}, not {value!r}")
    return value


def _seat_or_none(obj: Mapping[str, Any], key: str, n: int) -> int | None:
    return None if obj[key] is None else _whole(obj, key, 0, n - 1)


def state_from_json(obj: Mapping[str, Any]) -> JokerenState:
    """A state from ``JokerenState.to_json()``.

    Only a state the rules can reach is loaded; anything else raises ``InvalidState``
    (a ``ValueError``) naming what is wrong, never another exception: every card in
    exactly one place; seats, dealer, turn and counters in range; the player to move
    exists exactly while the round is not over, and holds a card (a draw finds a card
    in the stock; a player who has drawn keeps a card they may discard); a card taken
    from the open pile this turn is the last one the log shows taken, and is in the
    hand or on the table; the log holds one action entry per move; a finished round
    names how it ended (a winner has no cards left)."""
    try:
        if not isinstance(obj, Mapping) or obj.get("game", "jokeren") != "jokeren":
            raise InvalidState("state: not a Jokeren state")
        if not isinstance(obj["variant"], Mapping):
            raise InvalidState("state: variant must be the variant's JSON object")
        variant = variant_from_json(obj["variant"])
        n = variant.num_players
        hands_raw = obj["hands"]
        if not isinstance(hands_raw, list) or len(hands_raw) != n:
            raise InvalidState("state: one hand per seat")
        hands = tuple(tuple(sorted(_ints(h, "a hand"))) for h in hands_raw)
        if not isinstance(obj["table"], list) or not isinstance(obj["log"], list):
            raise InvalidState("state: table and log must be lists")
        table = tuple(meld_from_json(m) for m in obj["table"])
        log = tuple(_entry_from_json(e) for e in obj["log"])
        log_chunks, log_tail = _chunked(log)
        out_raw = obj["out"]
        if not isinstance(out_raw, list) or not all(isinstance(x, bool) for x in out_raw):
            raise InvalidState("state: out must be a list of true/false per seat")
        for key in ("came_out_this_turn",):
            if not isinstance(obj[key], bool):
                raise InvalidState(f"state: {key} must be true or false")
        seed_hex = obj["round_seed"]
        if not isinstance(seed_hex, str):
            raise InvalidState("state: round_seed must be hex text")
        state = JokerenState(
            variant=variant,
            round_index=_whole(obj, "round_index", 0),
            dealer=_whole(obj, "dealer", 0, n - 1),
            round_seed=bytes.fromhex(seed_hex),
            current_player=_seat_or_none(obj, "current_player", n),
            phase=obj["phase"],
            hands=hands,
            stock=_ints(obj["stock"], "stock"),
            open_pile=_ints(obj["open_pile"], "open_pile"),
            table=table,
            out=tuple(out_raw),
            came_out_this_turn=obj["came_out_this_turn"],
            taken_from_open=(
                None
                if obj["taken_from_open"] is None
                else _whole(obj, "taken_from_open", 0, variant.pack_size - 1)
            ),
            turn=_whole(obj, "turn", 0, variant.turn_limit),
            move_count=_whole(obj, "move_count", 0),
            reshuffles=_whole(obj, "reshuffles", 0),
            removed=_ints(obj["removed"], "removed"),
            winner=_seat_or_none(obj, "winner", n),
            end_reason=obj["end_reason"],
            log_chunks=log_chunks,
            log_tail=log_tail,
            open_takes=_open_takes(log),
        )
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, IllegalMove) as exc:
        raise InvalidState(f"state: {exc!r}") from exc
    _check_reachable(state, log)
    return state


def _check_reachable(state: JokerenState, log: Log) -> None:
    """Raise ``InvalidState`` unless ``state`` is one the rules can reach (see
    ``state_from_json``)."""
    v = state.variant
    n = v.num_players
    hands = state.hands
    if state.phase not in ("draw", "play", "over") or len(state.out) != n:
        raise InvalidState("state: bad phase or seats")
    if len(state.round_seed) != 32:
        raise InvalidState("state: round_seed must be 32 bytes")
    if state.dealer != state.round_index % n:
        raise InvalidState("state: the dealer of round r is seat r mod the number of players")
    every = [c for h in hands for c in h]
    every += [*state.stock, *state.open_pile, *state.removed]
    every += [c for m in state.table for c in m.cards]
    if sorted(every) != list(range(v.pack_size)):
        raise InvalidState("state: every card must be in exactly one place")
    if sum(1 for entry in log if entry[0] == "action") != state.move_count:
        raise InvalidState("state: the log must hold one action per move")
    for meld in state.table:
        if not 0 <= meld.owner < n or not state.out[meld.owner]:
            raise InvalidState("state: a meld's owner must be a seat that came out")
    if state.phase == "over":
        if state.current_player is not None or state.taken_from_open is not None:
            raise InvalidState("state: nobody is to move once the round is over")
        if state.end_reason == "out":
            if state.winner is None or hands[state.winner]:
                raise InvalidState("state: the winner of a round has no cards left")
        elif state.end_reason in ("stock", "turn_limit"):
            if state.winner is not None:
                raise InvalidState("state: a round without a winner names none")
        else:
            raise InvalidState("state: a finished round names how it ended")
        return
    seat = state.current_player
    if seat is None or state.end_reason is not None or state.winner is not None:
        raise InvalidState("state: the round is over exactly when nobody is to move")
    if state.turn >= v.turn_limit:
        raise InvalidState("state: the turn limit is reached")
    if not all(hands):
        raise InvalidState("state: every player holds a card until the round is over")
    if state.came_out_this_turn and not state.out[seat]:
        raise InvalidState("state: only a player who came out came out this turn")
    taken = state.taken_from_open
    if state.phase == "draw":
        if not state.stock:
            raise InvalidState("state: a player to draw finds a card in the stock")
        if taken is not None or state.came_out_this_turn:
            raise InvalidState("state: nothing is taken or laid before the draw")
        return
    if taken is not None:
        takes = state.open_takes
        if not takes or takes[-1] != (seat, taken):
            raise InvalidState("state: the card taken this turn is the last one taken")
        melded = any(taken in m.cards for m in state.table) or any(
            entry[0] == "complete" and taken in entry[3][1:] for entry in log
        )
        if taken not in hands[seat] and not melded:
            raise InvalidState("state: the card taken this turn is in the hand or was laid")
    if not _discardable(hands[seat], taken):
        raise InvalidState("state: a player who drew keeps a card they may discard")
