"""What the site's card table and its pages need of a Jokeren round to show it: a card's
code, a hand in the table's order, the table's stylesheet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import CARD_CODE, card_code, jokeren_display_order
from engine.jokeren.melds import ids_of_codes

#: The stylesheet of the Jokeren table (a path in the site's static files).
TABLE_CSS: Final = "css/table.css"


def hand_in_table_order(codes: Sequence[str], *, trump: str | None = None) -> list[str]:
    """A hand's card codes in the table's order (``engine.cards.jokeren_display_order``:
    by suit, spades, hearts, clubs, diamonds, from the 2 up to the ace, the jokers last);
    Jokeren has no trump, so ``trump`` changes nothing."""
    return [CARD_CODE[c] for c in jokeren_display_order(ids_of_codes(codes))]


__all__ = ["TABLE_CSS", "card_code", "hand_in_table_order"]
