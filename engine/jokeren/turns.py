"""The rules of a turn that do not need a whole round state (docs/rules.md §2-§3): the
phases, who may lay down, lay off or swap a joker and when, the opening a player must
meet to come out, that a player always keeps a card to discard, the hand helpers, and
the errors naming the rule an action breaks.
"""

from __future__ import annotations

from bisect import bisect
from collections.abc import Sequence
from typing import Literal

from engine.cards import CARD_CODE, CARD_KIND, card_label, hand_value
from engine.errors import MalformedAction
from engine.jokeren.actions import (
    CannotLayOffYet,
    CardNotInHand,
    ContractNotMet,
    Discard,
    FirstCycleNoMeld,
    LayMelds,
    LayOff,
    MustKeepDiscard,
    NoSuchMeld,
    SwapJoker,
)
from engine.jokeren.melds import Meld, Pattern
from engine.jokeren.variants import Contract, Variant

Phase = Literal["draw", "play", "over"]
EndReason = Literal["out", "stock", "turn_limit"]

#: The ``CARD_KIND`` of every joker.
JOKER_KIND = CARD_KIND[52]


def discardable(hand: Sequence[int], taken: int | None) -> bool:
    """Whether ``hand`` holds a card that may be discarded this turn."""
    if not hand:
        return False
    if taken is None:
        return True
    return has_other_kind(hand, CARD_KIND[taken])


def has_other_kind(hand: Sequence[int], kind: int) -> bool:
    """Whether ``hand`` holds a card that is no copy of a card of ``kind``."""
    for c in hand:  # noqa: SIM110 - a loop that stops early is faster than any(...)
        if CARD_KIND[c] != kind:
            return True
    return False


def take_out(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` without ``card`` (which it holds)."""
    i = hand.index(card)
    return hand[:i] + hand[i + 1 :]


def put_in(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """Sorted ``hand`` with ``card`` added in its place."""
    i = bisect(hand, card)
    return (*hand[:i], card, *hand[i:])


def set_hand(
    hands: tuple[tuple[int, ...], ...], seat: int, hand: tuple[int, ...]
) -> tuple[tuple[int, ...], ...]:
    """``hands`` with the hand of ``seat`` replaced."""
    if len(hands) == 4:
        a, b, c, d = hands
        if seat == 0:
            return (hand, b, c, d)
        if seat == 1:
            return (a, hand, c, d)
        if seat == 2:
            return (a, b, hand, d)
        return (a, b, c, hand)
    out = list(hands)
    out[seat] = hand
    return tuple(out)


def without(hand: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    if len(cards) == 1:
        return take_out(hand, cards[0])
    drop = set(cards)
    return tuple([c for c in hand if c not in drop])


def meets_requirements(contract: Contract, melds: Sequence[Meld]) -> bool:
    """Whether distinct melds cover each required run (minimum length) and group (size)."""
    reqs = [("run", n) for n in contract.runs] + [("group", n) for n in contract.groups]
    if not reqs:
        return True
    used = [False] * len(melds)

    def match(k: int) -> bool:
        if k == len(reqs):
            return True
        kind, n = reqs[k]
        for i, m in enumerate(melds):
            if not used[i] and m.kind == kind and len(m.cards) >= n:
                used[i] = True
                if match(k + 1):
                    return True
                used[i] = False
        return False

    return match(0)


def pattern_points(pattern: Pattern) -> int:
    return sum(hand_value(0 if joker else r) for r, _, joker in pattern[1])


def fits_requirement(contract: Contract, pattern: Pattern) -> bool:
    kind, slots = pattern
    n = len(slots)
    if kind == "run":
        return any(n >= k for k in contract.runs)
    return any(n >= k for k in contract.groups)


def melding_rights(
    v: Variant,
    seat: int,
    player: int | None,
    phase: Phase,
    turn: int,
    out: tuple[bool, ...],
    came_out: bool,
) -> tuple[bool, bool, bool]:
    """``(first_cycle, may_meld, may_lay_off)`` for ``seat``: in the first round of turns
    nobody melds where the variant says so (``first_cycle_no_meld``); otherwise the player
    to move may lay melds after the draw, and lay off too where the variant allows it
    before coming out, or once out (not in the turn it came out, unless
    ``lay_off_same_turn``): docs/rules.md §2-§3. One rule for the observation and the seat's
    narrow view."""
    first_cycle = v.first_cycle_no_meld and turn < v.num_players
    if player == seat and phase == "play" and not first_cycle:
        return (
            first_cycle,
            True,
            v.lay_off_before_out or (out[seat] and (v.lay_off_same_turn or not came_out)),
        )
    return first_cycle, False, False


#: The actions of the play phase (after the draw).
PLAY_ACTIONS = frozenset({Discard, LayOff, LayMelds, SwapJoker})


def not_an_action(action: object) -> MalformedAction:
    """``apply`` takes the engine's action objects only (``action_from_json`` reads JSON)."""
    kind = type(action).__name__
    return MalformedAction(
        f"Geen Jokeren-zet: {kind} (lees JSON met action_from_json).",
        f"Not a Jokeren action: {kind} (read JSON with action_from_json).",
    )


def not_in_hand(card: int) -> CardNotInHand:
    if not 0 <= card < len(CARD_CODE):
        return CardNotInHand(f"{card} zit niet in je hand.", f"{card} is not in your hand.")
    nl, en = card_label(CARD_CODE[card], "nl"), card_label(CARD_CODE[card], "en")
    return CardNotInHand(f"{nl} zit niet in je hand.", f"{en} is not in your hand.")


def must_keep_discard() -> MustKeepDiscard:
    return MustKeepDiscard(
        "Je moet een kaart overhouden die je mag weggooien.",
        "You must keep a card that you may discard.",
    )


def no_meld(index: int) -> NoSuchMeld:
    return NoSuchMeld(f"Er ligt geen setje {index} op tafel.", f"There is no meld {index}.")


def first_cycle_error() -> FirstCycleNoMeld:
    return FirstCycleNoMeld(
        "In de eerste rondgang mag nog niemand neerleggen, aanleggen of een joker wisselen.",
        "In the first cycle nobody lays down, lays off or swaps a joker.",
    )


# --- the deal ------------------------------------------------------------------------------


def check_lay_off_allowed(v: Variant, turn: int, *, is_out: bool, came_out: bool) -> None:
    """Raise unless a player may lay off or swap a joker now (docs/rules.md §3): not in
    the first cycle where the variant says so, and once out (not in the turn of coming out
    unless ``lay_off_same_turn``), unless the variant allows it before coming out."""
    if v.first_cycle_no_meld and turn < v.num_players:
        raise first_cycle_error()
    if v.lay_off_before_out:
        return
    if not is_out:
        raise CannotLayOffYet(
            "Aanleggen en jokers wisselen mag pas als je zelf op tafel bent gekomen.",
            "You may lay off or swap a joker only after you have come out.",
        )
    if came_out and not v.lay_off_same_turn:
        raise CannotLayOffYet(
            "Aanleggen en jokers wisselen mag pas vanaf de beurt nadat je op tafel kwam.",
            "You may lay off or swap a joker only from the turn after you came out.",
        )


def check_opening(v: Variant, round_index: int, melds: Sequence[Meld], left: int) -> None:
    """Raise ``ContractNotMet`` unless the melds of one action, leaving ``left`` cards in
    hand, meet the variant's opening (docs/rules.md §3: the opening points, or the round's
    contract: its runs and groups, its points, all cards but one)."""
    if v.opening == "none":
        return
    if v.opening == "points":
        total = sum(m.points for m in melds)
        if total < v.opening_points:
            raise ContractNotMet(
                f"Om op tafel te komen leg je in één beurt setjes van samen minstens "
                f"{v.opening_points} punten (nu {total}).",
                f"To come out, lay melds worth at least {v.opening_points} points in "
                f"one go (these are worth {total}).",
            )
        return
    contract = v.contract_for(round_index)
    assert contract is not None
    ok = meets_requirements(contract, melds)
    if contract.points and sum(m.points for m in melds) < contract.points:
        ok = False
    if contract.all_out and left != 1:
        ok = False
    if not ok:
        raise ContractNotMet(
            f"Om op tafel te komen moet je in één beurt neerleggen: {contract.description_nl}.",
            f"To come out you must lay, in one action: {contract.description_en}.",
        )
