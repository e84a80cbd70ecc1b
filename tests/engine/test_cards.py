"""Cards and notation (docs/rules.md §1) and hand values (seed 000, "Puntentelling")."""

from __future__ import annotations

import pytest

from engine.cards import (
    CARD_POINTS,
    CardCodeError,
    card_code,
    card_id_of,
    card_rank,
    card_suit,
    dutch_name,
    english_name,
    hand_points,
    hand_value,
    is_joker,
    jokeren_deck,
    klaverjas_code,
    klaverjas_deck,
    klaverjas_id,
    parse_code,
)


def test_deck_order_is_suits_c_d_h_s_ranks_ace_to_king_then_two_jokers() -> None:
    codes = [card_code(c) for c in jokeren_deck(1)]
    assert codes[:13] == [
        "Ac",
        "2c",
        "3c",
        "4c",
        "5c",
        "6c",
        "7c",
        "8c",
        "9c",
        "Tc",
        "Jc",
        "Qc",
        "Kc",
    ]
    assert codes[13] == "Ad" and codes[26] == "Ah" and codes[39] == "As"
    assert codes[51] == "Ks"
    assert codes[52:] == ["**", "**"]
    assert len(codes) == 54


def test_two_decks_have_108_cards_with_stable_ids() -> None:
    deck = jokeren_deck(2)
    assert deck == list(range(108))
    assert card_code(54) == "Ac"
    assert card_code(54 + 26 + 6) == "7h"
    assert card_id_of(7, 2, deck=1) == 54 + 26 + 6
    assert [card_code(c) for c in (52, 53, 106, 107)] == ["**"] * 4


def test_jokeren_uses_one_or_two_decks() -> None:
    with pytest.raises(ValueError):
        jokeren_deck(3)


@pytest.mark.parametrize(
    ("code", "rank", "suit"),
    [("7h", 7, 2), ("Td", 10, 1), ("10d", 10, 1), ("As", 1, 3), ("Kc", 13, 0), ("**", 0, -1)],
)
def test_parse_code_gives_rank_and_suit(code: str, rank: int, suit: int) -> None:
    assert parse_code(code) == (rank, suit)


@pytest.mark.parametrize("code", ["1h", "7x", "", "*", "77h", "Zs"])
def test_unknown_codes_are_refused(code: str) -> None:
    with pytest.raises(CardCodeError):
        parse_code(code)


def test_card_rank_suit_and_joker() -> None:
    seven_h = card_id_of(7, 2)
    assert card_rank(seven_h) == 7 and card_suit(seven_h) == 2
    assert is_joker(52) and is_joker(107)
    assert not is_joker(seven_h)


@pytest.mark.parametrize(
    ("code", "dutch", "english"),
    [
        ("7h", "harten 7", "7 of hearts"),
        ("Jd", "ruiten boer", "jack of diamonds"),
        ("Qs", "schoppen vrouw", "queen of spades"),
        ("Kc", "klaveren heer", "king of clubs"),
        ("Ah", "harten aas", "ace of hearts"),
        ("Tc", "klaveren 10", "10 of clubs"),
    ],
)
def test_dutch_and_english_names(code: str, dutch: str, english: str) -> None:
    rank, suit = parse_code(code)
    cid = card_id_of(rank, suit)
    assert dutch_name(cid) == dutch
    assert english_name(cid) == english


def test_joker_is_called_joker() -> None:
    assert dutch_name(52) == "joker"
    assert english_name(53) == "joker"


def test_hand_values_from_seed_000() -> None:
    # Joker 25, aas 11, heer/vrouw/boer 10, 2 t/m 10 de aangegeven punten.
    assert hand_value(0) == 25
    assert hand_value(1) == 11
    assert hand_value(13) == hand_value(12) == hand_value(11) == 10
    for face in range(2, 11):
        assert hand_value(face) == face


def test_points_per_card_id_and_hand_points() -> None:
    assert CARD_POINTS[52] == 25
    assert CARD_POINTS[card_id_of(1, 3)] == 11
    hand = [card_id_of(7, 2), card_id_of(12, 0), 106, card_id_of(1, 1, deck=1)]
    assert hand_points(hand) == 7 + 10 + 25 + 11


def test_klaverjas_cards_are_seven_to_ace_per_suit() -> None:
    assert klaverjas_deck() == list(range(32))
    assert klaverjas_code(0) == "7c"
    assert klaverjas_code(31) == "As"
    assert klaverjas_id("10h") == klaverjas_id("Th") == 16 + 3
