"""What the site's card table and its pages need of a Klaverjas round to show it: a card's
code, a hand in the table's order, the table's stylesheet; no melds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import SUITS, klaverjas_code, klaverjas_id
from engine.klaverjas.rules import display_order

#: The stylesheet of the Klaverjas table (a path in the site's static files).
TABLE_CSS: Final = "css/klaverjas.css"


def card_code(card: int) -> str:
    """The code of a Klaverjas card id (``engine.cards.klaverjas_code``: 0 is ``7c``)."""
    return klaverjas_code(card)


def hand_in_table_order(codes: Sequence[str], *, trump: str | None = None) -> list[str]:
    """A hand's card codes in the table's order (``rules.display_order``: by suit, the
    trump suit first, within a suit from the strongest card down); ``trump`` is the trump
    suit's letter, or while bidding the proposed one (``None``: none yet)."""
    suit = SUITS.index(trump) if trump else None
    return [klaverjas_code(c) for c in display_order([klaverjas_id(c) for c in codes], suit)]


def meld_readings_json(cards: Sequence[int]) -> None:
    """How cards read as a new meld: Klaverjas has no melds (``None``: the site answers
    the question with a 404)."""
    return None
