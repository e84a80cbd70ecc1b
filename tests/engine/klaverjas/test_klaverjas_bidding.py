"""Bidding (docs/rules.md §6 "Bidding"; seed 003 "Biedronde") and the phases of a round."""

from __future__ import annotations

import dataclasses

import pytest

from engine.errors import MalformedAction, NotYourTurn, RoundOver
from engine.klaverjas import (
    ROTTERDAMS,
    Bid,
    ChooseTrump,
    InvalidBid,
    KlaverjasState,
    PlayCard,
    Variant,
    WrongPhase,
    new_round,
)
from engine.klaverjas.state import deal

SECRET = b"k" * 32
TWO_ROUNDS = dataclasses.replace(ROTTERDAMS, bidding="two_rounds")
NO_PASSING = dataclasses.replace(ROTTERDAMS, bidding="no_passing")


def start(variant: Variant = ROTTERDAMS, round_index: int = 1) -> KlaverjasState:
    return new_round(variant, secret=SECRET, round_index=round_index)


def all_pass(state: KlaverjasState) -> KlaverjasState:
    for _ in range(4):
        state = state.apply(Bid(False))
    return state


def test_first_bidder_is_left_of_the_dealer() -> None:
    state = start(round_index=1)
    assert state.dealer == 1 and state.current_player == 2
    assert state.phase == "bidding"
    assert state.legal_actions() == [Bid(False), Bid(True)]


def test_first_who_plays_makes_the_playing_team() -> None:
    state = start(round_index=1).apply(Bid(False)).apply(Bid(True))  # seat 2 passes, 3 plays
    assert state.phase == "play"
    assert state.playing_seat == 3 and state.playing_team == 1
    assert state.trump == state.proposed_trump
    # platform: the player left of the dealer leads the first trick
    assert state.current_player == 2 and state.leader == 2


def test_everyone_passes_first_player_chooses() -> None:
    state = all_pass(start(round_index=1))
    assert state.phase == "choose_trump" and state.current_player == 2
    assert state.legal_actions() == [ChooseTrump(s) for s in range(4)]
    with pytest.raises(WrongPhase):
        state.apply(Bid(False))
    chosen = state.apply(ChooseTrump(3))
    assert chosen.phase == "play" and chosen.trump == 3 and chosen.playing_seat == 2


def test_two_rounds_second_round_names_another_suit() -> None:
    state = all_pass(start(TWO_ROUNDS))
    assert state.phase == "bidding2" and state.current_player == state.first_player
    others = [s for s in range(4) if s != state.proposed_trump]
    assert state.legal_actions() == [Bid(False)] + [Bid(True, s) for s in others]
    with pytest.raises(InvalidBid):
        state.apply(Bid(True, state.proposed_trump))
    with pytest.raises(InvalidBid):
        state.apply(Bid(True))
    played = state.apply(Bid(False)).apply(Bid(True, others[0]))
    assert played.phase == "play" and played.trump == others[0]
    assert played.playing_seat == (state.first_player + 1) % 4


def test_first_round_bid_names_no_other_suit() -> None:
    state = start(TWO_ROUNDS)
    other = (state.proposed_trump + 1) % 4
    with pytest.raises(InvalidBid):
        state.apply(Bid(True, other))


def test_redeal_after_two_passing_rounds() -> None:
    state = all_pass(all_pass(start(TWO_ROUNDS, round_index=1)))
    hands, proposed = deal(state.round_seed, 1, 1)
    assert state.phase == "bidding" and state.deal_number == 1
    assert state.hands == hands and state.proposed_trump == proposed
    assert state.bids == () and state.current_player == 2 and state.dealer == 1
    assert state.move_count == 8


def test_after_the_last_redeal_the_first_player_chooses() -> None:
    variant = dataclasses.replace(TWO_ROUNDS, max_redeals=1)
    state = all_pass(all_pass(start(variant)))
    assert state.deal_number == 1
    state = all_pass(all_pass(state))
    assert state.phase == "choose_trump" and state.deal_number == 1


def test_no_passing_first_player_chooses_at_once() -> None:
    state = start(NO_PASSING, round_index=3)
    assert state.phase == "choose_trump" and state.current_player == 0
    with pytest.raises(WrongPhase):
        state.apply(Bid(True))
    assert state.apply(ChooseTrump(0)).playing_seat == 0


def test_no_card_during_bidding_and_no_bid_during_play() -> None:
    state = start()
    with pytest.raises(WrongPhase):
        state.apply(PlayCard(state.hands[state.current_player or 0][0]))
    playing = state.apply(Bid(True))
    with pytest.raises(WrongPhase):
        playing.apply(Bid(False))
    with pytest.raises(WrongPhase):
        playing.apply(ChooseTrump(0))


def test_not_your_turn() -> None:
    state = start(round_index=1)
    with pytest.raises(NotYourTurn) as info:
        state.apply(Bid(True), seat=0)
    assert info.value.to_json()["code"] == "not_your_turn"
    assert state.apply(Bid(True), seat=2).playing_seat == 2


def test_round_over_after_eight_tricks() -> None:
    state = start().apply(Bid(True))
    tricks_seen = 0
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[0])
        tricks_seen = len(state.tricks)
    assert tricks_seen == 8 and state.current_player is None
    assert state.legal_actions() == []
    with pytest.raises(RoundOver):
        state.apply(PlayCard(0))


def test_suit_out_of_range_is_malformed() -> None:
    with pytest.raises(MalformedAction):
        all_pass(start()).apply(ChooseTrump(7))
    with pytest.raises(MalformedAction):
        all_pass(start(TWO_ROUNDS)).apply(Bid(True, -1))
