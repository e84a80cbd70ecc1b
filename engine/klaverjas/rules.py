"""Card order, card points, the trick winner and which cards may be played (docs/rules.md §6).

A Klaverjas card id is ``suit * 8 + rank`` with suits ``c d h s`` (0..3) and ranks
``7 8 9 T J Q K A`` (0..7), see ``engine.cards.klaverjas_deck``.

- Trump, high to low: J 9 A 10 K Q 8 7, worth 20 14 11 10 4 3 0 0.
- Other suits, high to low: A 10 K Q J 9 8 7, worth 11 10 4 3 2 0 0 0.
- A trick is won by the highest trump in it, or without trump by the highest card of
  the led suit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import (
    DISPLAY_SUIT_ORDER,
    SUIT_NAMES_EN,
    SUIT_NAMES_NL,
    card_label,
    klaverjas_code,
)
from engine.errors import IllegalMove
from engine.klaverjas.errors import MayNotUndertrump, MustFollowSuit, MustOvertrump, MustTrump
from engine.klaverjas.variants import Variant

#: A team's points: higher is better (for ranking and the bots' measurements).
LOWER_IS_BETTER: Final = False
#: A result is a difference of whole points: shown as a whole number ("123").
RESULT_DECIMALS: Final = 0

R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)

#: Strength of each rank (index 0..7 = 7 8 9 T J Q K A), higher wins.
TRUMP_STRENGTH: Final = (0, 1, 6, 4, 7, 2, 3, 5)
PLAIN_STRENGTH: Final = (0, 1, 2, 6, 3, 4, 5, 7)
#: Card points of each rank as trump and as another suit.
TRUMP_POINTS: Final = (0, 0, 14, 10, 20, 3, 4, 11)
PLAIN_POINTS: Final = (0, 0, 0, 10, 2, 3, 4, 11)

#: Card points in a round (152) and the whole round with the last trick (162).
CARD_POINTS_TOTAL: Final = 152


def suit_of(card: int) -> int:
    """Suit index 0..3 (c d h s) of a Klaverjas card id."""
    return card // 8


def rank_of(card: int) -> int:
    """Rank index 0..7 (7 8 9 T J Q K A) of a Klaverjas card id."""
    return card % 8


def card_points(card: int, trump: int) -> int:
    """Points of a card: trump J 20, 9 14, A 11, 10 10, K 4, Q 3; others A 11, 10 10, K 4,
    Q 3, J 2; 7 and 8 are worth nothing."""
    if card // 8 == trump:
        return TRUMP_POINTS[card % 8]
    return PLAIN_POINTS[card % 8]


def power(card: int, trump: int, led: int) -> int:
    """How strongly a card holds in a trick whose led suit is ``led``: trumps above the
    led suit above everything else (which can never win)."""
    s = card // 8
    if s == trump:
        return 16 + TRUMP_STRENGTH[card % 8]
    if s == led:
        return 8 + PLAIN_STRENGTH[card % 8]
    return PLAIN_STRENGTH[card % 8] - 8


def display_suit_order(trump: int | None) -> tuple[int, ...]:
    """The suits in the order the table shows a hand: the trump first (the proposed
    trump while bidding), then black and red alternating; without a trump spades,
    hearts, clubs, diamonds."""
    base = DISPLAY_SUIT_ORDER
    if trump is None:
        return base
    red = trump in (1, 2)
    opposite = [s for s in base if s != trump and (s in (1, 2)) != red]
    same = [s for s in base if s != trump and (s in (1, 2)) == red]
    return (trump, opposite[0], *same, *opposite[1:])


def display_order(card_ids: Sequence[int], trump: int | None) -> list[int]:
    """A Klaverjas hand in the table's order: by suit (``display_suit_order``), within a
    suit from the strongest card down (trump: J 9 A 10 H V 8 7; else A 10 H V B 9 8 7)."""
    order = display_suit_order(trump)

    def key(card: int) -> tuple[int, int]:
        strength = TRUMP_STRENGTH if card // 8 == trump else PLAIN_STRENGTH
        return (order.index(card // 8), -strength[card % 8])

    return sorted(card_ids, key=key)


def winning_index(cards: Sequence[int], trump: int) -> int:
    """Index (in play order) of the card that wins the cards played so far."""
    led = cards[0] // 8
    best = 0
    best_power = power(cards[0], trump, led)
    for i in range(1, len(cards)):
        p = power(cards[i], trump, led)
        if p > best_power:
            best, best_power = i, p
    return best


def trick_points(cards: Sequence[int], trump: int) -> int:
    return sum(card_points(c, trump) for c in cards)


def _partner_wins(trick: Sequence[int], trump: int) -> bool:
    """Whether the partner of the player to move wins the trick so far (the partner played
    two cards before: position ``len(trick) - 2``)."""
    return len(trick) >= 2 and winning_index(trick, trump) == len(trick) - 2


def legal_cards(hand: Sequence[int], trick: Sequence[int], trump: int, v: Variant) -> list[int]:
    """The cards of ``hand`` that may be played on ``trick`` (cards in play order), sorted.

    - Leading: any card.
    - Follow the led suit if you can. If trump is led, play higher than the highest trump
      in the trick if you can (unless overtrumping is not obliged).
    - Without the led suit: trump if you hold one (unless "troeven niet verplicht", or
      Amsterdams while your partner wins). If a trump lies in the trick, a trump you play
      must be higher if you can (unless overtrumping is not obliged or the partner rule
      exempts you). If you cannot overtrump: with ``must_undertrump`` you play a lower
      trump; with ``no_undertrump_while_other_suit`` you play another suit if you have one.
    """
    if not trick:
        return sorted(hand)
    led = trick[0] // 8
    follow = [c for c in hand if c // 8 == led]
    trumps_in_trick = [TRUMP_STRENGTH[c % 8] for c in trick if c // 8 == trump]
    top = max(trumps_in_trick) if trumps_in_trick else -1
    if follow:
        if led == trump and v.must_overtrump:
            higher = [c for c in follow if TRUMP_STRENGTH[c % 8] > top]
            if higher:
                return sorted(higher)
        return sorted(follow)
    trumps = [c for c in hand if c // 8 == trump]
    if not trumps:
        return sorted(hand)
    others = [c for c in hand if c // 8 != trump]
    exempt = v.partner_exemption and _partner_wins(trick, trump)
    high = [c for c in trumps if TRUMP_STRENGTH[c % 8] > top]
    allowed: list[int]
    if high:
        allowed = high if (v.must_overtrump and not exempt) else trumps
        may_discard = bool(others) and (exempt or not v.must_trump)
    else:
        undertrump_ok = v.undertrump == "must_undertrump" or not others
        allowed = trumps if undertrump_ok else []
        if not others:
            may_discard = False
        elif exempt or not v.must_trump:
            may_discard = True
        else:
            may_discard = v.undertrump == "no_undertrump_while_other_suit"
    if may_discard:
        allowed = allowed + others
    return sorted(allowed)


def play_error(
    hand: Sequence[int], trick: Sequence[int], trump: int, v: Variant, card: int
) -> IllegalMove | None:
    """Why ``card`` (held in ``hand``) may not be played, or ``None`` if it may."""
    legal = legal_cards(hand, trick, trump, v)
    if card in legal:
        return None
    nl, en = card_label(klaverjas_code(card), "nl"), card_label(klaverjas_code(card), "en")
    led = trick[0] // 8
    if any(c // 8 == led for c in hand) and card // 8 != led:
        return MustFollowSuit(
            f"Je moet {SUIT_NAMES_NL[led]} bekennen; {nl} mag niet.",
            f"You must follow suit ({SUIT_NAMES_EN[led]}); {en} is not allowed.",
        )
    if card // 8 != trump:
        return MustTrump(
            f"Je hebt geen {SUIT_NAMES_NL[led]} en moet troef ({SUIT_NAMES_NL[trump]}) spelen.",
            f"You cannot follow {SUIT_NAMES_EN[led]} and must play trump ({SUIT_NAMES_EN[trump]}).",
        )
    if any(c // 8 == trump for c in legal):
        return MustOvertrump(
            f"Er ligt troef: je moet hoger troeven dan de hoogste troef in de slag; {nl} "
            "is te laag.",
            f"A trump lies in the trick: you must play a higher trump; {en} is too low.",
        )
    return MayNotUndertrump(
        f"Ondertroeven mag niet zolang je een andere kleur hebt; {nl} mag niet.",
        f"You may not undertrump while you hold another suit; {en} is not allowed.",
    )
