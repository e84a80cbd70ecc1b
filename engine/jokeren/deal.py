"""The deal of a Jokeren round (docs/rules.md §5, ``engine.dealing``): the round seed, the
hands dealt one at a time clockwise from the seat after the dealer, the open card and the
stock; the dealt state of a round.
"""

from __future__ import annotations

from typing import Any

from engine.cards import CARD_CODE, jokeren_deck
from engine.dealing import Stream, commitment, deal_hands, round_seed
from engine.jokeren.round import JokerenState, state_of_fields
from engine.jokeren.variants import Variant


def deal(
    variant: Variant, *, secret: bytes, round_index: int
) -> tuple[bytes, list[list[int]], int | None, list[int]]:
    """The round seed, the hands per seat in the order dealt, the open card (``None`` when
    the variant turns none, ``variant.open_card``) and the stock (top first) of round
    ``round_index`` (docs/rules.md §5: the card after the hands opens the pile; without an open
    card it stays on top of the stock)."""
    seed = round_seed(secret, round_index)
    pack = Stream(seed, "deal").shuffle(jokeren_deck(variant.decks))
    n = variant.num_players
    first = (round_index % n + 1) % n
    hands, rest = deal_hands(pack, num_players=n, hand_size=variant.hand_size, first_player=first)
    if not variant.open_card:
        return seed, hands, None, rest
    return seed, hands, rest[0], rest[1:]


def new_round(variant: Variant, *, secret: bytes, round_index: int) -> JokerenState:
    """The dealt state of round ``round_index`` (from 0) of a game with this secret."""
    if round_index < 0:
        raise ValueError("round_index must be >= 0")
    seed, hands, open_card, stock = deal(variant, secret=secret, round_index=round_index)
    n = variant.num_players
    dealer = round_index % n
    return state_of_fields(
        {
            "variant": variant,
            "round_index": round_index,
            "dealer": dealer,
            "round_seed": seed,
            "current_player": (dealer + 1) % n,
            "phase": "draw",
            "hands": tuple([tuple(sorted(h)) for h in hands]),
            "stock": tuple(stock),
            "open_pile": () if open_card is None else (open_card,),
            "table": (),
            "out": (False,) * n,
            "came_out_this_turn": False,
            "taken_from_open": None,
            "turn": 0,
            "move_count": 0,
            "reshuffles": 0,
            "removed": (),
            "winner": None,
            "end_reason": None,
            "log_chunks": (),
            "log_tail": (),
            "open_takes": (),
        }
    )


def deal_summary(variant: Variant, *, secret: bytes, round_index: int) -> dict[str, Any]:
    """The deal of a round as codes, for ``python -m engine deal``: the commitment, each
    seat's hand in the order dealt, the open pile and the stock (top first)."""
    _, hands, open_card, stock = deal(variant, secret=secret, round_index=round_index)
    return {
        "commitment": commitment(secret),
        "hands": [[CARD_CODE[c] for c in h] for h in hands],
        "open": [] if open_card is None else [CARD_CODE[open_card]],
        "stock": [CARD_CODE[c] for c in stock],
    }


# --- from JSON -------------------------------------------------------------------------------
