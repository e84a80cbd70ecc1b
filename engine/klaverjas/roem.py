"""Roem: bonus points for the cards of one trick, for the team that wins it (docs/rules.md §6).

- Three cards in sequence in one suit: 20; four in sequence: 50. The sequence order is
  7 8 9 10 J Q K A in every suit (also in trump). Only the best sequence counts.
- Four of a kind: 100 (four jacks: 100 or 200, by setting).
- Stuk, the king and queen of trump: 20, also on top of a sequence that holds them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

ROEM_THREE: Final = 20
ROEM_FOUR: Final = 50
ROEM_FOUR_OF_A_KIND: Final = 100
ROEM_STUK: Final = 20
_JACK: Final = 4  # rank index of J in 7 8 9 T J Q K A
_QUEEN: Final = 5
_KING: Final = 6


def trick_roem(cards: Sequence[int], trump: int, *, four_jacks: int = 100) -> int:
    """The roem in a trick of up to four different Klaverjas card ids (``trump`` is the
    suit index 0..3 = c d h s).

    >>> from engine.cards import klaverjas_id as k
    >>> trick_roem([k("7h"), k("8h"), k("9h"), k("Kc")], 2)
    20
    """
    if len(cards) > 4:
        raise ValueError("a trick holds at most four cards")
    if len(set(cards)) != len(cards):
        raise ValueError("a card appears twice")
    if any(not 0 <= c < 32 for c in cards):
        raise ValueError("not a Klaverjas card id")
    if not 0 <= trump < 4:
        raise ValueError("trump is a suit index 0..3")
    return roem_points(cards, trump, four_jacks)


def roem_points(cards: Sequence[int], trump: int, four_jacks: int) -> int:
    """``trick_roem`` without the checks of its input (for the engine and the bots)."""
    total = 0
    if len(cards) == 4 and len({c % 8 for c in cards}) == 1:
        total += four_jacks if cards[0] % 8 == _JACK else ROEM_FOUR_OF_A_KIND
    best = 0
    masks = [0, 0, 0, 0]
    for c in cards:
        masks[c // 8] |= 1 << (c % 8)
    for mask in masks:
        run = longest = 0
        for r in range(8):
            if mask >> r & 1:
                run += 1
                longest = max(longest, run)
            else:
                run = 0
        if longest >= 4:
            best = max(best, ROEM_FOUR)
        elif longest == 3:
            best = max(best, ROEM_THREE)
    total += best
    stuk = (1 << _KING) | (1 << _QUEEN)
    if masks[trump] & stuk == stuk:
        total += ROEM_STUK
    return total
