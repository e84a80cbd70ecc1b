"""The deal of a Klaverjas round (docs/rules.md §5-§6, ``engine.dealing``): the hands, the
proposed trump suit, and the labels of each redeal.
"""

from __future__ import annotations

from engine.cards import klaverjas_deck
from engine.dealing import Stream, deal_hands, shuffled_pack
from engine.klaverjas.tricks import HAND_SIZE, NUM_SEATS


def deal(seed: bytes, dealer: int, deal_number: int) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The hands (sorted, per seat) and the proposed trump of deal ``deal_number`` (0 = the
    first deal; labels ``deal``/``trump``, then ``deal:k``/``trump:k`` for redeal k)."""
    suffix = "" if deal_number == 0 else f":{deal_number}"
    pack = shuffled_pack(seed, klaverjas_deck(), "deal" + suffix)
    hands, _rest = deal_hands(
        pack, num_players=NUM_SEATS, hand_size=HAND_SIZE, first_player=(dealer + 1) % NUM_SEATS
    )
    proposed = Stream(seed, "trump" + suffix).uniform(4)
    return tuple(tuple(sorted(h)) for h in hands), proposed
