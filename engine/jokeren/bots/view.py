"""What a Jokeren bot sees: the ``BotView`` of its seat, made from its observation (or,
for a basic bot, from its seat's narrow ``SeatView``) and never from anything else
(docs/rules.md, section 4: a bot's choice is a function of public information and the
round's seed).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from engine.jokeren.bots.hand import KIND, hand_kinds, kind_of
from engine.jokeren.bots.opening import Requirement
from engine.jokeren.bots.table import TableView, table_view
from engine.jokeren.melds import Meld
from engine.jokeren.state import JokerenObservation, SeatView

#: what a bot reads of its seat: the whole observation, or its narrow part (``SeatView``,
#: the same values by the same names)
Seen = SeatView | JokerenObservation


# --- what a bot sees -------------------------------------------------------------------


class BotView(NamedTuple):
    """The facts a bot decides on, all from its seat's observation (a named tuple: it
    is made for every decision, and cheaply)."""

    seat: int
    #: whether the turn starts (draw) or the card is drawn (lay down, lay off, discard)
    drawing: bool
    hand: tuple[int, ...]
    #: the hand's natural kinds, sorted, and its number of jokers
    naturals: tuple[int, ...]
    jokers: int
    #: the top card of the open pile, or ``None`` when it is empty
    open_top: int | None
    table: TableView
    #: the melds on the table themselves
    melds: tuple[Meld, ...]
    #: this seat has come out (laid its first meld)
    out: bool
    #: may lay down at all this turn (not in a first cycle without melds)
    may_lay: bool
    #: may lay off and swap jokers now
    lay_off_now: bool
    #: may lay off and lay down next turn (out already, or allowed before coming out)
    lay_off_next: bool
    #: what the first lay-down needs, while the seat is not out (``None``: nothing)
    requirement: Requirement | None
    #: the kind of the card taken from the open pile this turn (it may not be discarded)
    taken_kind: int | None
    #: the variant scores cards in hand (not points)
    by_cards: bool
    decks: int
    #: cards in each seat's hand (a strong bot's view; empty in a basic bot's)
    hand_counts: tuple[int, ...]
    #: per kind (0..52), how many cards this seat has seen outside its hand: on the table,
    #: in the open pile, removed from the game
    seen: tuple[int, ...]
    #: kinds the next seat has taken from the open pile this round
    next_taken: frozenset[int]


def _requirement(obs: Seen) -> Requirement | None:
    if not obs.needs_opening:
        return None
    v = obs.variant
    if v.opening == "points":
        return Requirement(points=v.opening_points)
    # the observation's ``contract`` (``None`` unless the opening is a contract)
    c = v.contract_for(obs.round_index)
    if c is None:
        return None
    return Requirement(c.runs, c.groups, c.all_out, c.points, c.any_meld)


def _seen(obs: JokerenObservation) -> tuple[int, ...]:
    counts = [0] * 53
    for m in obs.table:
        for c in m.cards:
            counts[kind_of(c)] += 1
    for c in obs.open_pile:
        counts[kind_of(c)] += 1
    for c in obs.removed:
        counts[kind_of(c)] += 1
    return tuple(counts)


def _taken_by(obs: JokerenObservation, seat: int) -> frozenset[int]:
    """Kinds ``seat`` took from the open pile this round (public: the log shows them)."""
    return frozenset(KIND[card] for who, card in obs.open_takes if who == seat)


#: what a basic bot's view holds for the facts only a strong bot uses
_NOTHING_SEEN: Final = (0,) * 53
_NO_KINDS: Final[frozenset[int]] = frozenset()
_NO_COUNTS: Final[tuple[int, ...]] = ()


def view_of(obs: Seen, *, strong: bool) -> BotView:
    """The ``BotView`` of the seat to move: from its observation, or for a basic bot also
    from its ``SeatView`` (the facts only a strong bot uses, the hand counts, the cards
    seen and the next player's takes, are then left empty)."""
    if strong:
        if not isinstance(obs, JokerenObservation):
            raise TypeError("a strong bot's view is made from the whole observation")
        hand_counts = obs.hand_counts
        seen = _seen(obs)
        next_taken = (
            _NO_KINDS
            if obs.phase == "draw"
            else _taken_by(obs, (obs.seat + 1) % obs.variant.num_players)
        )
    else:
        hand_counts = _NO_COUNTS
        seen = _NOTHING_SEEN
        next_taken = _NO_KINDS
    seat = obs.seat
    v = obs.variant
    drawing = obs.phase == "draw"
    if drawing:
        may_lay = not obs.first_cycle
        lay_off_now = may_lay and (v.lay_off_before_out or obs.out[seat])
    else:
        may_lay = obs.may_meld
        lay_off_now = obs.may_lay_off
    taken = obs.taken_from_open
    hand = obs.hand
    naturals, jokers = hand_kinds(hand)
    out = obs.out[seat]
    open_pile = obs.open_pile
    table = obs.table
    view = table_view(table)
    # made positionally, in the order of the fields (the named form costs a call)
    return _new_view(
        BotView,
        (
            seat,
            drawing,
            hand,
            naturals,
            jokers,
            open_pile[-1] if open_pile else None,
            view,
            table,
            out,
            may_lay,
            lay_off_now,
            v.lay_off_before_out or out,
            _requirement(obs) if obs.needs_opening else None,
            None if taken is None else KIND[taken],
            v.scoring == "cards",
            v.decks,
            hand_counts,
            seen,
            next_taken,
        ),
    )


_new_view: Final = tuple.__new__
