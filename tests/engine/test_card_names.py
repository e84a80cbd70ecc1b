"""Cards in words for people (issue 13): the suit's symbol and the rank in the language,
Dutch B V H A (boer, vrouw, heer, aas) and English J Q K A, never the machine codes;
hands in the order the table shows them; move texts and refusals use those names."""

from __future__ import annotations

import pytest

from engine.cards import (
    CARD_CODE,
    card_label,
    cards_label,
    jokeren_display_order,
    klaverjas_code,
    klaverjas_id,
)
from engine.jokeren.actions import Discard, LayOff, SwapJoker, describe, describe_advice
from engine.klaverjas.actions import Bid, ChooseTrump, PlayCard
from engine.klaverjas.actions import describe as kj_describe
from engine.klaverjas.rules import display_order


@pytest.mark.parametrize(
    ("code", "nl", "en"),
    [
        ("Ts", "♠10", "10♠"),
        ("Jh", "♥B", "J♥"),
        ("Qc", "♣V", "Q♣"),
        ("Kd", "♦H", "K♦"),
        ("As", "♠A", "A♠"),
        ("7h", "♥7", "7♥"),
        ("10d", "♦10", "10♦"),
        ("**", "joker", "joker"),
    ],
)
def test_a_card_reads_as_suit_symbol_and_rank_in_the_language(code: str, nl: str, en: str) -> None:
    assert card_label(code, "nl") == nl
    assert card_label(code, "en") == en
    assert card_label(code, "en-gb") == en
    assert card_label(code, None) == nl  # Dutch is the default


def test_several_cards_are_separated_by_spaces() -> None:
    assert cards_label(["Jh", "Ts"], "nl") == "♥B ♠10"
    assert cards_label(["Jh", "Ts"], "en") == "J♥ 10♠"


def _jk(codes: str) -> list[int]:
    out: list[int] = []
    for code in codes.split():
        cid = next(i for i, c in enumerate(CARD_CODE) if c == code and i not in out)
        out.append(cid)
    return out


def test_a_jokeren_hand_is_ordered_as_the_table_shows_it() -> None:
    # the table (static/js/table-cards.js sortHand, "suit"): spades, hearts, clubs,
    # diamonds; within a suit 2 up to the ace (high); jokers last
    hand = _jk("** 3d Ah 2h Kc Ts 5s Qh")
    ordered = [CARD_CODE[c] for c in jokeren_display_order(hand)]
    assert ordered == ["5s", "Ts", "2h", "Qh", "Ah", "Kc", "3d", "**"]


def test_a_klaverjas_hand_puts_the_trump_first_then_alternates_colours() -> None:
    hand = [klaverjas_id(c) for c in ["7s", "Ah", "Jh", "9h", "Tc", "Ad", "Kc", "8s"]]
    # trump hearts: hearts (J 9 A), a black suit, diamonds, the other black suit
    ordered = [klaverjas_code(c) for c in display_order(hand, trump=2)]
    assert ordered == ["Jh", "9h", "Ah", "8s", "7s", "Ad", "Tc", "Kc"]
    # no trump: spades, hearts, clubs, diamonds; A 10 K Q J 9 8 7 within a suit
    ordered = [klaverjas_code(c) for c in display_order(hand, trump=None)]
    assert ordered == ["8s", "7s", "Ah", "Jh", "9h", "Tc", "Kc", "Ad"]


def test_jokeren_moves_name_the_cards_in_words() -> None:
    ten = _jk("Ts")[0]
    assert describe(Discard(ten)) == ("gooit ♠10 weg", "discarded 10♠")
    assert describe(LayOff(_jk("Jh")[0], 0)) == ("legt ♥B aan", "laid off J♥")
    assert describe(SwapJoker(_jk("Qc")[0], 1)) == (
        "wisselt ♣V voor een joker",
        "swapped Q♣ for a joker",
    )
    assert describe_advice(Discard(ten)) == ("♠10 weggegooid", "discarded 10♠")


def test_klaverjas_moves_name_the_cards_in_words_and_fit_every_seat() -> None:
    assert kj_describe(PlayCard(klaverjas_id("Jh"))) == ("speelt ♥B", "played J♥")
    # past tense in English: "You passed", "North passed" (never "You passes")
    assert kj_describe(Bid(False)) == ("past", "passed")
    assert kj_describe(Bid(True)) == ("gaat", "chose to play")
    assert kj_describe(ChooseTrump(3)) == ("kiest schoppen als troef", "chose spades as trump")
