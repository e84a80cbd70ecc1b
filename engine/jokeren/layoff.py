"""Laying a card off onto a meld on the table and swapping a joker for the card it stands
for (docs/rules.md §2-§3): the meld grows at the end the card fits (a joker laid off takes
the first free choice unless named), or gives its joker back to the player's hand.
"""

from __future__ import annotations

from engine.cards import CARD_CODE, CARD_RANK, CARD_SUIT, card_label, code_of
from engine.jokeren.meld import DoesNotFit, Meld, StandsFor, group_meld, lay_off_options, run_meld


def lay_off(meld: Meld, card: int, stands_for: StandsFor = None) -> Meld:
    """``meld`` with ``card`` added; a natural ace goes to the low end when it fits there.

    Raises ``DoesNotFit`` when the card cannot be added (or the joker cannot stand for
    the named card).
    """
    options = lay_off_options(meld, card)
    if CARD_RANK[card]:
        if stands_for is not None:
            raise DoesNotFit(
                "Alleen een joker staat voor een andere kaart.",
                "Only a joker stands for another card.",
            )
        if not options:
            raise _no_fit(card)
        x: StandsFor = None
    else:
        if not options:
            raise _no_fit(card)
        if stands_for is None:
            x = options[0]
        elif stands_for in options:
            x = stands_for
        else:
            raise DoesNotFit(
                f"De joker kan hier niet voor {card_label(code_of(*stands_for), 'nl')} staan.",
                f"The joker cannot stand for {card_label(code_of(*stands_for), 'en')} here.",
            )
    cards = meld.cards
    sfs = meld.stands_for
    # the new meld keeps what is known of the old one: a natural card, whether it holds
    # a joker, and a group's suits or a run's low end
    natural = meld.natural_card
    has_joker = x is not None or meld.has_joker
    if meld.kind == "group":
        suit = CARD_SUIT[card] if x is None else x[1]
        i = 0
        for c, y in zip(cards, sfs, strict=True):
            if (CARD_SUIT[c] if y is None else y[1]) > suit:
                break
            i += 1
        return group_meld(
            (*cards[:i], card, *cards[i:]),
            (*sfs[:i], x, *sfs[i:]),
            meld.owner,
            natural,
            has_joker,
            meld.used_suits | {suit},
        )
    low = meld.low
    rank = CARD_RANK[card] if x is None else x[0]
    if rank == low - 1:
        return run_meld((card, *cards), (x, *sfs), meld.owner, natural, has_joker, rank)
    return run_meld((*cards, card), (*sfs, x), meld.owner, natural, has_joker, low)


def _no_fit(card: int) -> DoesNotFit:
    nl, en = card_label(CARD_CODE[card], "nl"), card_label(CARD_CODE[card], "en")
    return DoesNotFit(f"{nl} past niet aan dit setje.", f"{en} cannot be laid off onto this meld.")


def joker_index_for(meld: Meld, card: int) -> int:
    """Index in ``meld.cards`` of the joker that stands for natural ``card``, or -1."""
    rank = CARD_RANK[card]
    if not rank:
        return -1
    want = (rank, CARD_SUIT[card])
    for i, x in enumerate(meld.stands_for):
        if x == want:
            return i
    return -1


def can_swap(meld: Meld, card: int) -> bool:
    """Whether natural ``card`` may replace a joker of ``meld`` (the joker stands for it)."""
    return joker_index_for(meld, card) >= 0


def swap_joker(meld: Meld, card: int) -> tuple[Meld, int]:
    """``meld`` with natural ``card`` in place of the joker that stands for it, and that
    joker's id; raises ``DoesNotFit`` when no joker of the meld stands for the card."""
    i = joker_index_for(meld, card)
    if i < 0:
        raise DoesNotFit(
            f"Geen joker in dit setje staat voor {card_label(CARD_CODE[card], 'nl')}.",
            f"No joker in this meld stands for {card_label(CARD_CODE[card], 'en')}.",
        )
    joker = meld.cards[i]
    cards = (*meld.cards[:i], card, *meld.cards[i + 1 :])
    sfs = (*meld.stands_for[:i], None, *meld.stands_for[i + 1 :])
    # the natural card stands where the joker stood: a natural card of the old meld,
    # a group's suits and a run's low end stay
    has_joker = sfs.count(None) != len(sfs)
    if meld.kind == "group":
        new = group_meld(cards, sfs, meld.owner, meld.natural_card, has_joker, meld.used_suits)
    else:
        new = run_meld(cards, sfs, meld.owner, meld.natural_card, has_joker, meld.low)
    return new, joker
