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
from engine.jokeren.bots.going_out import clear_caches as going_out_clear_caches
from engine.jokeren.bots.going_out import (
    going_out_line,
    line_after_quick,
    open_card_goes_out,
    quick_bits,
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
)
from engine.jokeren.bots.hand import clear_caches as hand_clear_caches
from engine.jokeren.bots.lanes import (
    LANE_BIT,
    PARTNERS_ONE,
    lane_mask,
    lane_neighbours,
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
from engine.jokeren.melds import StandsFor, lay_off_options
from engine.jokeren.state import JokerenObservation, JokerenState

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
    going_out_clear_caches()
