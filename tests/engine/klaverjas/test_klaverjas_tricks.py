"""Card order, card points and the trick winner (docs/rules.md §6 "Order and points")."""

from __future__ import annotations

import dataclasses

import pytest

from engine.klaverjas import ROTTERDAMS, PlayCard, card_points
from engine.klaverjas.rules import winning_index

from .conftest import PlayState, k, ks

HEARTS = 2


@pytest.mark.parametrize("trump", range(4))
def test_card_points_total_152(trump: int) -> None:
    assert sum(card_points(c, trump) for c in range(32)) == 152


def test_trump_card_points() -> None:
    expected = {"Jh": 20, "9h": 14, "Ah": 11, "Th": 10, "Kh": 4, "Qh": 3, "8h": 0, "7h": 0}
    assert {code: card_points(k(code), HEARTS) for code in expected} == expected


def test_other_suit_card_points() -> None:
    expected = {"As": 11, "Ts": 10, "Ks": 4, "Qs": 3, "Js": 2, "9s": 0, "8s": 0, "7s": 0}
    assert {code: card_points(k(code), HEARTS) for code in expected} == expected


def test_trump_order_high_to_low() -> None:
    order = ks("Jh 9h Ah Th Kh Qh 8h 7h")
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert winning_index([low, high], HEARTS) == 1
            assert winning_index([high, low], HEARTS) == 0


def test_other_suit_order_high_to_low() -> None:
    order = ks("Ac Tc Kc Qc Jc 9c 8c 7c")
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert winning_index([low, high], HEARTS) == 1


def test_highest_of_led_suit_wins_without_trump() -> None:
    assert winning_index(ks("9c Ac As Td"), HEARTS) == 1


def test_card_of_another_suit_never_wins() -> None:
    assert winning_index(ks("7c As Ad Ks"), HEARTS) == 0


def test_lowest_trump_beats_ace_of_led_suit() -> None:
    assert winning_index(ks("Ac 7h Tc Kc"), HEARTS) == 1


def test_winner_leads_next_trick(play_state: PlayState) -> None:
    # leader West (1) plays 7c ... East wins with the ace and must lead the next trick
    state = play_state("Ac 8d", trick="7c Kc 9c", leader=1)
    after = state.apply(PlayCard(k("Ac")))
    assert after.current_player == 0 and after.leader == 0  # seat 0 played the ace
    assert after.tricks[-1].winner == 0
    assert after.tricks[-1].points == 0 + 4 + 0 + 11


def test_four_jacks_setting_counts_in_play(play_state: PlayState) -> None:
    for setting in (100, 200):
        variant = dataclasses.replace(ROTTERDAMS, four_jacks=setting)
        state = play_state("Js 7s", trick="Jc Jd Jh", leader=1, variant=variant)
        after = state.apply(PlayCard(k("Js")))
        # trump hearts: the jack of hearts wins the trick, with the four jacks' roem
        assert after.tricks[-1].roem == setting
        assert after.tricks[-1].winner == 3


def test_is_legal(play_state: PlayState) -> None:
    state = play_state("7c Kc Jh As", trick="Ac")
    assert state.is_legal(PlayCard(k("7c")))
    assert not state.is_legal(PlayCard(k("As")))
    assert not state.is_legal(PlayCard(k("8c")))
