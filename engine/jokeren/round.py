"""``JokerenState``: one Jokeren round, immutable (docs/rules.md §2-§3; the full rules and
the JSON shapes are in ``engine.jokeren.state``): applying an action (each action copies
the fields, changes what it changes and makes a new state) and the legal actions, on top
of ``RoundBase`` (the fields, what a seat sees, the JSON).
"""

from __future__ import annotations

from bisect import bisect
from collections.abc import Callable
from dataclasses import dataclass
from itertools import filterfalse
from typing import Any

from engine.cards import CARD_CODE, CARD_KIND, card_label
from engine.dealing import Stream
from engine.errors import IllegalMove, NotYourTurn, RoundOver
from engine.jokeren.actions import (
    DISCARDS,
    DRAW_OPEN,
    Action,
    AlreadyDrew,
    CannotDiscardTakenCard,
    Discard,
    Draw,
    LayMelds,
    LayOff,
    MeldSpec,
    MustDrawFirst,
    OpenPileEmpty,
    SwapJoker,
    move_key,
)
from engine.jokeren.lay_downs import lay_melds_options
from engine.jokeren.melds import InvalidMeld, Meld, check_meld, lay_off, lay_off_options, swap_joker
from engine.jokeren.round_base import RoundBase
from engine.jokeren.round_log import DISCARD_ENTRIES, STOCK_DRAWS, LogEntry, append_log
from engine.jokeren.turns import (
    PLAY_ACTIONS,
    check_lay_off_allowed,
    check_opening,
    discardable,
    first_cycle_error,
    has_other_kind,
    must_keep_discard,
    no_meld,
    not_an_action,
    not_in_hand,
    put_in,
    set_hand,
    take_out,
    without,
)

_new = object.__new__


def state_of_fields(fields: dict[str, Any]) -> JokerenState:
    """A state with these fields (every field of ``JokerenState``, by name; the dict
    becomes the state's own): ``JokerenState(**fields)`` without the frozen dataclass's
    ``__init__``, which sets each field with a call (the bots' going-out search makes
    one for every search)."""
    state = _new(JokerenState)
    _set_state_dict(state, fields)
    return state


@dataclass(frozen=True)
class JokerenState(RoundBase):
    """One Jokeren round (immutable; ``apply`` returns a new state)."""

    # --- small helpers ---------------------------------------------------------------

    def _evolve(self, **changes: Any) -> JokerenState:
        """A copy with some fields changed (cheaper than ``dataclasses.replace``)."""
        d = self.__dict__.copy()
        d.update(changes)
        return state_of_fields(d)

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
        return discardable(without(self.hands[seat], (card,)), self.taken_from_open)

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
                d["hands"] = set_hand(hands, player, (*hand[:i], card, *hand[i:]))
                d["stock"] = stock[1:]
                d["taken_from_open"] = None
                d["phase"] = "play"
                d["move_count"] = self.move_count + 1
                entry = STOCK_DRAWS[player]
                append_log(d, (entry,))
                new = _new(JokerenState)
                _set_state_dict(new, d)
                return new
            return self._draw(player, action)  # type: ignore[arg-type]
        if t not in PLAY_ACTIONS:
            raise not_an_action(action)
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
        raise not_an_action(action)

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
        if not has_other_kind(hand, CARD_KIND[card]):
            nl, en = card_label(CARD_CODE[card], "nl"), card_label(CARD_CODE[card], "en")
            raise CannotDiscardTakenCard(
                f"Met {nl} van de open stapel hou je geen kaart over om weg te gooien.",
                f"Taking {en} from the open pile would leave you nothing you may discard.",
            )
        d = self.__dict__.copy()
        d["hands"] = set_hand(self.hands, seat, put_in(hand, card))
        d["open_pile"] = pile[:-1]
        d["taken_from_open"] = card
        d["open_takes"] = (*self.open_takes, (seat, card))
        d["phase"] = "play"
        d["move_count"] = self.move_count + 1
        append_log(d, (("action", seat, DRAW_OPEN, (card,)),))
        return state_of_fields(d)

    def _discard(self, seat: int, action: Discard) -> JokerenState:
        card = action.card
        hands = self.hands
        hand = hands[seat]
        try:
            i = hand.index(card)
        except ValueError:
            raise not_in_hand(card) from None
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
        d["hands"] = set_hand(hands, seat, new_hand)
        d["open_pile"] = pile
        d["came_out_this_turn"] = False
        d["taken_from_open"] = None
        d["move_count"] = self.move_count + 1
        shared = action is DISCARDS[card]
        entry = DISCARD_ENTRIES[seat][card] if shared else ("action", seat, action, ())
        if not new_hand:
            d["current_player"] = None
            d["phase"] = "over"
            d["winner"] = seat
            d["end_reason"] = "out"
            append_log(d, (entry, ("end", seat, None, (0,))))
            return state_of_fields(d)
        turn = self.turn + 1
        d["turn"] = turn
        v = self.variant
        if turn >= v.turn_limit:
            d["current_player"] = None
            d["phase"] = "over"
            d["end_reason"] = "turn_limit"
            append_log(d, (entry, ("end", -1, None, (2,))))
            return state_of_fields(d)
        if self.stock:
            append_log(d, (entry,))
        else:
            below = pile[:-1]
            if not below:
                d["current_player"] = None
                d["phase"] = "over"
                d["end_reason"] = "stock"
                append_log(d, (entry, ("end", -1, None, (1,))))
                return state_of_fields(d)
            reshuffles = self.reshuffles
            d["stock"] = tuple(Stream(self.round_seed, f"reshuffle:{reshuffles}").shuffle(below))
            d["open_pile"] = pile[-1:]
            d["reshuffles"] = reshuffles + 1
            append_log(d, (entry, ("reshuffle", -1, None, (reshuffles, len(below)))))
        d["current_player"] = (seat + 1) % v.num_players
        d["phase"] = "draw"
        new = _new(JokerenState)
        _set_state_dict(new, d)
        return new

    def _keep_discard(self, hand: tuple[int, ...]) -> None:
        if not discardable(hand, self.taken_from_open):
            raise must_keep_discard()

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
        if not hand or (taken is not None and not has_other_kind(hand, CARD_KIND[taken])):
            raise must_keep_discard()
        d = self.__dict__.copy()
        hands = list(self.hands)
        hands[seat] = hand
        d["hands"] = tuple(hands)
        d["move_count"] = self.move_count + 1
        table = self.table
        entry: LogEntry = ("action", seat, action, ())
        if meld.is_complete:
            d["table"] = table[:i] + table[i + 1 :]
            append_log(d, (entry, self._leave(d, meld)))
        else:
            d["table"] = (*table[:i], meld, *table[i + 1 :])
            append_log(d, (entry,))
        new = _new(JokerenState)
        _set_state_dict(new, d)
        return new

    def _table_play(self, seat: int, card: int, i: int) -> tuple[tuple[int, ...], Meld]:
        """The hand of ``seat`` and meld ``i`` for a lay-off or a joker swap, checked: the
        seat may lay off now, holds ``card``, and meld ``i`` is on the table."""
        check_lay_off_allowed(
            self.variant, self.turn, is_out=self.out[seat], came_out=self.came_out_this_turn
        )
        hand = self.hands[seat]
        if card not in hand:
            raise not_in_hand(card)
        table = self.table
        if not 0 <= i < len(table):
            raise no_meld(i)
        return hand, table[i]

    def _lay_off(self, seat: int, action: LayOff) -> JokerenState:
        card, i = action.card, action.meld_index
        hand, target = self._table_play(seat, card, i)
        meld = lay_off(target, card, action.stands_for)
        return self._after_table_play(seat, action, i, meld, take_out(hand, card))

    def _swap(self, seat: int, action: SwapJoker) -> JokerenState:
        card, i = action.card, action.meld_index
        hand, target = self._table_play(seat, card, i)
        meld, joker = swap_joker(target, card)
        new_hand = put_in(take_out(hand, card), joker)
        return self._after_table_play(seat, action, i, meld, new_hand)

    def _lay_melds(self, seat: int, action: LayMelds) -> JokerenState:
        v = self.variant
        if v.first_cycle_no_meld and self.turn < v.num_players:
            raise first_cycle_error()
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
                raise not_in_hand(c)
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
            check_opening(v, self.round_index, melds, len(new_hand))
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
        append_log(d, tuple(entries))
        new = _new(JokerenState)
        _set_state_dict(new, d)
        return new

    # --- legal actions -------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move, in a fixed canonical order.

        Draw phase: ``Draw("stock")``, ``Draw("open")``. Play phase: the ``LayMelds``
        (every single meld with canonical joker choices, or, to come out under an
        opening requirement, the smallest combinations that meet it), then every
        ``LayOff`` (by card, meld, joker choice), every ``SwapJoker`` and every
        ``Discard`` (by card id).
        """
        if self.phase != "play" or self.first_cycle:
            return self.actions_but_lay_melds()
        out: list[Action] = []
        out.extend(self.lay_melds_options())
        out.extend(self.actions_but_lay_melds())
        return out

    def lay_melds_options(self) -> list[LayMelds]:
        """The ``LayMelds`` actions listed by ``legal_actions`` (see there)."""
        seat = self.current_player
        if seat is None or self.phase != "play" or self.first_cycle:
            return []
        return lay_melds_options(
            self.variant,
            self.round_index,
            self.hands[seat],
            self.taken_from_open,
            is_out=self.out[seat],
        )


#: Set a state's ``__dict__`` (the fields of a new state) directly (the descriptor is
#: ``RoundBase``'s: the class that gave the instances their ``__dict__``).
_set_state_dict: Callable[[JokerenState, dict[str, Any]], None] = RoundBase.__dict__[
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
