"""What both Jokeren bot levels do after their draw (docs/rules.md, section 3): lay down
the melds they hold (the opening requirement met in one ``LayMelds``), swap a table joker
or lay off what fits, keep a card to discard, and discard a meld card only when no loose
card may go. The levels (``engine.jokeren.bots.basic``, ``engine.jokeren.bots.strong``)
decide in which order and with which card.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.jokeren.actions import (
    LayMelds,
    LayOff,
    SwapJoker,
    lay_off_action,
)
from engine.jokeren.bots.hand import (
    CARD_WEIGHTS,
    JOKER_KIND,
    KIND,
    POINT_WEIGHTS,
    HandMeld,
    Partition,
    partition,
)
from engine.jokeren.bots.lanes import (
    LANE_BIT,
    live_mask,
)
from engine.jokeren.bots.opening import keep_one, opening_melds
from engine.jokeren.bots.view import BotView
from engine.jokeren.melds import StandsFor


def _specs(
    hand: Sequence[int], melds: Sequence[HandMeld]
) -> tuple[tuple[tuple[int, ...], tuple[StandsFor, ...]], ...]:
    """The cards and stands-for of each meld, for a ``LayMelds``: of the copies of a
    card the lowest id first (``hand`` sorted, as a state keeps it)."""
    jokers = [c for c in hand if KIND[c] == JOKER_KIND]
    taken: list[int] = []
    out = []
    for m in melds:
        cards = []
        for k in m.naturals:
            c = k if k in hand and k not in taken else k + 54
            taken.append(c)
            cards.append(c)
        for _ in m.jokers:
            cards.append(jokers.pop(0))
        out.append((tuple(cards), (*(None,) * len(m.naturals), *m.jokers)))
    return tuple(out)


def discard_left(hand: Sequence[int], laid: Sequence[int], taken_kind: int | None) -> bool:
    """Whether the hand, less the cards ``laid``, still holds a card it may discard."""
    if taken_kind is None:
        return len(hand) > len(laid)
    kinds = KIND
    return any(kinds[c] != taken_kind and c not in laid for c in hand)


def lowest_id(hand: Sequence[int], k: int) -> int:
    """The lowest card id of kind ``k`` in the hand (the copy a bot plays)."""
    if k != JOKER_KIND:
        return k if k in hand else k + 54
    return min(c for c in hand if KIND[c] == JOKER_KIND)


def open_card_forced(m: int, jokers: int, tk: int) -> bool | None:
    """The rules both levels follow for the open card of kind ``tk``, for a hand of lane
    mask ``m`` (its naturals) and ``jokers``: always a joker, never a card that would
    leave nothing to discard (``None``: the level weighs it)."""
    if tk == JOKER_KIND:
        return bool(m)  # with only jokers nothing would be left to discard
    if not jokers and m == LANE_BIT[tk]:
        return False  # only copies of the open card
    return None


def lay_down_melds(view: BotView, part: Partition) -> tuple[HandMeld, ...] | None:
    """The new melds to lay now: the opening that meets the requirement, or, once out (or
    with no requirement), every meld of the hand (``None`` or empty: none). Both levels
    lay these; the strong bot names their jokers its own way first."""
    naturals, jokers = view.naturals, view.jokers
    melds: tuple[HandMeld, ...] | None
    if not view.out and view.requirement is not None:
        melds = opening_melds(naturals, jokers, view.requirement, view.by_cards)
    else:
        if not part.melds:
            return None
        melds = part.melds
        left = len(part.loose) + part.loose_jokers
        if view.lay_off_now:
            left -= sum(1 for k in part.loose if k in view.table.fit)
        if 1 < left <= 3 and _stuck_cards(naturals, jokers, view) <= 1:
            # going out may need the split with the fewest cards left, not points
            fewest = partition(naturals, jokers, True)
            if view.lay_off_now:
                out_now = left_after(naturals, jokers, view) <= 1
            else:
                out_now = len(fewest.loose) + fewest.loose_jokers <= 1
            if out_now:
                melds = fewest.melds
                if not fewest.loose and not fewest.loose_jokers:
                    melds = keep_one(melds)
        elif not part.loose and not part.loose_jokers:
            melds = keep_one(melds)
    return melds


def lay_melds(view: BotView, melds: tuple[HandMeld, ...]) -> LayMelds | None:
    """The ``LayMelds`` of ``melds`` (not empty), or ``None`` when it would leave no card
    the hand may discard."""
    specs = _specs(view.hand, melds)
    laid = [c for cards, _ in specs for c in cards]
    if not discard_left(view.hand, laid, view.taken_kind):
        return None
    return LayMelds(specs)


def _stuck_cards(naturals: tuple[int, ...], jokers: int, view: BotView) -> int:
    """How many cards stay in hand in every split and after every lay-off this turn: the
    cards with no partner to meld with (``live_mask``) that fit no meld on the table, not
    even after another card is laid off there. (Two or more: the hand cannot go out.)"""
    if jokers >= 2:
        return 0
    live = live_mask(naturals, jokers)
    bits = LANE_BIT
    stuck = [k for k in naturals if not live & bits[k]]
    if stuck and view.lay_off_now:
        table = view.table
        opened = table.unlock.values()
        stuck = [k for k in stuck if k not in table.fit and k not in opened]
    return len(stuck)


def left_after(naturals: tuple[int, ...], jokers: int, view: BotView) -> int:
    """How many cards stay in a hand once it lays its melds (fewest cards) and lays off
    what fits the table (a card laid off at a run's end lets the next one fit)."""
    part = partition(naturals, jokers, True)
    table = view.table
    left = part.loose_jokers if JOKER_KIND not in table.fit else 0
    if not part.loose:
        return left
    fit = table.fit
    unlock = table.unlock
    extra: set[int] = set()
    loose = list(part.loose)
    progress = True
    while progress and loose:
        progress = False
        for k in loose:
            if k in fit or k in extra:
                loose.remove(k)
                after = unlock.get(k, -1)
                if after >= 0:
                    extra.add(after)
                progress = True
                break
    return left + len(loose)


def swap(view: BotView, part: Partition) -> SwapJoker | None:
    """Swap a table joker for the natural card it stands for when the joker then leaves
    less penalty in hand, or when the card is loose and the joker can be laid off
    elsewhere at once (a free swap: the loose card is gone)."""
    swaps = view.table.swaps
    if not swaps:
        return None
    naturals, jokers = view.naturals, view.jokers
    room = JOKER_KIND in view.table.fit
    hand = view.hand
    for k, index in swaps.items():
        if k not in naturals:
            continue
        if view.taken_kind == JOKER_KIND and not discard_left(
            hand, [lowest_id(hand, k)], JOKER_KIND
        ):
            continue  # only jokers, the one taken from the open pile among them, would stay
        if room and k in part.loose:
            return SwapJoker(lowest_id(view.hand, k), index)
        rest = list(naturals)
        rest.remove(k)
        after = partition(tuple(rest), jokers + 1, view.by_cards)
        if after.cost < part.cost and not after.loose_jokers:
            return SwapJoker(lowest_id(view.hand, k), index)
    return None


def lay_off(view: BotView, part: Partition) -> LayOff | None:
    """Lay off a loose card (the most costly first) onto a meld it fits (a policy's
    ``decide`` asks only when one fits); a joker laid off names what the engine's
    ``lay_off_action`` names (the strong bot names it its own way)."""
    fit = view.table.fit
    weights = CARD_WEIGHTS if view.by_cards else POINT_WEIGHTS
    loose = sorted(set(part.loose), key=lambda k: (-weights[k], k))
    if part.loose_jokers:
        loose.insert(0, JOKER_KIND)
    for k in loose:
        index = fit.get(k)
        if index is not None:
            card = lowest_id(view.hand, k)
            if discard_left(view.hand, [card], view.taken_kind):
                return lay_off_action(card, index)
    return None


def swap_or_lay_off(view: BotView, part: Partition) -> SwapJoker | LayOff | None:
    """After the lay-downs, when the seat may lay off: a joker swap (``swap``) when a
    card of the hand stands for a table joker, else a lay-off (``lay_off``) when a loose
    card fits the table."""
    table = view.table
    if not table.swaps.keys().isdisjoint(view.naturals):
        swapped = swap(view, part)
        if swapped is not None:
            return swapped
    fit = table.fit
    if (part.loose_jokers and JOKER_KIND in fit) or not fit.keys().isdisjoint(part.loose):
        return lay_off(view, part)
    return None


def least_loss_discard(view: BotView) -> int:
    """The card to discard when no loose card may go: the natural card whose loss costs
    least (a meld card), a joker only when nothing else may go."""
    weights = CARD_WEIGHTS if view.by_cards else POINT_WEIGHTS
    taken = view.taken_kind
    hand = view.hand
    naturals, jokers = view.naturals, view.jokers
    options = sorted({k for k in naturals if k != taken})
    if options:

        def loss(k: int) -> tuple[int, int]:
            rest = list(naturals)
            rest.remove(k)
            return partition(tuple(rest), jokers, view.by_cards).cost, -weights[k]

        return lowest_id(hand, min(options, key=loss))
    return lowest_id(hand, JOKER_KIND if view.jokers or taken is None else taken)
