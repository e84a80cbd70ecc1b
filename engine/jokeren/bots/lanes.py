"""Hands as bit masks, for the bots' quick tests (engine/jokeren/bots).

A natural kind's *lane bit* (``LANE_BIT``): 16 bits per suit, bit ``suit * 16 + p`` for run
position p (1..14; an ace at 1 and 14). Positions 0 and 15 stay empty, so shifts by one or
two never carry a card into another suit's positions 1..14. On these masks: which cards of
a hand have a partner to meld with (``live_mask``, ``live_with``), how many neighbours a
card has (``lane_neighbours``), and the per-suit and per-rank masks (``masks``, ``near``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final


def suit_rank_masks(naturals: Sequence[int]) -> tuple[list[int], list[int]]:
    """Per suit, a bit mask of run positions held (bit p for p = 1..14, an ace at 1 and
    14); per rank index 0..12, a bit mask of suits held."""
    by_suit = [0, 0, 0, 0]
    by_rank = [0] * 13
    for k in naturals:
        suit, ri = divmod(k, 13)
        by_suit[suit] |= _POS_BITS[ri]
        by_rank[ri] |= 1 << suit
    return by_suit, by_rank


#: run position bits of a rank index (the ace is at positions 1 and 14)
_POS_BITS: Final = (1 << 1 | 1 << 14, *(1 << (ri + 1) for ri in range(1, 13)))


def near_bits(mask: int, ri: int) -> int:
    """The bits of ``mask`` at positions p-2, p-1, p+1, p+2 of rank index ``ri`` (not an
    ace) shifted to bits 0, 1, 3, 4."""
    p = ri + 1
    return (mask >> (p - 2)) & 0b11011


#: a natural kind's bits in a hand's lane mask: 16 bits per suit, bit ``suit * 16 + p`` for
#: run position p (1..14; an ace at 1 and 14). Positions 0 and 15 stay empty, so shifts
#: by one or two never carry a card into another suit's positions 1..14.
LANE_BIT: Final = tuple(
    1 << (k // 13 * 16 + k % 13 + 1) | (1 << (k // 13 * 16 + 14) if k % 13 == 0 else 0)
    for k in range(52)
)
LANE: Final = 0xFFFF


def lane_neighbours(k: int, m: int) -> int:
    """How many cards of the lane mask ``m`` could share a meld with natural ``k``: the
    same rank in another suit, or the same suit at most two run positions away."""
    suit, ri = divmod(k, 13)
    base = suit * 16
    p = ri + 1
    same = (m & _RANK_LANES[p]).bit_count() - 1
    # an ace's neighbours are the two and three, and the queen and king
    near = (
        (m >> (base + 2) & 0b11) | (m >> (base + 10) & 0b1100)
        if ri == 0
        else m >> (base + p - 2) & 0b11011
    )
    return same + near.bit_count()


#: the lane bits of run position p in every suit
_RANK_LANES: Final = tuple(sum(1 << (s * 16 + p) for s in range(4)) for p in range(16))


def live_with(k: int, m: int, jokers: int) -> bool:
    """Whether natural ``k`` has a partner to meld with among the cards of the lane mask
    ``m`` (``live_mask``'s test, for one card): with a joker one other suit of its rank or
    one card of its suit within two places; without, two of each (in a row for a run)."""
    if jokers:
        return bool(m & PARTNERS_ONE[k])
    if (m & _OTHER_SUITS[k]).bit_count() >= 2:
        return True
    # two cards of its suit in a row next to it: below, around or above (lanes 0 and 15
    # stay empty, so no shift reaches another suit's positions)
    return bool(((m >> 1 & m >> 2) | (m << 1 & m >> 1) | (m << 1 & m << 2)) & LANE_BIT[k])


def _lane_bits(suit: int, positions: Sequence[int]) -> int:
    return sum(1 << (suit * 16 + p) for p in positions if 1 <= p <= 14)


#: per natural kind: the lane bits of its rank in the other suits (an ace at position 1)
_OTHER_SUITS: Final = tuple(
    sum(1 << (s * 16 + k % 13 + 1) for s in range(4) if s != k // 13) for k in range(52)
)
#: per natural kind: the positions that make it live with one joker (a card of its rank
#: in another suit, or of its suit one or two places away)
PARTNERS_ONE: Final = tuple(
    _OTHER_SUITS[k]
    | _lane_bits(
        k // 13,
        [
            q
            for p in ((1, 14) if k % 13 == 0 else (k % 13 + 1,))
            for q in (p - 2, p - 1, p + 1, p + 2)
        ],
    )
    for k in range(52)
)


def live_mask(naturals: Sequence[int], jokers: int) -> int:
    """The lane bits (``LANE_BIT``) of the positions where a card of the hand has a
    partner to meld with: the same rank in other suits (two more without a joker, one
    more with one), or run neighbours (two in a row without a joker, one within two
    places with one). A card without such a partner is loose in every split of the
    hand."""
    return live_lanes(lane_mask(naturals), jokers)


def lane_mask(naturals: Iterable[int]) -> int:
    """The lane mask of natural kinds: the ``LANE_BIT`` of each, together."""
    bits = LANE_BIT
    m = 0
    for k in naturals:
        m |= bits[k]
    return m


def live_lanes(m: int, jokers: int) -> int:
    """``live_mask`` of the lane mask ``m`` of a hand's naturals."""
    a = m & LANE
    b = m >> 16 & LANE
    c = m >> 32 & LANE
    d = m >> 48
    if jokers:
        runs = m >> 1 | m >> 2 | m << 1 | m << 2
        ranks = (a | b) & (c | d) | a & b | c & d  # at least two suits
    else:
        runs = (m >> 1 & m >> 2) | (m << 1 & m >> 1) | (m << 1 & m << 2)
        ranks = a & b & (c | d) | c & d & (a | b)  # at least three suits
    return runs | ranks | ranks << 16 | ranks << 32 | ranks << 48
