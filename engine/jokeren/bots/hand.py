"""Hand analysis for the Jokeren bots: the split of a hand into melds that leaves the
fewest penalty points (or the fewest cards when the variant scores cards).

The split is exact: a memoised search over the candidate melds of the lowest card left
(cached per hand), each also with every number of spare jokers it can hold. Cards with no
partner to meld with (``engine.jokeren.bots.lanes``) are loose in every split and are left
out of the search.
"""

from __future__ import annotations

from collections.abc import Container, Iterator, Sequence
from typing import Final, NamedTuple

from engine.cards import CARD_POINTS
from engine.jokeren.bots.lanes import LANE, LANE_BIT
from engine.untracked import untrack, untracked_cache

# --- hand analysis -------------------------------------------------------------------
#
# A card's *kind* is what the rules see of it: ``suit * 13 + rank - 1`` for a natural
# card (0..51) and 52 for a joker. Two copies of a card in a two-deck game share a kind.
# Run positions are 1 (ace low) .. 13 (king) and 14 (ace high).

JOKER_KIND: Final = 52
JOKER_POINTS: Final = 25
#: penalty points per kind
KIND_POINTS: Final = (*(CARD_POINTS[k] for k in range(52)), JOKER_POINTS)
#: the weight of a card in the "cards" scoring: one card outweighs any sum of points
CARD_WEIGHT: Final = 1000


def kind_of(card: int) -> int:
    """The kind of a Jokeren card id (two copies share a kind; every joker is 52)."""
    return KIND[card]


#: the kind of every card id 0..107
KIND: Final = tuple(min(c % 54, JOKER_KIND) for c in range(108))


def rank_of_position(p: int) -> int:
    return 1 if p == 14 else p


class HandMeld(NamedTuple):
    """A meld that a hand can lay: its natural kinds and what each of its jokers stands
    for (rank 1..13, suit 0..3). (A named tuple: the hand analysis makes many.)"""

    run: bool
    naturals: tuple[int, ...]
    jokers: tuple[tuple[int, int], ...]
    #: a run whose ace (natural or joker) is above the king
    ace_high: bool = False

    @property
    def size(self) -> int:
        return len(self.naturals) + len(self.jokers)

    def points(self) -> int:
        """The meld's worth in points (seed 001: a joker counts 25)."""
        return sum(KIND_POINTS[k] for k in self.naturals) + JOKER_POINTS * len(self.jokers)


class Partition(NamedTuple):
    """The best split of a hand into melds and loose cards ("deadwood"). (A named tuple:
    one is made for every new hand, and cheaply.)"""

    melds: tuple[HandMeld, ...]
    #: natural kinds not in any meld
    loose: tuple[int, ...]
    #: jokers not in any meld (only when the hand holds no meld at all)
    loose_jokers: int
    #: the penalty of the loose cards (points, or cards then points)
    cost: int


def _weights(by_cards: bool) -> tuple[int, ...]:
    if by_cards:
        return tuple(CARD_WEIGHT + p for p in KIND_POINTS)
    return KIND_POINTS


POINT_WEIGHTS: Final = _weights(False)
CARD_WEIGHTS: Final = _weights(True)

Candidate = tuple[bool, tuple[int, ...], tuple[tuple[int, int], ...], bool]


def run_windows(
    suit: int, low: int, first: int, present: Container[int], jokers: int
) -> Iterator[tuple[list[int], list[tuple[int, int]], int, bool]]:
    """Grow a run of ``suit`` from position ``low`` upwards, position by position from
    ``first``: after each step the naturals taken (from ``present``), the jokers'
    stands-for filling the gaps, the top position and whether it is natural. Stops
    when more than ``jokers`` jokers would be needed. The lists are reused: copy them."""
    base = suit * 13
    top = 13 if low == 1 else 14
    nat: list[int] = []
    jk: list[tuple[int, int]] = []
    for b in range(first, top + 1):
        kb = base + (b - 1) % 13
        natural = kb in present
        if natural:
            nat.append(kb)
        else:
            jk.append((rank_of_position(b), suit))
            if len(jk) > jokers:
                return
        yield nat, jk, b, natural


def candidate_sets(
    k: int, present: frozenset[int], jokers: int
) -> tuple[list[Candidate], list[Candidate]]:
    """The melds that hold natural ``k`` (the lowest natural left), other naturals from
    ``present`` (all higher than ``k``), and at most ``jokers`` jokers. Jokers are used
    only where the meld needs them (a gap, or to reach three cards); spare jokers are
    added afterwards. ``k`` alone with two jokers is offered only when ``k`` has no
    other meld (two jokers are better spent next to other cards)."""
    out: list[Candidate] = []
    lone: list[Candidate] = []
    suit, ri = divmod(k, 13)
    rank = ri + 1
    # groups: k with higher suits of the same rank
    others = [s * 13 + ri for s in range(suit + 1, 4) if s * 13 + ri in present]
    n_other = len(others)
    for mask in range(1 << n_other):
        chosen = tuple(others[i] for i in range(n_other) if mask >> i & 1)
        n = 1 + len(chosen)
        need = 3 - n if n < 3 else 0
        if need > jokers:
            continue
        if need:
            used = {suit} | {c // 13 for c in chosen}
            free = [s for s in range(4) if s not in used]
            (out if chosen else lone).append(
                (False, chosen, tuple((rank, s) for s in free[:need]), False)
            )
        else:
            out.append((False, chosen, (), False))
    # runs with k as their lowest natural
    for nat, jk, b, natural in run_windows(suit, rank, rank + 1, present, jokers):
        length = b - rank + 1
        if length >= 3 and (natural or length == 3):
            (out if nat else lone).append((True, tuple(nat), tuple(jk), b == 14))
    if rank == 1:
        # ace high: ... Q K A
        base = suit * 13
        nat = []
        jk = []
        for a in range(13, 1, -1):
            ka = base + a - 1
            natural = ka in present
            if natural:
                nat.append(ka)
            else:
                jk.append((a, suit))
                if len(jk) > jokers:
                    break
            length = 14 - a + 1
            if length >= 3 and (natural or length == 3):
                (out if nat else lone).append((True, tuple(reversed(nat)), tuple(jk), True))
    elif rank == 13 and jokers >= 2:
        lone.append((True, (), ((12, suit), (1, suit)), True))
    return out, lone


_Memo = dict[tuple[tuple[int, ...], int], tuple[int, int, tuple[Candidate, ...]]]


def _solve_jokers(
    rem: tuple[int, ...],
    jokers: int,
    weights: tuple[int, ...],
    both: dict[int, tuple[list[Candidate], ...]],
    memo: _Memo,
    exact: bool,
    lone_always: bool = False,
) -> tuple[int, int, tuple[Candidate, ...]]:
    """``_solve`` with the melds of each kind made once from the whole hand: here a run
    whose natural card is gone takes a joker in its place (when jokers are left), a
    group without one of its cards is skipped (the smaller group is a meld of its own).

    ``exact``: the jokers left over count in the cost, each meld is also tried with every
    number of spare jokers it can hold, and a card alone with two jokers is always tried.
    Without it (quicker) jokers are used only where a meld needs them, cost nothing when
    left over, and a card alone with two jokers is tried only when it has no other meld:
    exact too when at most one joker is left over and some meld has room for it. With
    ``lone_always`` (and not ``exact``) a card alone with two jokers is always tried: the
    cost is then at most the exact one (a lower bound)."""
    if not rem:
        return (jokers * weights[JOKER_KIND] if exact else 0), 0, ()
    key = (rem, jokers)
    hit = memo.get(key)
    if hit is not None:
        return hit
    k = rem[0]
    rest = rem[1:]
    cost, used, melds = _solve_jokers(rest, jokers, weights, both, memo, exact, lone_always)
    best = (cost + weights[k], used, melds)
    out, lone = both[k]
    found = False
    for group in (out, lone):
        if group is lone and found and not exact and not lone_always:
            break
        for run, nat, jk, high in group:
            if len(jk) > jokers:
                continue
            for c in nat:
                if c not in rest:
                    missing = [c for c in nat if c not in rest]
                    break
            else:
                missing = []
            if missing:
                if not run:
                    continue
                nat = tuple(c for c in nat if c in rest)
                jk = (*jk, *((c % 13 + 1, c // 13) for c in missing))
                if len(jk) > jokers:
                    continue
            found = True
            left = list(rest)
            for c in nat:
                left.remove(c)
            left_t = tuple(left)
            meld: HandMeld | None = _new_meld(HandMeld, (run, (k, *nat), jk, high))
            # the meld as it is, and (exact) with each number of the spare jokers it holds
            while meld is not None:
                used_here = len(meld[2])  # (its jokers)
                if used_here > jokers:
                    break
                c2, u2, m2 = _solve_jokers(
                    left_t, jokers - used_here, weights, both, memo, exact, lone_always
                )
                u2 += used_here
                if c2 < best[0] or (c2 == best[0] and u2 < best[1]):
                    best = (c2, u2, (meld, *m2))  # (a meld is its candidate's tuple)
                meld = add_joker(meld) if exact and used_here < jokers else None
    memo[key] = best
    return best


def _solve_naturals(
    rem: tuple[int, ...],
    weights: tuple[int, ...],
    cands: dict[int, list[Candidate]],
    memo: _Memo,
) -> tuple[int, int, tuple[Candidate, ...]]:
    """``_solve`` for a hand without jokers, with the melds of each kind made once from
    the whole hand and checked here against what is left."""
    if not rem:
        return 0, 0, ()
    key = (rem, 0)
    hit = memo.get(key)
    if hit is not None:
        return hit
    k = rem[0]
    rest = rem[1:]
    cost, _, melds = _solve_naturals(rest, weights, cands, memo)
    best = (cost + weights[k], 0, melds)
    for cand in cands[k]:
        nat = cand[1]
        if not all(c in rest for c in nat):
            continue
        left = list(rest)
        for c in nat:
            left.remove(c)
        c2, _, m2 = _solve_naturals(tuple(left), weights, cands, memo)
        if c2 < best[0]:
            best = (c2, 0, ((cand[0], (k, *nat), (), cand[3]), *m2))
    memo[key] = best
    return best


def run_positions(meld: HandMeld) -> list[int]:
    """The run positions (1..14) its cards take, naturals first, then jokers."""
    out = [14 if k % 13 == 0 and meld.ace_high else k % 13 + 1 for k in meld.naturals]
    out += [14 if r == 1 and meld.ace_high else r for r, _ in meld.jokers]
    return out


def add_joker(meld: HandMeld) -> HandMeld | None:
    """The meld with one more joker, or ``None`` when it is full."""
    if meld.run:
        if meld.size >= 13:
            return None
        positions = run_positions(meld)
        lo, hi = min(positions), max(positions)
        suit = meld.naturals[0] // 13 if meld.naturals else meld.jokers[0][1]
        p = hi + 1 if hi < 14 and not (hi == 13 and lo == 1) else lo - 1
        return _new_meld(
            HandMeld,
            (
                True,
                meld.naturals,
                (*meld.jokers, (rank_of_position(p), suit)),
                p == 14 or meld.ace_high,
            ),
        )
    if meld.size >= 4:
        return None
    used = {k // 13 for k in meld.naturals} | {s for _, s in meld.jokers}
    rank = meld.naturals[0] % 13 + 1
    free = min(s for s in range(4) if s not in used)
    return _new_meld(HandMeld, (False, meld.naturals, (*meld.jokers, (rank, free)), False))


def solve_live(
    live: tuple[int, ...],
    jokers: int,
    weights: tuple[int, ...],
    exact: bool = True,
    lone_always: bool = False,
) -> tuple[int, int, tuple[Candidate, ...]]:
    """The melds of natural kinds ``live`` (sorted) and ``jokers`` that leave the least
    weight loose (a kind's weight, index 52 a joker's): the cost, the jokers used, the
    melds (``exact``: see ``_solve_jokers``)."""
    # the kinds after each card, as a bit mask (bit k for kind k)
    after = [0] * len(live)
    mask = 0
    for i in range(len(live) - 1, -1, -1):
        after[i] = mask
        mask |= 1 << live[i]
    both: dict[int, tuple[list[Candidate], ...]] = {}
    cache = _CANDIDATES
    for i, k in enumerate(live):
        if k not in both:
            key = (k, jokers, after[i] & _RELATED[k])
            sets = cache.get(key)
            if sets is None:
                out, lone = candidate_sets(k, frozenset(live[i + 1 :]), jokers)
                if len(cache) >= 1 << 15:
                    cache.clear()
                # cached for good: objects the garbage collector need not walk (a tuple
                # of no fixed length: compiled code keeps a pair unboxed and would box it
                # anew, tracked, wherever it is stored)
                sets = untrack(tuple((untrack(out), untrack(lone))))
                cache[key] = sets
                # the new key (a tuple, tracked until a collection looks at it) made the
                # dict tracked again: the next young collection would walk all of it
                untrack(cache)
            both[k] = sets
    if jokers:
        return _solve_jokers(live, jokers, weights, both, {}, exact, lone_always)
    # without jokers every meld of a sub-hand is a meld of the whole hand
    cands = {k: out or lone for k, (out, lone) in both.items()}
    return _solve_naturals(live, weights, cands, {})


#: per natural kind, the bits of the kinds that can share a meld with it (its suit and
#: its rank): a card's candidate melds depend on these cards only
_RELATED: Final = tuple(
    sum(1 << (k // 13 * 13 + r) for r in range(13)) | sum(1 << (s * 13 + k % 13) for s in range(4))
    for k in range(52)
)
#: ``candidate_sets`` by (kind, jokers, the related kinds present after it)
#: (each value a pair: the candidates, and the lone ones)
_CANDIDATES: dict[tuple[int, int, int], tuple[list[Candidate], ...]] = {}


def partition(naturals: tuple[int, ...], jokers: int, by_cards: bool = False) -> Partition:
    """The split of a hand (sorted natural kinds and a number of jokers) into melds that
    leaves the least penalty: fewest points, or with ``by_cards`` fewest cards first.
    The cards that cannot meld (``live_mask``) are loose in every split: the melds are
    searched among the others (and cached on them: a hand that changes only by such
    cards reuses them). Not cached itself: most hands it is asked about are new (two
    calls in three in basic rounds, four in five in strong ones), and what it adds to
    the cached search of the live cards is a few bit operations; a cache entry per new
    hand cost more (its insertion, the untracking, and the garbage collections its
    growth triggers: benchmarks/README.md, "Jokeren 7 basic at 1,000 rounds/s")."""
    if jokers >= 2:
        return _partition_live(naturals, jokers, by_cards)
    weights = CARD_WEIGHTS if by_cards else POINT_WEIGHTS
    bits = LANE_BIT
    m = 0
    for k in naturals:
        m |= bits[k]
    # ``live_lanes(m, jokers)``, inline (this runs for most new hands)
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
    live_bits = (runs | ranks | ranks << 16 | ranks << 32 | ranks << 48) & m
    if live_bits == m:  # every card can meld (an ace's two bits both live)
        return _partition_live(naturals, jokers, by_cards)
    if not live_bits:  # no card can meld (often so in a short hand)
        cost = jokers * weights[JOKER_KIND]
        for k in naturals:
            cost += weights[k]
        return _new_partition((), naturals, jokers, cost)
    live: list[int] = []
    dead: list[int] = []
    dead_cost = 0
    for k in naturals:
        if live_bits & bits[k]:
            live.append(k)
        else:
            dead.append(k)
            dead_cost += weights[k]
    if not dead:
        return _partition_live(naturals, jokers, by_cards)
    if not live:
        return _new_partition((), naturals, jokers, dead_cost + jokers * weights[JOKER_KIND])
    melds, loose, loose_jokers, cost = _partition_live(tuple(live), jokers, by_cards)
    if loose:
        dead += loose
        dead.sort()
    return _new_partition(melds, tuple(dead), loose_jokers, cost + dead_cost)


def _new_partition(
    melds: tuple[HandMeld, ...], loose: tuple[int, ...], loose_jokers: int, cost: int
) -> Partition:
    # made positionally (the named form calls the named tuple's Python ``__new__``)
    return tuple.__new__(Partition, (melds, loose, loose_jokers, cost))


@untracked_cache(maxsize=1 << 16)
def _partition_live(live: tuple[int, ...], jokers: int, by_cards: bool) -> Partition:
    """``partition`` of the cards that can meld (cached on them alone: a hand that
    changes only by loose cards reuses it)."""
    weights = CARD_WEIGHTS if by_cards else POINT_WEIGHTS
    # the quick search, the spare jokers then put where a meld has room: exact unless a
    # joker stays loose or two jokers could go with a card alone (then the exact search;
    # with two jokers or more always, and only that)
    spare = 0
    melds: list[HandMeld] = []
    if jokers < 2:
        cost, used, raw = solve_live(live, jokers, weights, exact=False)
        melds = [_new_meld(HandMeld, c) for c in raw]
        spare = jokers - used
        while spare and melds:
            for i, m in enumerate(melds):
                bigger = add_joker(m)
                if bigger is not None:
                    melds[i] = bigger
                    spare -= 1
                    break
            else:
                break
    if spare or jokers >= 2:
        cost, used, raw = solve_live(live, jokers, weights)
        melds = [_new_meld(HandMeld, c) for c in raw]
        spare = jokers - used
    loose = list(live)
    for m in melds:
        for k in m.naturals:
            loose.remove(k)
    # cached: objects the garbage collector need not walk (engine/untracked.py)
    return untrack(_new_partition(untrack(tuple(map(untrack, melds))), tuple(loose), spare, cost))


_new_meld: Final = tuple.__new__


def clear_caches() -> None:
    """Empty the hand-analysis caches (for benchmarks of the worst case)."""
    _partition_live.cache_clear()
    _CANDIDATES.clear()


def hand_partition(hand: Sequence[int], by_cards: bool = False) -> Partition:
    """``partition`` of a hand of card ids (in any order)."""
    naturals, jokers = hand_kinds(tuple(sorted(hand)))
    return partition(naturals, jokers, by_cards)


def hand_kinds(hand: tuple[int, ...]) -> tuple[tuple[int, ...], int]:
    """The sorted natural kinds of a hand (sorted card ids, as a state keeps them) and its
    number of jokers."""
    if hand and hand[-1] < 54:
        # one deck: a natural card's id is its kind, the jokers (52, 53) come last
        n = len(hand)
        while n and hand[n - 1] >= JOKER_KIND:
            n -= 1
        return (hand if n == len(hand) else hand[:n]), len(hand) - n
    kinds = sorted(map(KIND.__getitem__, hand))
    j = 0
    while kinds and kinds[-1] == JOKER_KIND:
        kinds.pop()
        j += 1
    return tuple(kinds), j
