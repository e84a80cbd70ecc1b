"""The first lay-down: the melds that meet the variant's opening requirement (a contract,
or the opening points) and leave the least penalty in hand, always keeping a card to
discard (docs/rules.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from engine.jokeren.bots.hand import (
    CARD_WEIGHTS,
    JOKER_KIND,
    JOKER_POINTS,
    KIND_POINTS,
    POINT_WEIGHTS,
    HandMeld,
    add_joker,
    candidate_sets,
    partition,
    run_positions,
    run_windows,
)
from engine.untracked import untracked_cache


def _all_runs(
    counts: Sequence[int], jokers: int, min_len: int
) -> Iterator[tuple[tuple[int, ...], tuple[tuple[int, int], ...], bool]]:
    """Every run of at least ``min_len`` cards the hand can make: (naturals, jokers'
    stands-for, ace high). Runs end on a natural card unless they are exactly
    ``min_len`` long, so a longer run is never split needlessly."""
    present = {k for k in range(52) if counts[k] > 0}
    for suit in range(4):
        for a in range(1, 14):
            for nat, jk, b, natural in run_windows(suit, a, a, present, jokers):
                length = b - a + 1
                if length >= min_len and nat and (natural or length == min_len):
                    yield tuple(nat), tuple(jk), b == 14


def _all_groups(
    counts: Sequence[int], jokers: int, size: int
) -> Iterator[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]:
    """Every group of exactly ``size`` cards (3 or 4) the hand can make."""
    for ri in range(13):
        suits = [s for s in range(4) if counts[s * 13 + ri] > 0]
        for mask in range(1, 1 << len(suits)):
            chosen = [suits[i] for i in range(len(suits)) if mask >> i & 1]
            need = size - len(chosen)
            if need < 0 or need > jokers:
                continue
            free = [s for s in range(4) if s not in chosen]
            yield (
                tuple(s * 13 + ri for s in chosen),
                tuple((ri + 1, s) for s in free[:need]),
            )


@dataclass(frozen=True, slots=True)
class Requirement:
    """What a first lay-down must hold (the variant's opening rule for this round)."""

    runs: tuple[int, ...] = ()
    groups: tuple[int, ...] = ()
    all_out: bool = False
    points: int = 0
    any_meld: bool = False


def opening_melds(
    naturals: tuple[int, ...], jokers: int, req: Requirement, by_cards: bool
) -> tuple[HandMeld, ...] | None:
    """The melds of a first lay-down that meets ``req`` and leaves the least penalty in
    hand (at least one card is always kept for the discard), or ``None``."""
    # cached on the requirement's fields: a key of tuples of ints, which the garbage
    # collector need not walk (engine/untracked.py)
    fields = (req.runs, req.groups, req.all_out, req.points, req.any_meld)
    return _opening_melds(naturals, jokers, fields, by_cards)


@untracked_cache(maxsize=1 << 14)
def _opening_melds(
    naturals: tuple[int, ...],
    jokers: int,
    fields: tuple[tuple[int, ...], tuple[int, ...], bool, int, bool],
    by_cards: bool,
) -> tuple[HandMeld, ...] | None:
    req = Requirement(*fields)
    slots: list[tuple[bool, int]] = sorted(
        [(True, n) for n in req.runs] + [(False, n) for n in req.groups], reverse=True
    )
    best: tuple[int, tuple[HandMeld, ...]] | None = None
    total_cards = len(naturals) + jokers

    def finish(rem: list[int], j: int, chosen: list[HandMeld]) -> None:
        nonlocal best
        part = partition(tuple(sorted(rem)), j, by_cards)
        melds = (*chosen, *part.melds)
        if req.points:
            # the split that leaves the least may fall short of the points: then the
            # least-penalty split of those that reach them
            need = req.points - sum(m.points() for m in chosen)
            if sum(m.points() for m in part.melds) < need:
                split = _points_split(tuple(sorted(rem)), j, need, by_cards)
                if split is None:
                    return
                melds = (*chosen, *split)
        if not melds:
            return
        laid = sum(m.size for m in melds)
        left = total_cards - laid
        if left < 1:
            kept = keep_one(melds, [n for _, n in slots])
            if kept is None:
                return
            melds = kept
            left = total_cards - sum(m.size for m in melds)
        if req.all_out and left != 1:
            return
        if req.points and sum(m.points() for m in melds) < req.points:
            return
        cost = _hand_cost(naturals, jokers, melds, by_cards)
        if best is None or cost < best[0]:
            best = (cost, melds)

    def search(i: int, rem: list[int], j: int, chosen: list[HandMeld]) -> None:
        if i == len(slots):
            finish(rem, j, chosen)
            return
        is_run, n = slots[i]
        counts = [0] * 52
        for k in rem:
            counts[k] += 1
        if is_run:
            for nat, jk, high in _all_runs(counts, j, n):
                left = list(rem)
                for k in nat:
                    left.remove(k)
                search(i + 1, left, j - len(jk), [*chosen, HandMeld(True, nat, jk, high)])
        else:
            for gnat, gjk in _all_groups(counts, j, n):
                left = list(rem)
                for k in gnat:
                    left.remove(k)
                search(i + 1, left, j - len(gjk), [*chosen, HandMeld(False, gnat, gjk)])

    search(0, list(naturals), jokers, [])
    return None if best is None else best[1]


@untracked_cache(maxsize=1 << 12)
def _points_split(
    naturals: tuple[int, ...], jokers: int, need: int, by_cards: bool
) -> tuple[HandMeld, ...] | None:
    """The melds of a hand (sorted natural kinds and jokers) worth at least ``need``
    points that leave the least penalty and at least one card in hand, or ``None``: a
    memoised search over the candidate melds of the lowest card left (each also with the
    spare jokers it can hold), remembering the points still needed and whether a card is
    kept."""
    weights = CARD_WEIGHTS if by_cards else POINT_WEIGHTS
    if sum(KIND_POINTS[k] for k in naturals) + JOKER_POINTS * jokers < need:
        return None
    Best = tuple[int, tuple[HandMeld, ...]] | None
    memo: dict[tuple[tuple[int, ...], int, int, bool], Best] = {}

    def solve(rem: tuple[int, ...], j: int, pts: int, kept: bool) -> Best:
        """(cost, melds) of the best split of ``rem`` and ``j`` jokers that lays at least
        ``pts`` more points and keeps a card (unless ``kept``: one is kept already)."""
        if not rem:
            if pts > 0 or not (kept or j):
                return None
            return j * weights[JOKER_KIND], ()
        key = (rem, j, pts, kept)
        if key in memo:
            return memo[key]
        k, rest = rem[0], rem[1:]
        best: Best = None
        r = solve(rest, j, pts, True)
        if r is not None:
            best = (r[0] + weights[k], r[1])
        out, lone = candidate_sets(k, frozenset(rest), j)
        for run, nat, jk, high in (*out, *lone):
            left = list(rest)
            for c in nat:
                left.remove(c)
            left_t = tuple(left)
            meld: HandMeld | None = _new_meld(HandMeld, (run, (k, *nat), jk, high))
            while meld is not None and len(meld.jokers) <= j:
                used = len(meld.jokers)
                r = solve(left_t, j - used, max(0, pts - meld.points()), kept)
                if r is not None and (best is None or r[0] < best[0]):
                    best = (r[0], (meld, *r[1]))
                meld = add_joker(meld) if used < j else None
        memo[key] = best
        return best

    found = solve(naturals, jokers, need, False)
    return None if found is None else found[1]


def _hand_cost(
    naturals: Sequence[int], jokers: int, melds: Sequence[HandMeld], by_cards: bool
) -> int:
    weights = CARD_WEIGHTS if by_cards else POINT_WEIGHTS
    left = list(naturals)
    j = jokers
    for m in melds:
        for k in m.naturals:
            left.remove(k)
        j -= len(m.jokers)
    return sum(weights[k] for k in left) + j * weights[JOKER_KIND]


def keep_one(
    melds: Sequence[HandMeld], required: Sequence[int] = ()
) -> tuple[HandMeld, ...] | None:
    """The melds with one card taken back into the hand (to discard), when they would
    take every card: a natural from the end of a run or from a group of four, or else
    without the meld worth least. The first melds are required ones: meld ``i`` keeps
    at least ``required[i]`` cards and is never dropped."""
    for i, m in enumerate(melds):
        smaller = _without_one(m)
        if smaller is None or (i < len(required) and smaller.size < required[i]):
            continue
        return (*melds[:i], smaller, *melds[i + 1 :])
    extra = range(len(required), len(melds))
    if len(melds) <= 1 or not extra:
        return None
    cheapest = min(extra, key=lambda i: melds[i].points())
    return tuple(m for i, m in enumerate(melds) if i != cheapest)


def _without_one(m: HandMeld) -> HandMeld | None:
    """The meld less one natural card, still a meld, or ``None``."""
    if m.size < 4 or len(m.naturals) < 2:
        return None
    if not m.run:
        return HandMeld(False, m.naturals[1:], m.jokers)
    positions = run_positions(m)
    lo, hi = min(positions), max(positions)
    for idx in range(len(m.naturals)):
        p = positions[idx]
        if p in (lo, hi):
            rest = m.naturals[:idx] + m.naturals[idx + 1 :]
            return HandMeld(True, rest, m.jokers, m.ace_high and p != 14)
    return None


#: makes a named tuple positionally (the named form calls its Python ``__new__``)
_new_meld: Final = tuple.__new__


def clear_caches() -> None:
    """Empty the opening searches' caches (for benchmarks of the worst case)."""
    _opening_melds.cache_clear()
    _points_split.cache_clear()
