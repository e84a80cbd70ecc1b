"""Jokeren bots: ``basic`` and ``strong``.

A bot sees only what its seat may see (``state.observe(seat)``: its own hand, the melds
on the table, the open pile, the number of cards in the other hands and in the stock,
the public log) and, to break ties, the round's ``bot:<seat>`` stream. So a bot's
choice is a function of public information and the round's seed: two entrants who make
the same choices get the same game, move for move (RULES.md §4).

Both levels play like a sensible person:

- go out whenever any legal sequence of this turn does (lay-downs, lay-offs also of
  cards of their own melds, joker swaps, then the last discard): an exact search over the
  engine's own legal actions (``going_out_line``), and take the open card whenever that
  makes going out possible this turn (``open_card_goes_out``);
- take the open card when it completes or extends a meld in hand, or when it can be
  laid off this turn; take an open joker;
- lay down the melds they hold (the opening requirement of the variant: a contract or
  the opening points, met in one ``LayMelds``), lay off what fits, swap a table joker
  when the joker then makes a meld in hand, or swap a loose card for a table joker and
  lay that joker off elsewhere (one card less);
- never discard a joker while holding another card, nor a card that fits a meld on the
  table while another card may go;
- discard a loose card, the highest first (``basic``: among equals the one with the
  fewest neighbours in hand).

``strong`` adds:

- a one-card lookahead: for each card it might discard, the chance of going out next
  turn after one more card from the unseen ones (the table's lay-off places included);
- it keeps cards near a meld (pairs, runs with a gap) while cards that complete them are
  still unseen, and cards that fit the table or can replace a table joker;
- it takes an open card that can be swapped for a table joker;
- the jokers it lays name the card least likely to be in another hand, so they are
  rarely swapped away;
- it avoids feeding the next player (no card of a rank the next player took from the
  open pile, nor a neighbour of it in that suit), dumps high cards when an opponent is
  close to going out, and takes a cheap open card that builds a near meld.

Hand analysis is exact: the melds of a hand are chosen to leave the fewest penalty points
(or the fewest cards when the variant scores cards), by a memoised search over the
candidate melds of the lowest card left (cached per hand), each also with every number of
spare jokers it can hold.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from engine.dealing import Stream
from engine.errors import RoundOver
from engine.jokeren.actions import (
    DISCARDS,
    DRAW_OPEN,
    DRAW_STOCK,
    Action,
    Discard,
    Draw,
    LayMelds,
    LayOff,
    SwapJoker,
    lay_off_action,
)
from engine.jokeren.bots.hand import (
    CARD_WEIGHTS,
    JOKER_KIND,
    KIND,
    KIND_POINTS,
    POINT_WEIGHTS,
    HandMeld,
    Partition,
    hand_kinds,
    kind_of,
    partition,
    rank_of_position,
    run_positions,
    solve_live,
)
from engine.jokeren.bots.hand import clear_caches as hand_clear_caches
from engine.jokeren.bots.lanes import (
    LANE,
    LANE_BIT,
    PARTNERS_ONE,
    lane_mask,
    lane_neighbours,
    live_lanes,
    live_mask,
    live_with,
    near_bits,
    suit_rank_masks,
)
from engine.jokeren.bots.opening import clear_caches as opening_clear_caches
from engine.jokeren.bots.opening import keep_one, opening_melds
from engine.jokeren.bots.table import TableBits, TableView, table_bits, table_view
from engine.jokeren.bots.table import clear_caches as table_clear_caches
from engine.jokeren.bots.view import BotView, Seen, view_of
from engine.jokeren.melds import Meld, StandsFor, lay_off_options
from engine.jokeren.state import JokerenObservation, JokerenState, state_of_fields
from engine.jokeren.variants import Variant
from engine.untracked import untracked_cache

BOT_LEVELS: Final = ("basic", "strong")


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


def _discard_left(hand: Sequence[int], laid: Sequence[int], taken_kind: int | None) -> bool:
    """Whether the hand, less the cards ``laid``, still holds a card it may discard."""
    if taken_kind is None:
        return len(hand) > len(laid)
    kinds = KIND
    return any(kinds[c] != taken_kind and c not in laid for c in hand)


def decide(view: BotView, *, strong: bool, rng: Stream | None) -> Action:
    """The bot's action for a view (see the module text for the policy). ``rng`` breaks
    a strong bot's ties; a basic bot has none to break and may be given ``None``."""
    if view.drawing:
        return DRAW_OPEN if _take_open(view, strong) else DRAW_STOCK
    part = partition(view.naturals, view.jokers, view.by_cards)
    if view.may_lay and (part.melds or (view.requirement is not None and not view.out)):
        lay = _lay_down(view, part, strong)
        if lay is not None:
            return lay
    if view.lay_off_now:
        table = view.table
        if not table.swaps.keys().isdisjoint(view.naturals):
            swap = _swap(view, part, strong)
            if swap is not None:
                return swap
        fit = table.fit
        if (part.loose_jokers and JOKER_KIND in fit) or not fit.keys().isdisjoint(part.loose):
            lay_off = _lay_off(view, part, strong)
            if lay_off is not None:
                return lay_off
    return DISCARDS[_discard(view, part, strong, rng)]


def _basic_play(obs: Seen) -> Action:
    """A basic bot's action after its draw: the next action of ``going_out_line`` when it
    can go out, else ``decide``, read straight from the seat's view (``obs``) when the
    hand has nothing to lay down, swap or lay off (most turns): then it discards
    (``_basic_discard``). Otherwise, or when no loose card may go, ``decide`` chooses on
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
            k = _basic_discard(
                part.loose, weights, places, None if taken is None else KIND[taken], naturals
            )
            if k >= 0:
                return DISCARDS[_lowest_id(hand, k)]
    return decide(view_of(obs, strong=False), strong=False, rng=None)


def _lowest_id(hand: Sequence[int], k: int) -> int:
    """The lowest card id of kind ``k`` in the hand (the copy a bot plays)."""
    if k != JOKER_KIND:
        return k if k in hand else k + 54
    return min(c for c in hand if KIND[c] == JOKER_KIND)


def _open_card_verdict(
    m: int, jokers: int, tk: int, table: TableView | TableBits | None, strong: bool
) -> bool | None:
    """The rules both levels follow for the open card of kind ``tk``, for a hand of lane
    mask ``m`` (its naturals) and ``jokers``: never when it would leave nothing to
    discard; always a joker, and a card that can be laid off this turn (``table``: the
    table when the seat may lay off this turn, else ``None``). A basic bot takes it when
    it can meld with the hand; ``None``: the strong bot weighs it."""
    if tk == JOKER_KIND:
        return bool(m)  # with only jokers nothing would be left to discard
    if not jokers and m == LANE_BIT[tk]:
        return False  # only copies of the open card
    if not strong and (jokers >= 2 or live_with(tk, m, jokers)):
        return True
    if table is not None and (
        table.places & LANE_BIT[tk] or (strong and table.swap_bits & LANE_BIT[tk])
    ):
        return True
    return None if strong else False


def _basic_draw(obs: Seen) -> Draw:
    """A basic bot's draw (``_open_card_verdict``, and the open card when it makes going
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
    if _open_card_verdict(m, jokers, tk, table, False):
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


def _take_open(view: BotView, strong: bool) -> bool:
    """Take the open card when it is a joker, when it makes or extends a meld in hand, or
    when it can be laid off this turn (``_open_card_verdict``); a strong bot also when it
    lowers the hand's penalty or builds a near meld cheaply."""
    top = view.open_top
    if top is None:
        return False
    tk = KIND[top]
    naturals, jokers = view.naturals, view.jokers
    verdict = _open_card_verdict(
        lane_mask(naturals), jokers, tk, view.table if view.lay_off_now else None, strong
    )
    if verdict is not None:
        return verdict
    weights = CARD_WEIGHTS if view.by_cards else POINT_WEIGHTS
    now = partition(naturals, jokers, view.by_cards)
    after = partition(tuple(sorted((*naturals, tk))), jokers, view.by_cards)
    if after.cost < now.cost + weights[tk]:
        return True
    if not view.by_cards:
        # a cheap card that joins a loose card into a pair or a close run
        return KIND_POINTS[tk] <= _NEAR_TAKE and _outs(view, tk, (*now.loose,), now.melds) >= 4
    return False


def _lay_down(view: BotView, part: Partition, strong: bool) -> LayMelds | None:
    """New melds to lay now: the opening that meets the requirement, or, once out (or
    with no requirement), every meld of the hand; always keeping a card to discard."""
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
                out_now = _left_after(naturals, jokers, view) <= 1
            else:
                out_now = len(fewest.loose) + fewest.loose_jokers <= 1
            if out_now:
                melds = fewest.melds
                if not fewest.loose and not fewest.loose_jokers:
                    melds = keep_one(melds)
        elif not part.loose and not part.loose_jokers:
            melds = keep_one(melds)
    if not melds:
        return None
    if strong:
        unseen = _unseen_all(view)
        melds = tuple(_safe_jokers(m, unseen) for m in melds)
    specs = _specs(view.hand, melds)
    laid = [c for cards, _ in specs for c in cards]
    if not _discard_left(view.hand, laid, view.taken_kind):
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


def _safe_jokers(meld: HandMeld, unseen: Sequence[int]) -> HandMeld:
    """The meld with its free jokers naming the cards least likely to be held by another
    player (a joker that stands for a card nobody can hold can never be swapped away):
    in a group the missing suits, in a run the jokers beyond its natural cards."""
    if not meld.jokers:
        return meld
    if not meld.run:
        ri = meld.naturals[0] % 13
        used = {k // 13 for k in meld.naturals}
        free = sorted((s for s in range(4) if s not in used), key=lambda s: unseen[s * 13 + ri])
        return HandMeld(False, meld.naturals, tuple((ri + 1, s) for s in free[: len(meld.jokers)]))
    positions = run_positions(meld)
    n_nat = len(meld.naturals)
    nat_pos = positions[:n_nat]
    lo, hi = min(nat_pos), max(nat_pos)
    inner = [p for p in positions[n_nat:] if lo < p < hi]
    ends = len(meld.jokers) - len(inner)
    suit = meld.naturals[0] // 13
    best: tuple[int, int] | None = None
    for below in range(ends + 1):
        above = ends - below
        if lo - below < 1 or hi + above > 14 or (lo - below == 1 and hi + above == 14):
            continue
        span = [*range(lo - below, lo), *range(hi + 1, hi + above + 1)]
        risk = sum(unseen[suit * 13 + (p - 1) % 13] for p in span)
        if best is None or risk < best[0]:
            best = (risk, below)
    if best is None:
        return meld
    below = best[1]
    span = [*inner, *range(lo - below, lo), *range(hi + 1, hi + ends - below + 1)]
    jokers = tuple((rank_of_position(p), suit) for p in span)
    return HandMeld(True, meld.naturals, jokers, max(span + nat_pos) == 14)


def _swap(view: BotView, part: Partition, strong: bool) -> SwapJoker | None:
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
        if view.taken_kind == JOKER_KIND and not _discard_left(
            hand, [_lowest_id(hand, k)], JOKER_KIND
        ):
            continue  # only jokers, the one taken from the open pile among them, would stay
        if room and k in part.loose:
            return SwapJoker(_lowest_id(view.hand, k), index)
        rest = list(naturals)
        rest.remove(k)
        after = partition(tuple(rest), jokers + 1, view.by_cards)
        if after.cost < part.cost and not after.loose_jokers:
            return SwapJoker(_lowest_id(view.hand, k), index)
    return None


def _lay_off(view: BotView, part: Partition, strong: bool) -> LayOff | None:
    """Lay off a loose card (the most costly first) onto a meld it fits (``decide`` calls
    it only when one fits)."""
    fit = view.table.fit
    weights = CARD_WEIGHTS if view.by_cards else POINT_WEIGHTS
    loose = sorted(set(part.loose), key=lambda k: (-weights[k], k))
    if part.loose_jokers:
        loose.insert(0, JOKER_KIND)
    for k in loose:
        index = fit.get(k)
        if index is not None:
            card = _lowest_id(view.hand, k)
            if _discard_left(view.hand, [card], view.taken_kind):
                if k == JOKER_KIND and strong:
                    return LayOff(card, index, _safe_name(view, index, card))
                return lay_off_action(card, index)
    return None


def _safe_name(view: BotView, index: int, joker: int) -> StandsFor:
    """What a joker laid off on meld ``index`` should stand for: the card least likely
    to be held by another player."""
    options = lay_off_options(view.melds[index], joker)
    if not options:
        return None
    unseen = _unseen_all(view)
    return min(options, key=lambda sf: 9 if sf is None else unseen[sf[1] * 13 + sf[0] - 1])


def _unseen(view: BotView, kind: int, hand_count: dict[int, int]) -> int:
    """Copies of a kind this seat has not seen (in other hands or in the stock)."""
    return max(0, view.decks - hand_count.get(kind, 0) - view.seen[kind])


def _outs(view: BotView, k: int, loose: Sequence[int], melds: Sequence[HandMeld]) -> int:
    """Unseen cards that would put loose card ``k`` in a meld with other loose cards
    (pair to group, two cards of a run) or extend a run of the hand next to it."""
    counts: dict[int, int] = {}
    for c in view.hand:
        kc = kind_of(c)
        counts[kc] = counts.get(kc, 0) + 1
    suit, ri = divmod(k, 13)
    others = set(loose)
    outs = 0
    same_rank = {s for s in range(4) if s != suit and s * 13 + ri in others}
    if same_rank:
        for s in range(4):
            if s != suit and s not in same_rank:
                outs += _unseen(view, s * 13 + ri, counts)
    base = suit * 13

    def kind_at(p: int) -> int | None:
        return base + (p - 1) % 13 if 1 <= p <= 14 else None

    positions = (ri + 1, 14) if ri == 0 else (ri + 1,)
    for p in positions:
        for d in (1, 2):
            for q in (p - d, p + d):
                kq = kind_at(q)
                if kq is None or kq not in others or kq == k:
                    continue
                lo, hi = min(p, q), max(p, q)
                if d == 1:
                    for r in (lo - 1, hi + 1):
                        kr = kind_at(r)
                        if kr is not None:
                            outs += _unseen(view, kr, counts)
                else:
                    kr = kind_at(lo + 1)
                    if kr is not None:
                        outs += _unseen(view, kr, counts)
    for m in melds:
        if m.run and m.naturals and m.naturals[0] // 13 == suit:
            pos = run_positions(m)
            lo, hi = min(pos), max(pos)
            for p in positions:
                if p == hi + 2 or p == lo - 2:
                    kr = kind_at((p + hi) // 2 if p > hi else (p + lo) // 2)
                    if kr is not None:
                        outs += _unseen(view, kr, counts)
    return outs


def _discard(view: BotView, part: Partition, strong: bool, rng: Stream | None) -> int:
    """The card to discard: a loose natural card (the highest, or for ``strong`` the one
    least worth keeping), else the meld card whose loss costs least; a joker only when
    nothing else may go."""
    weights = CARD_WEIGHTS if view.by_cards else POINT_WEIGHTS
    taken = view.taken_kind
    hand = view.hand
    if not strong:
        k = _basic_discard(part.loose, weights, view.table.places, taken, view.naturals)
        if k >= 0:
            return _lowest_id(hand, k)
    else:
        loose = [k for k in dict.fromkeys(part.loose) if k != taken]
        if loose:
            scores = {k: _discard_score(view, part, k) for k in loose}
            top = max(scores.values())
            best = sorted(k for k in loose if scores[k] == top)
            if len(best) > 1:
                # ties: the strong bot draws from its stream
                if rng is None:
                    raise ValueError("a strong bot needs its stream to break ties")
                return _lowest_id(hand, rng.choice(best))
            return _lowest_id(hand, best[0])
    naturals, jokers = view.naturals, view.jokers
    options = sorted({k for k in naturals if k != taken})
    if options:

        def loss(k: int) -> tuple[int, int]:
            rest = list(naturals)
            rest.remove(k)
            return partition(tuple(rest), jokers, view.by_cards).cost, -weights[k]

        return _lowest_id(hand, min(options, key=loss))
    return _lowest_id(hand, JOKER_KIND if view.jokers or taken is None else taken)


def _basic_discard(
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


#: a strong bot takes an open card of at most this many points that builds a near meld
_NEAR_TAKE: Final = 5
#: what an unseen card that would complete a near meld is worth, in points
_OUT_VALUE: Final = 1.6
#: a card that fits a meld on the table (to lay off later) is kept like a meld card
_FITS_TABLE: Final = 40.0
#: how much to avoid giving the next player a card near what they took from the pile
_FEED_NEXT: Final = 6.0


#: what going out next turn is worth, in points (own hand saved, the others' counted)
_GO_OUT: Final = 30.0
#: the lookahead runs when the hand (after its melds) holds at most this many cards
_LOOKAHEAD_CARDS: Final = 7


def _left_after(naturals: tuple[int, ...], jokers: int, view: BotView) -> int:
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


def _unseen_all(view: BotView) -> list[int]:
    """Unseen copies per kind (0..52): cards in other hands or in the stock."""
    mine = [0] * 53
    for c in view.hand:
        mine[kind_of(c)] += 1
    out = [max(0, view.decks - mine[k] - view.seen[k]) for k in range(52)]
    out.append(max(0, 2 * view.decks - mine[JOKER_KIND] - view.seen[JOKER_KIND]))
    return out


def _go_out_chance(
    naturals: tuple[int, ...], jokers: int, view: BotView, unseen: Sequence[int]
) -> float:
    """The chance that a hand (laid down as far as it goes) goes out next turn after
    drawing one unseen card (each unseen card equally likely)."""
    total = sum(unseen)
    if not total:
        return 0.0
    left = _left_after(naturals, jokers, view)
    if left > 3:
        return 0.0  # one more card cannot take four loose cards out
    base = left <= 0
    by_suit, by_rank = suit_rank_masks(naturals)
    good = 0
    for x in range(53):
        n = unseen[x]
        if not n:
            continue
        if x == JOKER_KIND:
            ok = _left_after(naturals, jokers + 1, view) <= 1
        else:
            suit, ri = divmod(x, 13)
            near = (
                by_rank[ri]
                or x in view.table.fit
                or (near_bits(by_suit[suit], ri) if ri else by_suit[suit] & 0b11000000001100)
            )
            ok = _left_after(tuple(sorted((*naturals, x))), jokers, view) <= 1 if near else base
        if ok:
            good += n
    return good / total


def _discard_score(view: BotView, part: Partition, k: int) -> float:
    """How much a strong bot wants to discard loose card ``k``: its penalty, less what it
    is worth keeping (unseen cards that would meld it, a later lay-off), less the danger
    of feeding the next player; high cards weigh more when an opponent is nearly out."""
    others = [n for s, n in enumerate(view.hand_counts) if s != view.seat]
    fewest = min(others) if others else 99
    value = 1.0 + KIND_POINTS[k] / 20 if view.by_cards else float(KIND_POINTS[k])
    if fewest <= 2:
        value *= 2.5
    elif fewest <= 4:
        value *= 1.5
    if view.lay_off_next and len(part.loose) + part.loose_jokers <= _LOOKAHEAD_CARDS:
        naturals, jokers = view.naturals, view.jokers
        rest = list(naturals)
        rest.remove(k)
        for m in part.melds:
            for c in m.naturals:
                rest.remove(c)
            jokers -= len(m.jokers)
        value += _GO_OUT * _go_out_chance(tuple(rest), jokers, view, _unseen_all(view))
    keep = _OUT_VALUE * _outs(view, k, part.loose, part.melds)
    if view.by_cards:
        keep /= 4
    if k in view.table.fit or k in view.table.swaps:
        keep += _FITS_TABLE
    suit, ri = divmod(k, 13)
    for t in view.next_taken:
        if t == JOKER_KIND:
            continue
        ts, tri = divmod(t, 13)
        if tri == ri or (ts == suit and abs(tri - ri) <= 2):
            keep += _FEED_NEXT
            break
    return value - keep


def choose(obs: JokerenObservation, *, level: str, rng: Stream | None) -> Action:
    """The action of a bot of ``level`` for the seat of ``obs`` (its turn), using ``rng``
    only to break ties. A pure function of the observation and the stream."""
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(BOT_LEVELS)}")
    if obs.current_player != obs.seat:
        raise ValueError("a bot decides only on its own turn")
    strong = level == "strong"
    if not strong:
        return _basic_draw(obs) if obs.phase == "draw" else _basic_play(obs)
    if obs.phase == "draw":
        draw = decide(view_of(obs, strong=True), strong=True, rng=rng)
        if draw is DRAW_STOCK and open_card_goes_out(obs):
            return DRAW_OPEN
        return draw
    line = going_out_line(obs)
    if line is not None:
        return line[0]
    return decide(view_of(obs, strong=True), strong=True, rng=rng)


def bot_action(state: JokerenState, *, level: str) -> Action:
    """The choice of a bot of ``level`` in the seat to move: from that seat's observation
    and the round's ``bot:<seat>`` stream, started at the number of actions so far."""
    seat = state.current_player
    if seat is None:
        raise RoundOver("De ronde is voorbij.", "The round is over.")
    if level == "basic":
        # a basic bot breaks no ties at random (it needs no stream) and reads its seat's
        # narrow view (``SeatView``) only, never the whole observation
        if state.phase == "draw":
            return _basic_draw(state.seat_view(seat))
        return _basic_play(state.seat_view(seat))
    rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
    return choose(state.observe(seat), level=level, rng=rng)


# --- going out: an exact search over the engine's own actions ------------------------------
#
# Every level goes out whenever some legal sequence of this turn (lay-downs, lay-offs, also
# of cards that sit in a meld of its own hand, joker swaps, then the last discard) gets rid
# of every card, and takes the open card whenever that makes going out possible this turn.
# The search applies the engine's legal actions to a state made from the seat's own
# observation (its hand, the table, the open pile; the other hands and the stock are left
# empty: the search never sees them), so it knows every rule the engine knows. Cheap
# necessary conditions (``_quick_out`` on bit masks, then ``_out_with_discard``) are
# checked first and at every node: a card with no partner in hand and no place on the
# table can only be the last discard.

#: a search node: the hand, the table, and whether the seat is out and came out this turn
_OutKey = tuple[tuple[int, ...], tuple[Meld, ...], bool, bool]


def _own_state(obs: Seen) -> JokerenState:
    """A state that holds only what the seat of ``obs`` knows: its hand, the table, the
    open pile and the public counters; the other hands and the stock are empty."""
    seat = obs.seat
    v = obs.variant
    return state_of_fields(
        {
            "variant": v,
            "round_index": obs.round_index,
            "dealer": obs.dealer,
            "round_seed": b"",
            "current_player": obs.current_player,
            "phase": obs.phase,
            "hands": tuple([obs.hand if s == seat else () for s in range(v.num_players)]),
            "stock": (),
            "open_pile": obs.open_pile,
            "table": obs.table,
            "out": obs.out,
            "came_out_this_turn": obs.came_out_this_turn,
            "taken_from_open": obs.taken_from_open,
            "turn": obs.turn,
            "move_count": obs.move_count,
            "reshuffles": obs.reshuffles,
            "removed": obs.removed,
            "winner": None,
            "end_reason": None,
            "log_chunks": (),
            "log_tail": (),
            "open_takes": (),
        }
    )


def _run_reach(
    k: int, hand_mask: int, jokers: int, runs: tuple[tuple[int, int], ...]
) -> list[tuple[int, int, int]]:
    """The ends of runs on the table of the suit of natural ``k`` (``runs``: their lowest
    and highest positions) that ``k`` can reach, the gap filled by cards of the hand (lane
    mask ``hand_mask``) and at most ``jokers`` jokers: per end its run's positions (low,
    high; an end above the run as a negative high) and the jokers the gap needs."""
    out: list[tuple[int, int, int]] = []
    ri = k % 13
    base = k // 13 * 16
    for lo, hi in runs:
        for p in (1, 14) if ri == 0 else (ri + 1,):
            if p > hi:
                a, b, length = hi + 1, p - 1, p - lo + 1
                wraps = lo == 1 and p == 14
                end = -hi
            elif p < lo:
                a, b, length = p + 1, lo - 1, hi - p + 1
                wraps = p == 1 and hi == 14
                end = hi
            else:
                continue
            if length > 13 or wraps:
                continue
            missing = sum(1 for q in range(a, b + 1) if not hand_mask >> (base + q) & 1)
            if missing <= jokers:
                out.append((lo, end, missing))
    return out


#: the lane bits of the low (position 1) and the high (position 14) ace of every suit
_ACE_LOW: Final = sum(1 << (s * 16 + 1) for s in range(4))
_ACE_HIGH: Final = sum(1 << (s * 16 + 14) for s in range(4))


def _quick_out(
    hand: Sequence[int], melds: tuple[Meld, ...], lay_off: bool, extra: int = -1
) -> bool:
    """``quick_bits`` for a hand (card ids; ``extra``: one more card, e.g. the open card,
    or -1) and the table (``lay_off``: the seat may lay off this turn)."""
    kinds = KIND
    bits = LANE_BIT
    m = 0
    jokers = 0
    for c in hand:
        k = kinds[c]
        if k == JOKER_KIND:
            jokers += 1
        else:
            m |= bits[k]
    if extra >= 0:
        hand = (*hand, extra)
        k = kinds[extra]
        if k == JOKER_KIND:
            jokers += 1
        else:
            m |= bits[k]
    return quick_bits(m, jokers, hand, table_bits(melds) if lay_off and melds else None)


def quick_bits(
    m: int, jokers: int, hand: Sequence[int], table: TableView | TableBits | None
) -> bool:
    """A quick necessary condition for going out this turn, on bit masks (``m``: the lane
    mask of the naturals of ``hand``, ``jokers`` its jokers; ``table``: the table when the
    seat may lay off, else ``None``): at most one card (the discard) has no partner in hand
    to meld with and no place on the table, or one more per joker at hand (also those a
    swap would bring) when two or more are. A card with no partner within two run places
    or of its rank needs a joker next to it of its own; a card one place beyond a lay-off
    place is placed when the hand holds the card between or a joker. (It runs at every
    decision: bit operations only.)"""
    placed = 0
    if table is not None:
        sb = table.swap_bits
        placed = table.places | sb
        if m & sb:
            kinds = KIND
            bits = LANE_BIT
            for c in hand:
                k = kinds[c]
                if k != JOKER_KIND and sb & bits[k]:
                    jokers += 1
        if jokers:
            placed |= table.next_bits  # (every ``after`` of ``next_places``)
        else:
            for between, after in table.next_places:
                if m & between:
                    placed |= after
    a = m & LANE
    b = m >> 16 & LANE
    c = m >> 32 & LANE
    d = m >> 48
    if jokers:
        runs = m >> 1 | m >> 2 | m << 1 | m << 2
        ranks = (a | b) & (c | d) | a & b | c & d
    else:
        runs = (m >> 1 & m >> 2) | (m << 1 & m >> 1) | (m << 1 & m << 2)
        ranks = a & b & (c | d) | c & d & (a | b)
    live = runs | ranks | ranks << 16 | ranks << 32 | ranks << 48 | placed
    live |= live >> 13 & _ACE_LOW  # an ace placed or live as the high ace
    stuck = (m & ~live & ~_ACE_HIGH).bit_count()
    if stuck > (1 + jokers if jokers >= 2 else 1):
        return False
    if jokers != 1:
        return True
    # One joker: the cards that meld only with it (no meld of cards of the hand alone, no
    # place on the table) are all in its one meld, but for the discard: one suit or one rank.
    runs = (m >> 1 & m >> 2) | (m << 1 & m >> 1) | (m << 1 & m << 2)
    ranks = a & b & (c | d) | c & d & (a | b)
    live0 = runs | ranks | ranks << 16 | ranks << 32 | ranks << 48 | placed
    live0 |= live0 >> 13 & _ACE_LOW
    lone = m & ~live0 & ~_ACE_HIGH
    n = lone.bit_count()
    if n <= 2:
        return True
    lanes = (lone & LANE, lone >> 16 & LANE, lone >> 32 & LANE, lone >> 48)
    if max(x.bit_count() for x in lanes) >= n - 1:
        return True  # one suit
    counts = [0] * 16  # one rank: cards per run position over the suits
    for x in lanes:
        while x:
            low = x & -x
            counts[low.bit_length() - 1] += 1
            x ^= low
    return max(counts) >= n - 1


def _out_possible(
    naturals: tuple[int, ...],
    jokers: int,
    melds: tuple[Meld, ...],
    lay_off: bool,
    keep: int = 1,
) -> bool:
    """A necessary condition for going out this turn (the search decides), for the hand's
    natural kinds and jokers and the table ``melds`` (``lay_off``: the seat may lay off
    this turn): the hand splits into melds leaving at most one card (the last discard),
    where a card that may go to the table (laid off onto a meld, also at the end of a run
    that cards of the hand and jokers lead to, or swapped for a joker) need not be in a
    meld, each joker that a swap could bring counts as one more joker (a card that reaches
    a run's end only through jokers spends them), and a joker need not be in a meld when
    one can be laid off. ``keep``: the cards the split may leave (0 for a hand without its
    last discard: ``_out_with_discard``). (A relaxation of the rules: it ignores the order
    of the actions, the opening requirement and which card may be discarded, so it never
    rules out a real way out.)"""
    if not lay_off or not melds:
        return _relaxed_left(naturals, jokers, 0, False) <= keep
    table = table_bits(melds)
    bits = LANE_BIT
    swaps = table.swap_bits
    free_jokers = table.joker_fits
    swappable = [i for i, k in enumerate(naturals) if swaps & bits[k]]
    if not swappable:
        return _out_after_swaps(naturals, jokers, melds, table.places, free_jokers, keep)
    # each card that may be swapped for a table joker either is (it leaves, its joker
    # stays) or is not (it must leave otherwise): never both
    tried: set[tuple[int, ...]] = set()
    for mask in range(1 << len(swappable)):
        gone = {swappable[i] for i in range(len(swappable)) if mask >> i & 1}
        rest = tuple(k for i, k in enumerate(naturals) if i not in gone)
        if rest in tried:
            continue
        tried.add(rest)
        if _out_after_swaps(rest, jokers + len(gone), melds, table.places, True, keep):
            return True
    return False


def _out_after_swaps(
    naturals: tuple[int, ...],
    jokers: int,
    melds: tuple[Meld, ...],
    placed: int,
    free_jokers: bool,
    keep: int,
) -> bool:
    """``_out_possible`` once the swaps are chosen: ``naturals`` and ``jokers`` are the
    hand after them, ``placed`` the lane bits of the lay-off places of the table."""
    bits = LANE_BIT
    available = jokers
    m = lane_mask(naturals)
    runs: dict[int, tuple[tuple[int, int], ...]] = {}
    #: the kinds that may go to the table, as bits (bit k for kind k): ``_relaxed_left``'s
    #: cache key, ints, which the garbage collector need not walk
    placeable = 0
    costly: list[tuple[int, tuple[int, int], int]] = []
    for k in naturals:
        if placed & bits[k]:
            placeable |= 1 << k
            continue
        suit = k // 13
        spans = runs.get(suit)
        if spans is None:
            spans = runs[suit] = tuple(
                (mm.low, mm.high) for mm in melds if mm.kind == "run" and mm.suit == suit
            )
        if not spans:
            continue
        ends = _run_reach(k, m, available, spans)
        if len(ends) == 1 and ends[0][2]:
            # reached through jokers: they are spent (cards reaching one run end share them)
            lo, end, need = ends[0]
            costly.append((k, (lo, end), need))
        elif ends:
            placeable |= 1 << k
    if len(costly) > 4:  # too many to try: let them all go
        for k, _, _ in costly:
            placeable |= 1 << k
        costly = []
    best = 99
    for mask in range(1 << len(costly)):
        spend: dict[tuple[int, int], int] = {}
        gone: list[int] = []
        for i, (k, run_end, need) in enumerate(costly):
            if mask >> i & 1:
                spend[run_end] = max(spend.get(run_end, 0), need)
                gone.append(k)
        used = sum(spend.values())
        if used > available:
            continue
        rest = list(naturals)
        for k in gone:
            rest.remove(k)
        left = _relaxed_left(tuple(rest), available - used, placeable, free_jokers)
        best = min(best, left)
        if best <= keep:
            return True
    return False


def _out_with_discard(
    hand: tuple[int, ...], melds: tuple[Meld, ...], lay_off: bool, taken: int | None
) -> bool:
    """A necessary condition for going out this turn (card ids of the hand, sorted;
    ``taken``: the card taken from the open pile this turn, or ``None``): ``_out_possible``
    and, after taking from the open pile, more: the last discard is one card of the hand
    not of the kind of the taken card (RULES.md §2: the card taken from the open pile may
    not be discarded the same turn), and every other card leaves by melds, lay-offs and
    swaps (``_out_possible`` of the hand without that card, leaving nothing). So a hand
    whose cards all fit the table, where the only card that could be kept back is the
    taken one or one that another lay-off needs first (9s before 8s on ``Ts Js Qs``), is
    ruled out: ``_out_possible`` alone lets the search lay off every card before it finds
    that nothing is left to discard."""
    naturals, jokers = hand_kinds(hand)
    if not _out_possible(naturals, jokers, melds, lay_off):
        return False
    if taken is None:
        return True
    barred = KIND[taken]
    if jokers and barred != JOKER_KIND and _out_possible(naturals, jokers - 1, melds, lay_off, 0):
        return True
    # the taken card itself stays only when it may be swapped for a table joker (the joker
    # is then the discard)
    # (a kind's lane bits are its own: ``swap_bits & LANE_BIT[k]`` is ``k`` in the swaps)
    swaps = table_bits(melds).swap_bits if lay_off and melds else 0
    for i, k in enumerate(naturals):
        if (k == barred and not swaps & LANE_BIT[k]) or (i and naturals[i - 1] == k):
            continue
        if _out_possible((*naturals[:i], *naturals[i + 1 :]), jokers, melds, lay_off, 0):
            return True
    return False


@untracked_cache(maxsize=1 << 14)
def _relaxed_left(naturals: tuple[int, ...], jokers: int, placeable: int, free_jokers: bool) -> int:
    """At most the fewest cards a hand keeps when it lays melds and the cards
    ``placeable`` (bit k for kind k; and, with ``free_jokers``, the jokers) may leave without a meld
    (``_out_possible``): jokers left over are not counted, a lower bound."""
    if jokers >= 2:
        live = naturals
        kept = 0
    else:
        # a card with no partner to meld with stays (kept) unless it may go to the table
        live_bits = live_lanes(lane_mask(naturals), jokers)
        bits = LANE_BIT
        live = tuple(k for k in naturals if live_bits & bits[k])
        kept = sum(1 for k in naturals if not live_bits & bits[k] and not placeable >> k & 1)
        if kept > 1 or not live:
            return kept + (jokers if not free_jokers and not live else 0)
    # at most one card that must be in a meld: nothing to solve
    if kept + sum(1 for k in live if not placeable >> k & 1) + (0 if free_jokers else jokers) <= 1:
        return kept
    # a lower bound is enough for a necessary condition: jokers left over cost nothing
    weights = _relaxed_weights(placeable, free_jokers)
    return kept + solve_live(live, jokers, weights, exact=False, lone_always=True)[0]


@lru_cache(maxsize=1 << 10)
def _relaxed_weights(placeable: int, free_jokers: bool) -> tuple[int, ...]:
    """``_relaxed_left``'s weights per kind (0..52): a card that must be in a meld weighs
    1, one that may go to the table (and a joker, with ``free_jokers``) nothing."""
    return (*(0 if placeable >> k & 1 else 1 for k in range(52)), 0 if free_jokers else 1)


def _out_key(state: JokerenState, seat: int) -> _OutKey:
    return (state.hands[seat], state.table, state.out[seat], state.came_out_this_turn)


def _search_out(state: JokerenState, seat: int) -> tuple[Action, ...] | None:
    """The first line (in the engine's canonical order of legal actions) that takes every
    card of ``seat``'s hand out this turn, ending with the discard of the last card; or
    ``None``. A depth-first search over the engine's own ``legal_actions`` and ``apply``,
    remembering the positions (hand, table, out) already found to be dead ends, and
    cutting those where ``_quick_out`` or ``_out_with_discard`` fails; it gives up (``None``)
    after ``_MAX_OUT_NODES`` positions. A line found is remembered (``_remember``) for
    the positions it passes."""
    dead: set[_OutKey] = set()
    nodes = [0]
    #: the positions of the line found, from its last (one card left) to ``state``
    passed: list[JokerenState] = []

    def search(s: JokerenState, first: bool) -> tuple[Action, ...] | None:
        hand = s.hands[seat]
        if len(hand) == 1:
            taken = s.taken_from_open
            if taken is not None and KIND[taken] == KIND[hand[0]]:
                return None
            passed.append(s)
            return (DISCARDS[hand[0]],)
        key = _out_key(s, seat)
        if key in dead or nodes[0] >= _MAX_OUT_NODES:
            return None
        nodes[0] += 1
        if not first:
            lay_off = s.may_lay_off(seat)
            melds = s.table
            if not _quick_out(hand, melds, lay_off):
                dead.add(key)
                return None
            taken = s.taken_from_open
            if (taken is not None or len(hand) > _RELAX_CARDS) and not _out_with_discard(
                hand, melds, lay_off, taken
            ):
                dead.add(key)
                return None
        for action in s.legal_actions():
            if type(action) is Discard:
                break  # the discards come last; only the last card's discard goes out
            line = search(s.apply(action), False)
            if line is not None:
                passed.append(s)
                return (action, *line)
        dead.add(key)
        return None

    line = search(state, True)
    if line is not None:
        _remember(passed[::-1], seat, line)
    return line


#: the most positions one search expands: a line that goes out was found within 17 in
#: seeded rounds of every preset (both levels); a search that finds no line can need many
#: thousands (a big table with jokers to swap) and stops here. (So the search is exact
#: up to this bound, which no test position reaches.)
_MAX_OUT_NODES: Final = 60
#: inside the search, ``_out_with_discard`` prunes hands of more cards than this (smaller
#: ones have few lines to look at: ``_quick_out`` alone is cheaper), and every hand after a
#: card was taken from the open pile (the taken card may not be the discard: without this
#: cut a search laid off every other card first and ran past ``_MAX_OUT_NODES``)
_RELAX_CARDS: Final = 6


def _remember(states: Sequence[JokerenState], seat: int, line: tuple[Action, ...]) -> None:
    """Keep the rest of ``line`` for each position it passes (``states[i]``: the one
    before ``line[i]``), so the next decisions of the turn follow it without a new
    search."""
    if len(_LINES) >= 64:
        _LINES.clear()
    state = states[0]
    rules = (state.variant, state.round_index, state.turn, state.taken_from_open)
    for i, s in enumerate(states):
        _LINES[_out_key(s, seat)] = (rules, line[i:])


#: what decides which actions are legal in a position besides its hand and table: the
#: variant, the round (its contract), the turn (the first cycle), the card taken from the
#: open pile
_Rules = tuple[Variant, int, int, int | None]
#: the rest of a line found by the search, by the position it starts from (a line is used
#: only under the same rules)
_LINES: dict[_OutKey, tuple[_Rules, tuple[Action, ...]]] = {}


def going_out_line(obs: Seen) -> tuple[Action, ...] | None:
    """The actions that take every card of the hand out this turn, from the seat's own
    observation (its turn, after its draw), ending with the discard; ``None`` when no
    legal sequence of this turn goes out. Exact with respect to the engine's rules (the
    opening requirement and contracts, when laying off and swapping are allowed, keeping
    a card to discard, the card taken from the open pile, the jokers' names), as far as
    ``legal_actions`` lists the ways to lay melds."""
    if obs.phase != "play" or obs.current_player != obs.seat or not obs.may_meld:
        return None
    if not _quick_out(obs.hand, obs.table, obs.may_lay_off):
        return None
    return line_after_quick(obs)


def line_after_quick(obs: Seen) -> tuple[Action, ...] | None:
    """``going_out_line`` once its quick condition (``quick_bits``) holds."""
    seat = obs.seat
    hand = obs.hand
    melds = obs.table
    key: _OutKey = (hand, melds, obs.out[seat], obs.came_out_this_turn)
    hit = _LINES.get(key)
    if hit is not None and hit[0] == (
        obs.variant,
        obs.round_index,
        obs.turn,
        obs.taken_from_open,
    ):
        return hit[1]
    if not _out_with_discard(hand, melds, obs.may_lay_off, obs.taken_from_open):
        return None
    return _search_out(_own_state(obs), seat)


def open_card_goes_out(obs: Seen) -> bool:
    """Whether taking the open card (the seat's turn, before its draw) lets it go out this
    turn (``going_out_line`` on the state after the draw)."""
    pile = obs.open_pile
    if obs.phase != "draw" or obs.current_player != obs.seat or not pile or obs.first_cycle:
        return False
    seat = obs.seat
    lay_off = obs.variant.lay_off_before_out or obs.out[seat]
    if not _quick_out(obs.hand, obs.table, lay_off, pile[-1]):
        return False
    if not _out_with_discard(tuple(sorted((*obs.hand, pile[-1]))), obs.table, lay_off, pile[-1]):
        return False
    state = _own_state(obs)
    if not state.is_legal(DRAW_OPEN):
        return False
    return _search_out(state.apply(DRAW_OPEN), seat) is not None


def simplest_action(state: JokerenState) -> Action:
    """The simplest legal action of the seat to move, for a caller that must go on when
    an action was refused: a draw from the stock (else from the open pile), after the
    draw the discard of the lowest card that may go."""
    legal = state.legal_actions()
    if not legal:
        raise RoundOver("De ronde is voorbij.", "The round is over.")
    if DRAW_STOCK in legal:
        return DRAW_STOCK
    for action in legal:
        if type(action) is Discard:
            return action
    return legal[0]


def clear_caches() -> None:
    """Empty the bots' caches (for benchmarks of the worst case)."""
    hand_clear_caches()
    opening_clear_caches()
    table_clear_caches()
    _LINES.clear()
    _relaxed_left.cache_clear()
    _relaxed_weights.cache_clear()
