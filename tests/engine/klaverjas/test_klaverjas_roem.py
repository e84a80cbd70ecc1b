"""Roem per trick (docs/rules.md §6 "Roem"; seed 003 "Puntentelling"): values from the rule text."""

from __future__ import annotations

import pytest

from engine.klaverjas import trick_roem

from .conftest import ks

C, D, H, S = range(4)


def roem(codes: str, trump: int, **kwargs: int) -> int:
    return trick_roem(ks(codes), trump, **kwargs)


def test_three_in_sequence() -> None:
    assert roem("7h 8h 9h Kc", H) == 20


def test_three_in_sequence_in_a_side_suit() -> None:
    assert roem("Jd Qd Kd 7c", H) == 20


def test_sequence_order_puts_ten_between_nine_and_jack() -> None:
    # sequence order 7 8 9 10 J Q K A, not the trick order
    assert roem("9c Tc Jc 7s", H) == 20
    assert roem("Tc Jc Qc 7s", H) == 20


def test_sequence_of_trump_uses_the_same_order() -> None:
    # as trump J and 9 are high, but sequences still go 7 8 9 10 J Q K A
    assert roem("9h Th Jh 7s", H) == 20


def test_ace_is_high_in_a_sequence() -> None:
    assert roem("Qs Ks As 7c", H) == 20


def test_no_wrap_around() -> None:
    assert roem("Ks As 7s 8c", H) == 0


def test_four_in_sequence() -> None:
    assert roem("9s Ts Js Qs", H) == 50


def test_best_sequence_only() -> None:
    # four in sequence holds two sequences of three: only the best counts
    assert roem("7d 8d 9d Td", H) == 50


def test_sequence_with_a_gap_is_no_roem() -> None:
    assert roem("7c 8c Tc Jc", H) == 0


def test_sequence_across_suits_is_no_roem() -> None:
    assert roem("7c 8d 9h 7s", H) == 0


def test_four_of_a_kind() -> None:
    assert roem("Kc Kd Kh Ks", S) == 100
    assert roem("7c 7d 7h 7s", S) == 100


def test_four_jacks_100_by_default() -> None:
    assert roem("Jc Jd Jh Js", H) == 100


def test_four_jacks_200_setting() -> None:
    assert roem("Jc Jd Jh Js", H, four_jacks=200) == 200


def test_four_queens_holding_queen_of_trump_is_no_stuk() -> None:
    assert roem("Qc Qd Qh Qs", H) == 100


def test_stuk() -> None:
    assert roem("Kh Qh 7c 9d", H) == 20


def test_king_and_queen_of_a_side_suit_are_no_stuk() -> None:
    assert roem("Ks Qs 7c 9d", H) == 0


def test_stuk_on_top_of_three_in_sequence() -> None:
    assert roem("Jh Qh Kh 7c", H) == 20 + 20


def test_stuk_on_top_of_four_in_sequence() -> None:
    assert roem("Th Jh Qh Kh", H) == 50 + 20


def test_stuk_apart_from_a_sequence_in_another_suit() -> None:
    assert roem("Kh Qh 7c 7d", H) == 20
    assert roem("Qc Kc Ac Kh", C) == 20 + 20  # Q K A of clubs (trump) with the stuk


def test_no_roem() -> None:
    assert roem("7c 9c Jd As", H) == 0


def test_partial_trick() -> None:
    assert roem("7h 8h 9h", H) == 20
    assert roem("Kh", H) == 0


def test_bad_input() -> None:
    with pytest.raises(ValueError):
        trick_roem(ks("7h 8h 9h Th Jh"), H)
    with pytest.raises(ValueError):
        trick_roem(ks("7h 7h"), H)
    with pytest.raises(ValueError):
        trick_roem([40], H)
    with pytest.raises(ValueError):
        trick_roem(ks("7h"), 4)
