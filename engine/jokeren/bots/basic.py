"""The ``basic`` Jokeren bot: it plays like a sensible person (docs/rules.md, sections 3-4).

- it goes out whenever any legal sequence of this turn does (``going_out_line``), and
  takes the open card whenever that makes going out possible this turn
  (``open_card_goes_out``);
- it takes the open card when it completes or extends a meld in hand, or when it can be
  laid off this turn; it takes an open joker;
- it lays down the melds it holds, lays off what fits, swaps a table joker when the joker
  then makes a meld in hand, or swaps a loose card for a table joker and lays that joker
  off elsewhere (``engine.jokeren.bots.play``);
- it never discards a joker while holding another card, nor a card that fits a meld on
  the table while another card may go; it discards a loose card, the highest first, among
  equals the one with the fewest neighbours in hand.

Most turns it decides straight from its seat's narrow view (``SeatView``): ``draw`` and
``play``; otherwise on its whole view (``decide``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import RoundOver
from engine.jokeren.actions import (
    DISCARDS,
    DRAW_OPEN,
    DRAW_STOCK,
    Action,
    Draw,
)
from engine.jokeren.bots.going_out import (
    line_after_quick,
    open_card_goes_out,
    quick_bits,
)
from engine.jokeren.bots.hand import (
    CARD_WEIGHTS,
    JOKER_KIND,
    KIND,
    POINT_WEIGHTS,
    Partition,
    hand_kinds,
    partition,
)
from engine.jokeren.bots.lanes import (
    LANE_BIT,
    PARTNERS_ONE,
    lane_mask,
    lane_neighbours,
    live_with,
)
from engine.jokeren.bots.play import (
    lay_down_melds,
    lay_melds,
    least_loss_discard,
    lowest_id,
    open_card_forced,
    swap_or_lay_off,
)
from engine.jokeren.bots.table import TableBits, TableView, table_bits, table_view
from engine.jokeren.bots.view import BotView, Seen, view_of
from engine.jokeren.state import JokerenState


def bot_action(state: JokerenState) -> Action:
    """A basic bot's choice in the seat to move. It breaks no ties at random (it needs no
    stream) and reads its seat's narrow view (``SeatView``) only, never the whole
    observation."""
    seat = state.current_player
    if seat is None:
        raise RoundOver("De ronde is voorbij.", "The round is over.")
    if state.phase == "draw":
        return draw(state.seat_view(seat))
    return play(state.seat_view(seat))


def draw(obs: Seen) -> Draw:
    """A basic bot's draw (``open_card_verdict``, and the open card when it makes going
    out possible: ``open_card_goes_out``), straight from the observation: one pass over
    the hand gives its jokers and the lane mask of its naturals."""
    pile = obs.open_pile
    if not pile:
        return DRAW_STOCK
    kinds = KIND
    bits = LANE_BIT
    m = 0
    jokers = 0
    for c in obs.hand:
        k = kinds[c]
        if k == JOKER_KIND:
            jokers += 1
        else:
            m |= bits[k]
    lay_off_now = not obs.first_cycle and (obs.variant.lay_off_before_out or obs.out[obs.seat])
    table = table_bits(obs.table) if lay_off_now else None
    tk = kinds[pile[-1]]
    if open_card_verdict(m, jokers, tk, table):
        return DRAW_OPEN
    # Declined: the open card has no partner in hand and fits no meld on the table, so it
    # can leave the hand this turn (it may not be discarded) only by a joker swap, one place
    # beyond a lay-off place, or in a meld with the joker a swap brings (and a partner, the
    # joker at hand, or the joker of a second swap): else it cannot help going out.
    if table is not None and obs.table and tk != JOKER_KIND:
        sb = table.swap_bits
        swap_in = m & sb and (
            jokers
            or m & PARTNERS_ONE[tk]
            or sum(1 for c in obs.hand if kinds[c] != JOKER_KIND and bits[kinds[c]] & sb) >= 2
        )
        if (swap_in or bits[tk] & (sb | table.next_bits)) and open_card_goes_out(obs):
            return DRAW_OPEN
    return DRAW_STOCK


def play(obs: Seen) -> Action:
    """A basic bot's action after its draw: the next action of ``going_out_line`` when it
    can go out, else ``decide``, read straight from the seat's view (``obs``) when the
    hand has nothing to lay down, swap or lay off (most turns): then it discards
    (``basic_discard``). Otherwise, or when no loose card may go, ``decide`` chooses on
    the bot's whole view (``view_of``, which a basic bot makes from the same narrow view)."""
    hand = obs.hand
    naturals, jokers = hand_kinds(hand)
    table = obs.table
    tb = table_view(table)
    m = lane_mask(naturals)
    if obs.may_meld and quick_bits(m, jokers, hand, tb if obs.may_lay_off and table else None):
        line = line_after_quick(obs)  # (``going_out_line``: its quick condition holds)
        if line is not None:
            return line[0]
    by_cards = obs.variant.scoring == "cards"
    part = partition(naturals, jokers, by_cards)
    if not (obs.may_meld and (part.melds or obs.needs_opening)):
        # (the table's lay-off places and joker swaps as lane bits: a kind's bits are its own)
        places = tb.places
        if not obs.may_lay_off or (
            not tb.swap_bits & m
            and not (part.loose_jokers and tb.joker_fits)
            and not places & lane_mask(part.loose)
        ):
            taken = obs.taken_from_open
            weights = CARD_WEIGHTS if by_cards else POINT_WEIGHTS
            k = basic_discard(
                part.loose, weights, places, None if taken is None else KIND[taken], naturals
            )
            if k >= 0:
                return DISCARDS[lowest_id(hand, k)]
    return decide(view_of(obs, strong=False))


def open_card_verdict(m: int, jokers: int, tk: int, table: TableView | TableBits | None) -> bool:
    """Whether a basic bot takes the open card of kind ``tk`` for a hand of lane mask
    ``m`` and ``jokers`` (``open_card_forced``, then): when it can meld with the hand, or
    be laid off this turn (``table``: the table when the seat may lay off this turn, else
    ``None``)."""
    forced = open_card_forced(m, jokers, tk)
    if forced is not None:
        return forced
    if jokers >= 2 or live_with(tk, m, jokers):
        return True
    return table is not None and bool(table.places & LANE_BIT[tk])


def take_open(view: BotView) -> bool:
    """A basic bot's draw on its whole view: ``open_card_verdict``."""
    top = view.open_top
    if top is None:
        return False
    table = view.table if view.lay_off_now else None
    return open_card_verdict(lane_mask(view.naturals), view.jokers, KIND[top], table)


def decide(view: BotView) -> Action:
    """A basic bot's action on its whole view (see the module text)."""
    if view.drawing:
        return DRAW_OPEN if take_open(view) else DRAW_STOCK
    part = partition(view.naturals, view.jokers, view.by_cards)
    if view.may_lay and (part.melds or (view.requirement is not None and not view.out)):
        melds = lay_down_melds(view, part)
        if melds:
            lay = lay_melds(view, melds)
            if lay is not None:
                return lay
    if view.lay_off_now:
        action = swap_or_lay_off(view, part)
        if action is not None:
            return action
    return DISCARDS[discard(view, part)]


def discard(view: BotView, part: Partition) -> int:
    """The card a basic bot discards: the loose card of ``basic_discard``, else
    ``least_loss_discard``."""
    weights = CARD_WEIGHTS if view.by_cards else POINT_WEIGHTS
    k = basic_discard(part.loose, weights, view.table.places, view.taken_kind, view.naturals)
    if k >= 0:
        return lowest_id(view.hand, k)
    return least_loss_discard(view)


def basic_discard(
    loose: Sequence[int],
    weights: tuple[int, ...],
    places: int,
    taken: int | None,
    naturals: Sequence[int],
) -> int:
    """The loose kind a basic bot discards (-1: none may go): the highest (a card that
    fits the table last), among equals the one with fewest neighbours in hand, then the
    highest kind; never the kind taken from the open pile this turn. (The neighbours, at
    most 7, weigh less than one point, so they are counted only for the cards tied on
    points.) ``places``: the lane bits (``LANE_BIT``) of the kinds that fit the table;
    ``taken``: the kind taken from the open pile this turn; ``naturals``: the hand's
    natural kinds."""
    top = -10_000
    tied: list[int] = []
    bits = LANE_BIT
    for k in loose:  # sorted, a kind may come twice (two decks)
        if k == taken:
            continue
        w = weights[k] - 1000 if places & bits[k] else weights[k]
        if w > top:
            top = w
            tied = [k]
        elif w == top:
            tied.append(k)
    if len(tied) <= 1:
        return tied[0] if tied else -1
    m = lane_mask(naturals)
    fewest = 99
    pick = -1
    for k in tied:  # ascending: the last of the fewest is the highest kind
        n = lane_neighbours(k, m)
        if n <= fewest:
            fewest = n
            pick = k
    return pick
