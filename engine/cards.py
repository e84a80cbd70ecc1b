"""Cards, decks and notation (docs/rules.md §1).

Machine notation: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` followed by suit ``c d h s``
(klaveren, ruiten, harten, schoppen), e.g. ``7h``, ``Td``, ``As``; a joker is ``**``.

Jokeren decks: per deck the suits ``c d h s`` in that order, each with ranks
``A 2 .. K``, then two jokers. A card's id is its place in that order over all decks:
ids 0..53 are the first deck, 54..107 the second. Two copies of the same card are
interchangeable in the rules, but each physical card keeps its id.

Klaverjassen uses 32 cards: per suit ``c d h s`` the ranks ``7 8 9 T J Q K A``; a
card's id is its place in that order (0..31).
"""

from __future__ import annotations

from typing import Final

SUITS: Final = "cdhs"
RANKS: Final = "A23456789TJQK"
JOKER_CODE: Final = "**"
CARDS_PER_DECK: Final = 54

#: Dutch names of the suits, in the order of ``SUITS``.
SUIT_NAMES_NL: Final = ("klaveren", "ruiten", "harten", "schoppen")
SUIT_NAMES_EN: Final = ("clubs", "diamonds", "hearts", "spades")
#: Dutch names of the ranks 1 (ace) to 13 (king).
RANK_NAMES_NL: Final = (
    "",
    "aas",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "boer",
    "vrouw",
    "heer",
)
RANK_NAMES_EN: Final = (
    "",
    "ace",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "jack",
    "queen",
    "king",
)

JOKER_RANK: Final = 0
JOKER_SUIT: Final = -1


class CardCodeError(ValueError):
    """A card code that is not in the notation."""


def _build_tables() -> tuple[tuple[int, ...], tuple[int, ...], tuple[str, ...]]:
    ranks: list[int] = []
    suits: list[int] = []
    codes: list[str] = []
    for _deck in range(2):
        for s in range(4):
            for r in range(13):
                ranks.append(r + 1)
                suits.append(s)
                codes.append(RANKS[r] + SUITS[s])
        for _ in range(2):
            ranks.append(JOKER_RANK)
            suits.append(JOKER_SUIT)
            codes.append(JOKER_CODE)
    return tuple(ranks), tuple(suits), tuple(codes)


#: rank (1 = ace .. 13 = king, 0 = joker), suit (0..3, -1 = joker) and code per card id.
CARD_RANK, CARD_SUIT, CARD_CODE = _build_tables()


def card_rank(card_id: int) -> int:
    """Rank of a Jokeren card id: 1 (ace) to 13 (king), 0 for a joker."""
    return CARD_RANK[card_id]


def card_suit(card_id: int) -> int:
    """Suit of a Jokeren card id: 0 klaveren, 1 ruiten, 2 harten, 3 schoppen; -1 for a joker."""
    return CARD_SUIT[card_id]


def is_joker(card_id: int) -> bool:
    return CARD_RANK[card_id] == JOKER_RANK


def card_code(card_id: int) -> str:
    """Machine notation of a Jokeren card id, e.g. ``7h`` or ``**``."""
    return CARD_CODE[card_id]


def parse_code(code: str) -> tuple[int, int]:
    """Rank and suit of a code: ``"Td"`` -> ``(10, 1)``; ``"**"`` -> ``(0, -1)``.

    ``10`` is accepted for ``T``, and case is ignored for the rank letter.
    """
    text = code.strip()
    if text == JOKER_CODE:
        return JOKER_RANK, JOKER_SUIT
    if len(text) == 3 and text[:2] == "10":
        text = "T" + text[2]
    if len(text) != 2:
        raise CardCodeError(f"not a card: {code!r}")
    rank_ch, suit_ch = text[0].upper(), text[1].lower()
    if rank_ch not in RANKS or suit_ch not in SUITS:
        raise CardCodeError(f"not a card: {code!r}")
    return RANKS.index(rank_ch) + 1, SUITS.index(suit_ch)


def code_of(rank: int, suit: int) -> str:
    """Code of a rank and suit: ``(10, 1)`` -> ``"Td"``; ``(0, -1)`` -> ``"**"``."""
    if rank == JOKER_RANK:
        return JOKER_CODE
    return RANKS[rank - 1] + SUITS[suit]


def card_id_of(rank: int, suit: int, deck: int = 0, joker_index: int = 0) -> int:
    """The id of a card in a given deck (0 or 1); a joker is the first or second of its deck."""
    if rank == JOKER_RANK:
        return deck * CARDS_PER_DECK + 52 + joker_index
    return deck * CARDS_PER_DECK + suit * 13 + (rank - 1)


def jokeren_deck(decks: int) -> list[int]:
    """The ordered pack of ``decks`` full decks with jokers: ids ``0 .. 54*decks - 1``."""
    if decks not in (1, 2):
        raise ValueError("Jokeren uses one or two decks")
    return list(range(CARDS_PER_DECK * decks))


def hand_value(rank: int) -> int:
    """Penalty points of a card in hand (seed 000): joker 25, ace 11, K/Q/J 10, 2-10 face value."""
    if rank == JOKER_RANK:
        return 25
    if rank == 1:
        return 11
    if rank >= 10:
        return 10
    return rank


#: Penalty points per Jokeren card id.
CARD_POINTS: Final = tuple(hand_value(r) for r in CARD_RANK)

#: The kind of each Jokeren card id: the same number for cards with the same code (the
#: two copies of a card in two decks, every joker), different numbers otherwise. Rules
#: that treat copies alike (docs/rules.md §1) compare kinds: 0..51 the card of the first
#: deck (``id % 54``), 52 a joker.
CARD_KIND: Final = tuple(
    52 if r == JOKER_RANK else c % CARDS_PER_DECK for c, r in enumerate(CARD_RANK)
)


def hand_points(card_ids: list[int] | tuple[int, ...]) -> int:
    """Sum of the penalty points of the cards in a hand."""
    return sum(CARD_POINTS[c] for c in card_ids)


def dutch_name(card_id: int) -> str:
    """Dutch name of a card, e.g. ``harten 7``, ``schoppen boer``, ``joker``."""
    if is_joker(card_id):
        return "joker"
    return f"{SUIT_NAMES_NL[card_suit(card_id)]} {RANK_NAMES_NL[card_rank(card_id)]}"


def english_name(card_id: int) -> str:
    """English name of a card, e.g. ``7 of hearts``, ``jack of spades``, ``joker``."""
    if is_joker(card_id):
        return "joker"
    return f"{RANK_NAMES_EN[card_rank(card_id)]} of {SUIT_NAMES_EN[card_suit(card_id)]}"


#: The suits' symbols, in the order of ``SUITS``.
SUIT_SYMBOLS: Final = "♣♦♥♠"
#: Rank letters as printed on the cards, per language, for the ranks 1 (ace) to 13 (king):
#: Dutch B V H A (boer, vrouw, heer, aas), English J Q K A.
RANK_LETTERS: Final = {
    "nl": ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "V", "H"),
    "en": ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"),
}


def language_of(language: str | None) -> str:
    """The card language of a language code: ``"en"`` for English (``en``, ``en-gb``),
    else ``"nl"`` (Dutch is the default)."""
    return "en" if (language or "").lower().startswith("en") else "nl"


def card_label(code: str, language: str | None = "nl") -> str:
    """A card as a person reads it: the suit's symbol and the rank in the language, in
    the order the language says it: Dutch suit first ("schoppen tien": ``♠10``, ``♥B``),
    English rank first ("ten of spades": ``10♠``, ``J♥``); a joker is ``joker``.

    ``code`` is the machine notation of either game (``Ts``, ``Jh``, ``**``)."""
    rank, suit = parse_code(code)
    if rank == JOKER_RANK:
        return "joker"
    lang = language_of(language)
    letter = RANK_LETTERS[lang][rank]
    symbol = SUIT_SYMBOLS[suit]
    return symbol + letter if lang == "nl" else letter + symbol


def cards_label(codes: list[str] | tuple[str, ...], language: str | None = "nl") -> str:
    """Cards as a person reads them, separated by spaces (``card_label`` of each)."""
    return " ".join(card_label(c, language) for c in codes)


#: Display order of the suits in a hand: black and red alternating (spades, hearts,
#: clubs, diamonds), as the table shows a hand.
DISPLAY_SUIT_ORDER: Final = (3, 2, 0, 1)


def jokeren_display_order(card_ids: list[int] | tuple[int, ...]) -> list[int]:
    """A Jokeren hand in the table's order: by suit (spades, hearts, clubs, diamonds),
    within a suit from the 2 up to the ace (high), the jokers last."""

    def key(card: int) -> tuple[int, int, int, int]:
        rank, suit = CARD_RANK[card], CARD_SUIT[card]
        if rank == JOKER_RANK:
            return (1, 0, 0, card)
        return (0, DISPLAY_SUIT_ORDER.index(suit), 14 if rank == 1 else rank, card)

    return sorted(card_ids, key=key)


# --- Klaverjassen ------------------------------------------------------------------

KLAVERJAS_RANKS: Final = "789TJQKA"


def klaverjas_deck() -> list[int]:
    """The ordered Klaverjas pack: ids 0..31, per suit ``c d h s`` the ranks ``7 .. A``."""
    return list(range(32))


def klaverjas_code(card_id: int) -> str:
    """Code of a Klaverjas card id: 0 -> ``7c``, 31 -> ``As``."""
    return KLAVERJAS_RANKS[card_id % 8] + SUITS[card_id // 8]


def klaverjas_id(code: str) -> int:
    """Id of a Klaverjas card code (``10`` is accepted for ``T``)."""
    text = code.strip()
    if len(text) == 3 and text[:2] == "10":
        text = "T" + text[2]
    if len(text) != 2:
        raise CardCodeError(f"not a Klaverjas card: {code!r}")
    rank_ch, suit_ch = text[0].upper(), text[1].lower()
    if rank_ch not in KLAVERJAS_RANKS or suit_ch not in SUITS:
        raise CardCodeError(f"not a Klaverjas card: {code!r}")
    return SUITS.index(suit_ch) * 8 + KLAVERJAS_RANKS.index(rank_ch)
