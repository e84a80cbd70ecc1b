"""Melds (docs/rules.md §2, seed 000): groups, runs, jokers, laying off, swapping."""

from __future__ import annotations

import pytest
from jokeren_helpers import ids

from engine.cards import CARD_CODE, parse_code
from engine.jokeren import InvalidMeld, check_meld, is_meld, meld_verdict, melds_in
from engine.jokeren.melds import (
    DoesNotFit,
    analyse,
    can_lay_off,
    can_swap,
    lay_off,
    lay_off_options,
    swap_joker,
)


def sf(code: str) -> tuple[int, int]:
    return parse_code(code)


def names(meld_stands_for: tuple[tuple[int, int] | None, ...]) -> list[str | None]:
    from engine.cards import code_of

    return [None if x is None else code_of(*x) for x in meld_stands_for]


# --- the six examples of seed 000 ---------------------------------------------------


def test_seed_example_harten_klaver_schoppen_7_is_allowed() -> None:
    assert is_meld(["7h", "7c", "7s"])


def test_seed_example_harten_klaver_klaver_7_is_not_allowed() -> None:
    ok, nl, en = meld_verdict(["7h", "7c", "7c"])
    assert not ok
    assert "kleur" in nl and "suits" in en


def test_seed_example_harten_klaver_7_and_joker_is_allowed() -> None:
    assert is_meld(["7h", "7c", "**"])


def test_seed_example_schoppen_2_3_4_is_allowed() -> None:
    assert is_meld(["2s", "3s", "4s"])


def test_seed_example_schoppen_2_3_ruiten_4_is_not_allowed() -> None:
    ok, nl, en = meld_verdict(["2s", "3s", "4d"])
    assert not ok
    assert nl and en


def test_seed_example_schoppen_2_3_and_joker_is_allowed() -> None:
    assert is_meld(["2s", "3s", "**"])


# --- groups ------------------------------------------------------------------------


def test_group_of_four_different_suits() -> None:
    assert is_meld(["9c", "9d", "9h", "9s"])


def test_group_holds_at_most_four_cards() -> None:
    ok, _, en = meld_verdict(["9c", "9d", "9h", "9s", "**"])
    assert not ok and "at most 4" in en


def test_group_needs_the_same_rank() -> None:
    assert not is_meld(["9c", "8d", "9h"])


def test_meld_needs_at_least_three_cards() -> None:
    ok, _, en = meld_verdict(["7h", "7c"])
    assert not ok and "at least 3" in en


def test_meld_needs_a_natural_card() -> None:
    ok, _, en = meld_verdict(["**", "**", "**"])
    assert not ok and "natural" in en


def test_joker_in_group_takes_first_free_suit() -> None:
    meld = check_meld(ids("7h 7c **"))
    assert meld.kind == "group"
    # suits in the order c d h s: klaver and harten are there, so ruiten is the first free
    assert names(meld.stands_for) == [None, "7d", None]


def test_joker_in_group_named_by_the_player() -> None:
    cards = ids("7h 7c **")
    meld = check_meld(cards, (None, None, sf("7s")))
    assert "7s" in names(meld.stands_for)


def test_joker_in_group_cannot_stand_for_a_suit_already_there() -> None:
    with pytest.raises(InvalidMeld):
        check_meld(ids("7h 7c **"), (None, None, sf("7h")))


def test_joker_in_group_cannot_stand_for_another_rank() -> None:
    with pytest.raises(InvalidMeld):
        check_meld(ids("7h 7c **"), (None, None, sf("8d")))


def test_one_natural_card_with_jokers_is_a_group_unless_named_as_run() -> None:
    cards = ids("7h ** **")
    assert check_meld(cards).kind == "group"
    run = check_meld(cards, (None, sf("8h"), sf("9h")))
    assert run.kind == "run"
    assert next(CARD_CODE[c] for c in run.cards) == "7h"


# --- runs --------------------------------------------------------------------------


def test_run_of_three_or_more_in_one_suit() -> None:
    assert is_meld(["5d", "6d", "7d", "8d", "9d"])


def test_run_cards_may_come_in_any_order_and_lie_low_to_high() -> None:
    meld = check_meld(ids("9d 7d 8d"))
    assert meld.codes() == ["7d", "8d", "9d"]


def test_run_ace_low() -> None:
    meld = check_meld(ids("As 2s 3s"))
    assert meld.codes() == ["As", "2s", "3s"]
    assert meld.low == 1


def test_run_ace_high() -> None:
    meld = check_meld(ids("Qs Ks As"))
    assert meld.codes() == ["Qs", "Ks", "As"]
    assert meld.high == 14


def test_run_never_wraps_king_ace_two() -> None:
    ok, _, en = meld_verdict(["Ks", "As", "2s"])
    assert not ok and "wrapping" in en


def test_run_ace_is_never_low_and_high_in_the_same_run() -> None:
    # A 2 .. K A would need the ace both low and high: 14 cards, more than a run holds
    codes = ["As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks", "As"]
    assert not is_meld(codes)


def test_run_of_thirteen_is_the_longest() -> None:
    thirteen = ["As", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "Ts", "Js", "Qs", "Ks"]
    assert is_meld(thirteen)
    assert is_meld([*thirteen[1:], "As"])  # 2 .. K A
    ok, _, en = meld_verdict([*thirteen, "**"])
    assert not ok and "at most 13" in en


def test_run_with_gap_is_not_a_run() -> None:
    assert not is_meld(["4h", "5h", "7h"])


def test_run_cannot_hold_the_same_card_twice() -> None:
    assert not is_meld(["4h", "4h", "5h"])


def test_joker_fills_the_gap_of_a_run() -> None:
    meld = check_meld(ids("4s ** 6s"))
    assert names(meld.stands_for) == [None, "5s", None]


def test_joker_at_the_open_end_of_a_run_goes_high_first() -> None:
    meld = check_meld(ids("2s 3s **"))
    assert meld.codes() == ["2s", "3s", "**"]
    assert names(meld.stands_for) == [None, None, "4s"]


def test_joker_at_the_open_end_named_low_by_the_player() -> None:
    meld = check_meld(ids("2s 3s **"), (None, None, sf("As")))
    assert meld.codes() == ["**", "2s", "3s"]
    assert meld.low == 1


def test_joker_after_the_king_stands_for_the_high_ace() -> None:
    meld = check_meld(ids("Qd Kd **"))
    assert names(meld.stands_for) == [None, None, "Ad"]
    assert meld.high == 14


def test_joker_in_run_must_stand_for_the_runs_suit() -> None:
    with pytest.raises(InvalidMeld):
        check_meld(ids("2s 3s **"), (None, None, sf("4h")))


def test_joker_named_off_the_run_is_refused() -> None:
    with pytest.raises(InvalidMeld):
        check_meld(ids("2s 3s **"), (None, None, sf("6s")))


def test_natural_card_cannot_be_named() -> None:
    with pytest.raises(InvalidMeld):
        check_meld(ids("2s 3s 4s"), (sf("2s"), None, None))


def test_complete_group_and_run_have_no_joker() -> None:
    assert check_meld(ids("9c 9d 9h 9s")).is_complete
    assert not check_meld(ids("9c 9d 9h **")).is_complete
    run = ids("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")
    assert check_meld(run).is_complete
    assert not check_meld(ids("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs **")).is_complete


# --- laying off and swapping ----------------------------------------------------------


def test_lay_off_natural_card_onto_group() -> None:
    cards = ids("7h 7c 7s 7d")
    meld = check_meld(cards[:3])
    assert can_lay_off(meld, cards[3])
    assert lay_off(meld, cards[3]).codes() == ["7c", "7d", "7h", "7s"]


def test_lay_off_refuses_a_suit_already_in_the_group() -> None:
    cards = ids("7h 7c 7s 7h")
    meld = check_meld(cards[:3])
    assert not can_lay_off(meld, cards[3])
    with pytest.raises(DoesNotFit):
        lay_off(meld, cards[3])


def test_lay_off_onto_either_end_of_a_run() -> None:
    cards = ids("5h 6h 7h 4h 8h 9c")
    meld = check_meld(cards[:3])
    assert lay_off(meld, cards[3]).codes() == ["4h", "5h", "6h", "7h"]
    assert lay_off(meld, cards[4]).codes() == ["5h", "6h", "7h", "8h"]
    assert not can_lay_off(meld, cards[5])


def test_lay_off_ace_after_the_king() -> None:
    cards = ids("Jh Qh Kh Ah")
    meld = check_meld(cards[:3])
    assert lay_off(meld, cards[3]).codes() == ["Jh", "Qh", "Kh", "Ah"]


def test_lay_off_joker_onto_run_offers_both_ends_high_first() -> None:
    cards = ids("5h 6h 7h **")
    meld = check_meld(cards[:3])
    assert names(tuple(lay_off_options(meld, cards[3]))) == ["8h", "4h"]
    assert lay_off(meld, cards[3], sf("4h")).codes() == ["**", "5h", "6h", "7h"]


def test_lay_off_onto_a_run_of_thirteen_is_impossible() -> None:
    cards = ids("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks ** As")
    meld = check_meld(cards[:13])
    assert not can_lay_off(meld, cards[13])


def test_swap_joker_for_the_card_it_stands_for() -> None:
    cards = ids("4s ** 6s 5s 5h")
    meld = check_meld(cards[:3])
    assert can_swap(meld, cards[3])
    assert not can_swap(meld, cards[4])
    new, joker = swap_joker(meld, cards[3])
    assert joker == cards[1]
    assert new.codes() == ["4s", "5s", "6s"]
    assert not new.has_joker
    with pytest.raises(DoesNotFit):
        swap_joker(meld, cards[4])


def test_melds_in_hand_finds_groups_and_runs_with_jokers() -> None:
    hand = ids("7h 7c 7s 8h 9h Kd **")
    found = {(m.kind, tuple(m.codes())) for m in melds_in(hand)}
    assert ("group", ("7c", "7h", "7s")) in found
    assert ("run", ("7h", "8h", "9h")) in found
    assert ("group", ("7c", "**", "7h", "7s")) in found  # the joker is ruiten 7
    assert ("run", ("7h", "8h", "9h", "**")) in found  # the joker is harten 10
    # Kd with the only joker is two cards: no meld holds the Kd
    assert not any("Kd" in codes for _, codes in found)
    # every meld found is a valid meld
    for m in melds_in(hand):
        check_meld(m.cards, m.stands_for)


def test_analyse_gives_the_meld_or_none() -> None:
    meld = analyse(ids("9d 7d 8d"))
    assert meld is not None and meld.kind == "run" and meld.codes() == ["7d", "8d", "9d"]
    assert analyse(ids("9d 7d 8h")) is None


def test_the_same_physical_card_twice_is_no_meld() -> None:
    seven = ids("7h")[0]
    with pytest.raises(InvalidMeld):
        check_meld([seven, seven, ids("7c")[0]])
    with pytest.raises(InvalidMeld):
        check_meld([seven, 999, ids("7c")[0]])


def test_full_run_keeps_an_ace_laid_at_the_high_end_through_json() -> None:
    """docs/rules.md §2: the ace is low or high. In a run of 13 holding 2 and K, a joker that
    stands for the ace may lie at the high end (2..K A); the table keeps that end."""
    from engine.cards import card_id_of
    from engine.jokeren.melds import Meld, meld_from_json

    spades = [card_id_of(r, 3) for r in range(2, 13)]  # 2s .. Qs
    jokers = (card_id_of(0, -1, 0, 0), card_id_of(0, -1, 0, 1))
    meld = Meld("run", (*spades, *jokers), (None,) * 11 + ((13, 3), (1, 3)), 1)
    assert meld_from_json(meld.to_json()) == meld
