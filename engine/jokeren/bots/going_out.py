"""Going out: an exact search over the engine's own actions, for every bot level.

Every level goes out whenever some legal sequence of this turn (lay-downs, lay-offs, also
of cards that sit in a meld of its own hand, joker swaps, then the last discard) gets rid
of every card, and takes the open card whenever that makes going out possible this turn.
The search applies the engine's legal actions to a state made from the seat's own
observation (its hand, the table, the open pile; the other hands and the stock are left
empty: the search never sees them), so it knows every rule the engine knows. Cheap
necessary conditions (``_quick_out`` on bit masks, then ``_out_with_discard``) are
checked first and at every node: a card with no partner in hand and no place on the
table can only be the last discard.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from engine.jokeren.actions import (
    DISCARDS,
    DRAW_OPEN,
    Action,
    Discard,
)
from engine.jokeren.bots.hand import JOKER_KIND, KIND, hand_kinds, solve_live
from engine.jokeren.bots.lanes import LANE, LANE_BIT, lane_mask, live_lanes
from engine.jokeren.bots.table import TableBits, TableView, table_bits
from engine.jokeren.bots.view import Seen
from engine.jokeren.melds import Meld
from engine.jokeren.state import JokerenState, state_of_fields
from engine.jokeren.variants import Variant
from engine.untracked import untracked_cache

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
    and, after taking from the open pile, more: the last discard is one card of the hand not
    of the kind of the taken card (docs/rules.md, section 2: the card taken from the open
    pile may not be discarded the same turn), and every other card leaves by melds, lay-offs
    and swaps (``_out_possible`` of the hand without that card, leaving nothing). So a hand
    whose cards all fit the table, where the only card that could be kept back is the taken
    one or one that another lay-off needs first (9s before 8s on ``Ts Js Qs``), is ruled
    out: ``_out_possible`` alone lets the search lay off every card before it finds that
    nothing is left to discard."""
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


def clear_caches() -> None:
    """Empty the going-out caches (for benchmarks of the worst case)."""
    _LINES.clear()
    _relaxed_left.cache_clear()
    _relaxed_weights.cache_clear()
