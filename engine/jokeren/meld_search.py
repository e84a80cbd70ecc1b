"""Finding the melds in a hand (docs/rules.md §2): every group and run its cards and jokers
can form, as patterns of (rank, suit, joker) slots, and the melds of chosen patterns; the
legal lay-downs and the bots build on these.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.cards import CARD_RANK, CARD_SUIT
from engine.jokeren.meld import Meld, MeldKind, StandsFor, new_meld
from engine.jokeren.variants import MAX_GROUP, MAX_RUN

# --- finding melds in a hand -----------------------------------------------------------

#: One slot of a meld pattern: (rank, suit, is_joker); rank 1 also for a high ace.
Slot = tuple[int, int, bool]
Pattern = tuple[MeldKind, tuple[Slot, ...]]


def hand_index(cards: Sequence[int]) -> tuple[dict[tuple[int, int], list[int]], list[int]]:
    """The natural cards of a hand by ``(rank, suit)`` (ids ascending) and its jokers."""
    by_key: dict[tuple[int, int], list[int]] = {}
    jokers: list[int] = []
    for c in sorted(cards):
        r = CARD_RANK[c]
        if r:
            by_key.setdefault((r, CARD_SUIT[c]), []).append(c)
        else:
            jokers.append(c)
    return by_key, jokers


def _group_shapes() -> tuple[tuple[tuple[tuple[tuple[int, bool], ...], ...], ...], ...]:
    """Per number of jokers (0..4) and per mask of the suits in hand, every group shape:
    ``(suit, is_joker)`` in suit order; jokers take the first suits the subset lacks."""
    per_jokers = []
    for jokers in range(MAX_GROUP + 1):
        per_mask = []
        for mask in range(16):
            shapes = []
            present = [s for s in range(4) if mask >> s & 1]
            k = len(present)
            for sub in range(1, 1 << k):
                subset = [present[i] for i in range(k) if sub >> i & 1]
                a = len(subset)
                for j in range(max(0, 3 - a), min(jokers, MAX_GROUP - a) + 1):
                    free = [s for s in range(4) if s not in subset][:j]
                    shape = sorted([(s, False) for s in subset] + [(s, True) for s in free])
                    shapes.append(tuple(shape))
            per_mask.append(tuple(shapes))
        per_jokers.append(tuple(per_mask))
    return tuple(per_jokers)


_GROUP_SHAPES = _group_shapes()
#: The group patterns per number of jokers (0..4), mask of suits in hand and rank.
_GROUP_PATTERNS: tuple[tuple[tuple[tuple[Pattern, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(
                ("group", tuple((rank, s, joker) for s, joker in shape))
                for shape in _GROUP_SHAPES[j][mask]
            )
            for rank in range(14)
        )
        for mask in range(16)
    )
    for j in range(MAX_GROUP + 1)
)


def meld_patterns(
    by_key: dict[tuple[int, int], list[int]], num_jokers: int, max_size: int = MAX_RUN
) -> list[Pattern]:
    """Every group and run that can be made from these cards, at most ``max_size`` cards,
    using each natural card at most once and the canonical joker choices (in a group the
    first missing suits; in a run every window of consecutive cards whose gaps the
    jokers fill). Order: groups by rank and suits, then runs by suit, low end, length.
    """
    out: list[Pattern] = []
    by_mask = _GROUP_PATTERNS[min(num_jokers, MAX_GROUP)]
    rank_mask = [0] * 14
    suit_mask = [0, 0, 0, 0]
    for r, s in by_key:
        rank_mask[r] |= 1 << s
        suit_mask[s] |= 1 << r
    for rank in range(1, 14):
        mask = rank_mask[rank]
        if mask:
            for pattern in by_mask[mask][rank]:
                if len(pattern[1]) <= max_size:
                    out.append(pattern)
    max_size = min(max_size, MAX_RUN)
    for suit in range(4):
        if suit_mask[suit]:
            out.extend(_run_patterns(suit, suit_mask[suit], num_jokers, max_size))
    return out


@lru_cache(maxsize=1 << 16)
def _run_patterns(suit: int, mask: int, num_jokers: int, max_size: int) -> tuple[Pattern, ...]:
    """The runs of one suit: ``mask`` has bit r for each rank r (1..13) in hand; every
    window of consecutive positions (1 = low ace .. 14 = high ace) with at least one
    natural card whose gaps the jokers fill, by low end then length."""
    have = [bool(mask >> p & 1) for p in range(15)] + [False]
    have[14] = have[1]
    places = [p for p in range(1, 15) if have[p]]
    row = [(1 if p == 14 else p, suit, not have[p]) for p in range(15)]
    out: list[Pattern] = []
    for lo in range(max(1, places[0] - num_jokers), min(places[-1], 12) + 1):
        if not have[lo] and not num_jokers:
            continue
        count = 0
        for hi in range(lo, min(lo + MAX_RUN - 1, 14) + 1):
            count += have[hi]
            size = hi - lo + 1
            # the jokers needed never drop as the window grows
            if size > max_size or size - count > num_jokers:
                break
            if size >= 3 and count:
                out.append(("run", tuple(row[lo : hi + 1])))
    return tuple(out)


def materialize(
    pattern: Pattern,
    by_key: dict[tuple[int, int], list[int]],
    jokers: Sequence[int],
    owner: int = -1,
) -> Meld:
    """The meld of a pattern with the first ids of each card (the pattern's cards must be
    available; several patterns sharing cards need ``materialize_many``)."""
    kind, slots = pattern
    cards: list[int] = []
    sfs: list[StandsFor] = []
    j = 0
    for r, s, joker in slots:
        if joker:
            cards.append(jokers[j])
            j += 1
            sfs.append((r, s))
        else:
            cards.append(by_key[(r, s)][0])
            sfs.append(None)
    return new_meld(kind, tuple(cards), tuple(sfs), owner)


def pattern_spec(
    pattern: Pattern, by_key: dict[tuple[int, int], list[int]], jokers: Sequence[int]
) -> tuple[tuple[int, ...], tuple[StandsFor, ...]]:
    """The card ids and joker choices of a pattern (first ids of each card)."""
    cards: list[int] = []
    sfs: list[StandsFor] = []
    j = 0
    for r, s, joker in pattern[1]:
        if joker:
            cards.append(jokers[j])
            j += 1
            sfs.append((r, s))
        else:
            cards.append(by_key[(r, s)][0])
            sfs.append(None)
    return tuple(cards), tuple(sfs)


def pattern_usage(pattern: Pattern) -> tuple[int, int]:
    """A bit per natural card a pattern uses (bit ``(rank - 1) * 4 + suit``) and the number
    of jokers it needs."""
    mask = 0
    jokers = 0
    for r, s, joker in pattern[1]:
        if joker:
            jokers += 1
        else:
            mask |= 1 << ((r - 1) * 4 + s)
    return mask, jokers


def single_copies(by_key: dict[tuple[int, int], list[int]]) -> int:
    """The bits (as in ``pattern_usage``) of the cards the hand holds only once."""
    mask = 0
    for (r, s), found in by_key.items():
        if len(found) == 1:
            mask |= 1 << ((r - 1) * 4 + s)
    return mask


def materialize_many(
    patterns: Sequence[Pattern], by_key: dict[tuple[int, int], list[int]], jokers: Sequence[int]
) -> list[Meld] | None:
    """Melds for several patterns from one hand, each physical card used once; ``None``
    when the hand does not hold enough copies."""
    taken: dict[tuple[int, int], int] = {}
    j = 0
    melds: list[Meld] = []
    for kind, slots in patterns:
        cards: list[int] = []
        sfs: list[StandsFor] = []
        for r, s, joker in slots:
            if joker:
                if j >= len(jokers):
                    return None
                cards.append(jokers[j])
                j += 1
                sfs.append((r, s))
            else:
                key = (r, s)
                i = taken.get(key, 0)
                ids = by_key.get(key)
                if ids is None or i >= len(ids):
                    return None
                taken[key] = i + 1
                cards.append(ids[i])
                sfs.append(None)
        melds.append(new_meld(kind, tuple(cards), tuple(sfs), -1))
    return melds


def melds_in(cards: Sequence[int], max_size: int = MAX_RUN) -> list[Meld]:
    """Every single meld in these cards (see ``meld_patterns``), at most ``max_size``
    cards each, as melds with the lowest ids of each card and ``owner=-1``."""
    by_key, jokers = hand_index(cards)
    return [materialize(p, by_key, jokers) for p in meld_patterns(by_key, len(jokers), max_size)]
