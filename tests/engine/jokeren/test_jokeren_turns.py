"""A Jokeren turn (docs/rules.md §2, seed 000): draw, lay down / lay off / swap, discard; the
end of the round, the reshuffle and the turn limit."""

from __future__ import annotations

from dataclasses import replace

import pytest
from jokeren_helpers import card, lay, make_state

from engine.cards import CARD_CODE
from engine.dealing import Stream
from engine.errors import IllegalMove, NotYourTurn, RoundOver
from engine.jokeren import (
    PRESETS,
    AlreadyDrew,
    CannotDiscardTakenCard,
    CannotLayOffYet,
    CardNotInHand,
    Discard,
    DoesNotFit,
    Draw,
    InvalidMeld,
    LayMelds,
    LayOff,
    MustDrawFirst,
    MustKeepDiscard,
    NoSuchMeld,
    SwapJoker,
    new_round,
)

J7 = PRESETS["jokeren7"]
J13 = PRESETS["jokeren13"]


def codes(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [CARD_CODE[c] for c in cards]


# --- drawing -------------------------------------------------------------------------


def test_turn_starts_with_drawing_a_card() -> None:
    s = make_state(J13, hands=["2c 5d 9h", "3c", "4c", "5c"], phase="draw", open_pile="Kd")
    with pytest.raises(MustDrawFirst):
        s.apply(Discard(card(s, "2c")))
    assert s.legal_actions() == [Draw("stock"), Draw("open")]


def test_draw_from_the_closed_stock_takes_its_top_card() -> None:
    s = make_state(J13, hands=["2c 5d", "3c", "4c", "5c"], phase="draw", stock="Kh Qh")
    after = s.apply(Draw("stock"))
    assert "Kh" in codes(after.hands[0])
    assert CARD_CODE[after.stock[0]] == "Qh"
    assert after.phase == "play" and after.taken_from_open is None
    assert after.open_pile == s.open_pile


def test_draw_from_the_open_pile_takes_its_top_card() -> None:
    s = make_state(J13, hands=["2c 5d", "3c", "4c", "5c"], phase="draw", open_pile="2d 9s")
    after = s.apply(Draw("open"))
    assert "9s" in codes(after.hands[0])
    assert codes(after.open_pile) == ["2d"]
    assert after.stock == s.stock
    assert CARD_CODE[after.taken_from_open or 0] == "9s"


def test_only_one_draw_per_turn() -> None:
    s = make_state(J13, hands=["2c 5d", "3c", "4c", "5c"], phase="draw").apply(Draw("stock"))
    with pytest.raises(AlreadyDrew):
        s.apply(Draw("stock"))


def test_only_the_seat_to_move_may_act() -> None:
    s = make_state(J13, hands=["2c 5d", "3c", "4c", "5c"], phase="draw", current=1)
    with pytest.raises(NotYourTurn):
        s.apply(Draw("stock"), seat=0)
    assert s.apply(Draw("stock"), seat=1).current_player == 1


def test_discard_ends_the_turn_and_play_goes_clockwise() -> None:
    s = make_state(J13, hands=["3c", "4c", "5c", "2c 5d 9h"], current=3)
    after = s.apply(Discard(card(s, "9h")))
    assert after.current_player == 0
    assert after.phase == "draw"
    assert CARD_CODE[after.open_pile[-1]] == "9h"
    assert after.turn == s.turn + 1


# --- the open card and the discard ------------------------------------------------------


def test_cannot_discard_the_card_taken_from_the_open_pile() -> None:
    s = make_state(J13, hands=["2c 5d", "3c", "4c", "5c"], phase="draw", open_pile="9s")
    s = s.apply(Draw("open"))
    nine = card(s, "9s")
    with pytest.raises(CannotDiscardTakenCard) as info:
        s.apply(Discard(nine))
    assert info.value.nl and info.value.en
    assert Discard(nine) not in s.legal_actions()
    assert Discard(card(s, "2c")) in s.legal_actions()


def test_cannot_discard_a_copy_of_the_card_taken_from_the_open_pile() -> None:
    # two decks: the hand's 9s and the open 9s are interchangeable copies
    s = make_state(J13, hands=["2c 9s", "3c", "4c", "5c"], phase="draw", open_pile="9s")
    s = s.apply(Draw("open"))
    nines = [c for c in s.hands[0] if CARD_CODE[c] == "9s"]
    assert len(nines) == 2
    for nine in nines:
        with pytest.raises(CannotDiscardTakenCard):
            s.apply(Discard(nine))


def test_cannot_take_the_open_card_when_nothing_else_could_be_discarded() -> None:
    s = make_state(J13, hands=["9s", "3c", "4c", "5c"], phase="draw", open_pile="9s")
    assert s.legal_actions() == [Draw("stock")]
    with pytest.raises(CannotDiscardTakenCard):
        s.apply(Draw("open"))


def test_must_keep_a_card_to_discard() -> None:
    s = make_state(J13, hands=["5h 6h 7h", "3c", "4c", "5c"], out=(True, False, False, False))
    with pytest.raises(MustKeepDiscard):
        s.apply(lay(s, "5h 6h 7h"))
    assert not any(isinstance(a, LayMelds) for a in s.legal_actions())


def test_must_keep_a_card_other_than_the_one_taken_from_the_open_pile() -> None:
    s = make_state(
        J13,
        hands=["5h 6h 7h 9s", "3c", "4c", "5c"],
        out=(True, False, False, False),
        taken_from_open="9s",
    )
    with pytest.raises(MustKeepDiscard):
        s.apply(lay(s, "5h 6h 7h"))


def test_lay_off_must_keep_a_card_to_discard() -> None:
    s = make_state(J13, hands=["8h", "3c", "4c", "5c"], table=[("5h 6h 7h", 1)], out=(True,) * 4)
    with pytest.raises(MustKeepDiscard):
        s.apply(LayOff(card(s, "8h"), 0))


# --- laying down -----------------------------------------------------------------------


def test_laying_a_meld_puts_it_on_the_table_and_the_player_comes_out() -> None:
    s = make_state(J13, hands=["5h 6h 7h 2c", "3c", "4c", "5c"])
    after = s.apply(lay(s, "7h 5h 6h"))
    assert len(after.table) == 1
    assert after.table[0].codes() == ["5h", "6h", "7h"]
    assert after.table[0].owner == 0
    assert after.out[0] and after.came_out_this_turn
    assert codes(after.hands[0]) == ["2c"]


def test_laying_an_invalid_meld_is_refused() -> None:
    s = make_state(J13, hands=["5h 6h 7d 2c", "3c", "4c", "5c"])
    with pytest.raises(InvalidMeld):
        s.apply(lay(s, "5h 6h 7d"))


def test_card_not_in_hand_is_refused() -> None:
    s = make_state(J13, hands=["5h 6h 2c", "7h", "4c", "5c"])
    seven = card(s, "7h", seat=1)
    with pytest.raises(CardNotInHand):
        s.apply(LayMelds(((tuple([*s.hands[0][:2], seven]), (None, None, None)),)))
    with pytest.raises(CardNotInHand):
        s.apply(Discard(seven))


def test_several_melds_in_one_action() -> None:
    s = make_state(J13, hands=["5h 6h 7h 9c 9d 9s 2c", "3c", "4c", "5c"])
    after = s.apply(lay(s, "5h 6h 7h", "9c 9d 9s"))
    assert [m.kind for m in after.table] == ["run", "group"]


# --- laying off and swapping jokers ---------------------------------------------------


def test_jokeren7_lays_off_before_coming_out() -> None:
    s = make_state(J7, hands=["8h 2c", "3c", "4c", "5c"], table=[("5h 6h 7h", 1)])
    after = s.apply(LayOff(card(s, "8h"), 0))
    assert after.table[0].codes() == ["5h", "6h", "7h", "8h"]
    assert after.table[0].owner == 1  # laid off onto another player's meld
    assert not after.out[0]  # laying off is not coming out


def test_jokeren7_swaps_a_joker_before_coming_out() -> None:
    s = make_state(J7, hands=["6h 2c", "3c", "4c", "5c"], table=[("5h ** 7h", 1)])
    after = s.apply(SwapJoker(card(s, "6h"), 0))
    assert after.table[0].codes() == ["5h", "6h", "7h"]
    assert "**" in codes(after.hands[0])


def test_jokeren7_lays_off_in_the_turn_of_coming_out() -> None:
    s = make_state(J7, hands=["9c 9d 9s 8h 2c", "3c", "4c", "5c"], table=[("5h 6h 7h", 1)])
    s = s.apply(lay(s, "9c 9d 9s"))
    after = s.apply(LayOff(card(s, "8h"), 0))
    assert len(after.table[0].cards) == 4


def test_jokeren13_cannot_lay_off_before_coming_out() -> None:
    s = make_state(J13, hands=["8h 2c", "3c", "4c", "5c"], table=[("5h 6h 7h", 1)])
    with pytest.raises(CannotLayOffYet):
        s.apply(LayOff(card(s, "8h"), 0))
    assert not any(isinstance(a, LayOff) for a in s.legal_actions())


def test_jokeren13_cannot_swap_a_joker_before_coming_out() -> None:
    s = make_state(J13, hands=["6h 2c", "3c", "4c", "5c"], table=[("5h ** 7h", 1)])
    with pytest.raises(CannotLayOffYet):
        s.apply(SwapJoker(card(s, "6h"), 0))


def test_jokeren13_cannot_lay_off_in_the_turn_of_coming_out() -> None:
    s = make_state(J13, hands=["9c 9d 9s 8h 6h 2c", "3c", "4c", "5c"], table=[("5h ** 7h", 1)])
    s = s.apply(lay(s, "9c 9d 9s"))
    with pytest.raises(CannotLayOffYet) as info:
        s.apply(LayOff(card(s, "8h"), 0))
    assert "next turn" in info.value.en or "turn after" in info.value.en
    with pytest.raises(CannotLayOffYet):
        s.apply(SwapJoker(card(s, "6h"), 0))


def test_jokeren13_lays_off_from_the_turn_after_coming_out() -> None:
    s = make_state(
        J13,
        hands=["8h 2c", "3c", "4c", "5c"],
        table=[("5h 6h 7h", 1)],
        out=(True, False, False, False),
    )
    after = s.apply(LayOff(card(s, "8h"), 0))
    assert after.table[0].codes()[-1] == "8h"


def test_new_melds_are_allowed_after_coming_out_in_the_same_turn() -> None:
    s = make_state(J13, hands=["9c 9d 9s 5h 6h 7h 2c", "3c", "4c", "5c"])
    s = s.apply(lay(s, "9c 9d 9s"))
    after = s.apply(lay(s, "5h 6h 7h"))
    assert len(after.table) == 2


def test_lay_off_that_does_not_fit_is_refused() -> None:
    s = make_state(J7, hands=["Th 2c", "3c", "4c", "5c"], table=[("5h 6h 7h", 1)])
    with pytest.raises(DoesNotFit):
        s.apply(LayOff(card(s, "Th"), 0))


def test_lay_off_onto_a_meld_that_is_not_there() -> None:
    s = make_state(J7, hands=["8h 2c", "3c", "4c", "5c"], table=[("5h 6h 7h", 1)])
    with pytest.raises(NoSuchMeld):
        s.apply(LayOff(card(s, "8h"), 3))


def test_swapped_joker_goes_to_the_hand_and_can_be_laid_at_once() -> None:
    s = make_state(
        J13,
        hands=["6h Kc Kd 2c", "3c", "4c", "5c"],
        table=[("5h ** 7h", 1)],
        out=(True, False, False, False),
    )
    s = s.apply(SwapJoker(card(s, "6h"), 0))
    assert "**" in codes(s.hands[0])
    after = s.apply(lay(s, "Kc Kd **"))
    assert after.table[-1].codes() == ["Kc", "Kd", "**"]


def test_swap_needs_the_card_the_joker_stands_for() -> None:
    s = make_state(J7, hands=["6d 2c", "3c", "4c", "5c"], table=[("5h ** 7h", 1)])
    with pytest.raises(DoesNotFit):
        s.apply(SwapJoker(card(s, "6d"), 0))


def test_joker_laid_off_stands_for_the_named_card() -> None:
    s = make_state(J7, hands=["** 2c", "3c", "4c", "5c"], table=[("5h 6h 7h", 1)])
    joker = card(s, "**")
    low = s.apply(LayOff(joker, 0, (4, 2)))
    assert low.table[0].codes() == ["**", "5h", "6h", "7h"]
    high = s.apply(LayOff(joker, 0))
    assert high.table[0].codes() == ["5h", "6h", "7h", "**"]
    assert LayOff(joker, 0, (8, 2)) in s.legal_actions()
    assert LayOff(joker, 0, (4, 2)) in s.legal_actions()


# --- complete melds --------------------------------------------------------------------


def test_complete_group_goes_under_the_open_pile_in_jokeren7() -> None:
    s = make_state(
        J7, hands=["9s 2c 3d", "3c", "4c", "5c"], table=[("9c 9d 9h", 1)], open_pile="Kd"
    )
    after = s.apply(LayOff(card(s, "9s"), 0))
    assert after.table == ()
    assert codes(after.open_pile) == ["9c", "9d", "9h", "9s", "Kd"]  # bottom first, top last
    assert after.removed == s.removed


def test_complete_meld_is_removed_from_the_game_in_jokeren13() -> None:
    s = make_state(
        J13,
        hands=["9s 2c 3d", "3c", "4c", "5c"],
        table=[("9c 9d 9h", 1)],
        out=(True,) * 4,
        open_pile="Kd",
    )
    after = s.apply(LayOff(card(s, "9s"), 0))
    assert after.table == ()
    assert codes(after.open_pile) == ["Kd"]
    assert sorted(codes(after.removed[-4:])) == ["9c", "9d", "9h", "9s"]


def test_group_of_four_with_a_joker_stays_on_the_table() -> None:
    s = make_state(J7, hands=["9c 9d 9h ** 2c", "3c", "4c", "5c"])
    after = s.apply(lay(s, "9c 9d 9h **"))
    assert len(after.table) == 1


def test_complete_group_laid_at_once_leaves_the_table() -> None:
    s = make_state(J13, hands=["9c 9d 9h 9s 2c", "3c", "4c", "5c"], rest="removed")
    after = s.apply(lay(s, "9c 9d 9h 9s"))
    assert after.table == ()
    assert after.out[0]
    assert sorted(codes(after.removed[-4:])) == ["9c", "9d", "9h", "9s"]


def test_complete_run_of_thirteen_leaves_the_table() -> None:
    s = make_state(
        J13,
        hands=["As 4d", "3c", "4c", "5c"],
        table=[("2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks", 2)],
        out=(True,) * 4,
    )
    after = s.apply(LayOff(card(s, "As"), 0))
    assert after.table == ()
    assert len(after.removed) - len(s.removed) == 13


def test_swapping_the_last_joker_of_a_full_group_completes_it() -> None:
    s = make_state(
        J13,
        hands=["9s 2c", "3c", "4c", "5c"],
        table=[("9c 9d 9h **", 1)],
        out=(True,) * 4,
    )
    after = s.apply(SwapJoker(card(s, "9s"), 0))
    assert after.table == ()
    assert codes(after.hands[0]) == ["2c", "**"]


# --- the end of the round ------------------------------------------------------------------


def test_round_ends_when_a_player_discards_the_last_card() -> None:
    s = make_state(
        J13,
        hands=["4d 5h 6h 7h", "** As Kd 7c", "2c 3c", "Td"],
        out=(True, False, False, False),
    )
    s = s.apply(lay(s, "5h 6h 7h"))
    end = s.apply(Discard(card(s, "4d")))
    assert end.is_terminal and end.current_player is None
    assert end.winner == 0 and end.end_reason == "out"
    assert end.legal_actions() == []
    # winner 0; the others their hand: joker 25, ace 11, K 10, 7 ... 2 + 3, 10
    assert end.scores() == [0, 25 + 11 + 10 + 7, 2 + 3, 10]
    with pytest.raises(RoundOver):
        end.apply(Draw("stock"))


def test_empty_stock_is_replenished_from_the_open_pile() -> None:
    s = make_state(
        J13,
        hands=["9h Kd", "3c", "4c", "5c"],
        stock="",
        open_pile="2c 3d 4h 5s",
        rest="removed",
    )
    below = s.open_pile  # after the discard of Kd these are the cards under the top
    after = s.apply(Discard(card(s, "Kd")))
    assert codes(after.open_pile) == ["Kd"]
    assert after.stock == tuple(Stream(s.round_seed, "reshuffle:0").shuffle(below))
    assert after.reshuffles == 1
    assert after.current_player == 1 and not after.is_terminal
    assert {"type": "reshuffle", "k": 0, "cards": 4} in after.observation(0)["log"]


def test_second_reshuffle_uses_the_next_label() -> None:
    s = make_state(
        J13, hands=["9h Kd", "3c", "4c", "5c"], stock="", open_pile="2c 3d", rest="removed"
    )
    s = s._evolve(reshuffles=1)
    after = s.apply(Discard(card(s, "Kd")))
    assert after.stock == tuple(Stream(s.round_seed, "reshuffle:1").shuffle(s.open_pile))


def test_recycled_meld_comes_back_with_the_reshuffle_in_jokeren7() -> None:
    s = make_state(
        J7,
        hands=["9s 2c 3d", "3c", "4c", "5c"],
        table=[("9c 9d 9h", 1)],
        open_pile="Kd",
        stock="",
        rest="removed",
    )
    s = s.apply(LayOff(card(s, "9s"), 0))
    after = s.apply(Discard(card(s, "3d")))
    assert sorted(codes(after.stock)) == ["9c", "9d", "9h", "9s", "Kd"]
    assert codes(after.open_pile) == ["3d"]


def test_nothing_to_shuffle_ends_the_round_without_a_winner() -> None:
    s = make_state(J13, hands=["9h Kd", "As", "4c", "5c"], stock="", open_pile="", rest="removed")
    end = s.apply(Discard(card(s, "Kd")))
    assert end.is_terminal and end.winner is None and end.end_reason == "stock"
    assert end.scores() == [9, 11, 4, 5]


def test_turn_limit_ends_the_round_without_a_winner() -> None:
    variant = replace(J13, turn_limit=12)
    s = make_state(variant, hands=["9h Kd", "As", "4c", "5c"], turn=11)
    end = s.apply(Discard(card(s, "Kd")))
    assert end.is_terminal and end.winner is None and end.end_reason == "turn_limit"
    assert end.scores() == [9, 11, 4, 5]
    before = make_state(variant, hands=["9h Kd", "As", "4c", "5c"], turn=10)
    assert not before.apply(Discard(card(before, "Kd"))).is_terminal


def test_default_turn_limit_is_400() -> None:
    assert all(v.turn_limit == 400 for v in PRESETS.values())


# --- dealer, players, canonical order ----------------------------------------------------------


@pytest.mark.parametrize("round_index", range(6))
def test_dealer_rotates_and_the_next_seat_starts(secret: bytes, round_index: int) -> None:
    s = new_round(J13, secret=secret, round_index=round_index)
    assert s.dealer == round_index % 4
    assert s.current_player == (round_index + 1) % 4
    assert s.phase == "draw"
    assert [len(h) for h in s.hands] == [13] * 4
    assert len(s.open_pile) == 1
    assert len(s.stock) == 108 - 52 - 1


def test_jokeren7_deals_seven_cards_from_one_deck(secret: bytes) -> None:
    s = new_round(J7, secret=secret, round_index=0)
    assert [len(h) for h in s.hands] == [7] * 4
    assert len(s.stock) == 54 - 28 - 1
    assert max(c for h in s.hands for c in h) < 54


def test_three_players_play_with_seats_0_to_2(secret: bytes) -> None:
    import random

    from jokeren_helpers import random_round

    variant = replace(J13, num_players=3)
    s = new_round(variant, secret=secret, round_index=2)
    assert s.dealer == 2 and s.current_player == 0
    assert len(s.hands) == 3 and len(s.stock) == 108 - 39 - 1
    end, states = random_round(variant, secret=secret, round_index=2, rng=random.Random(3))
    assert len(end.scores()) == 3
    assert all(st.current_player in (0, 1, 2, None) for st in states)


def test_legal_actions_come_in_canonical_order() -> None:
    s = make_state(
        J7,
        hands=["5d 6d 7d 8h ** Kc", "3c", "4c", "5c"],
        table=[("5h 6h 7h", 1), ("Tc Td ** Ts", 2, "Th")],
    )
    acts = s.legal_actions()
    kinds = [type(a).__name__ for a in acts]
    order = ["LayMelds", "LayOff", "SwapJoker", "Discard"]
    assert kinds == sorted(kinds, key=order.index)
    discards = [a.card for a in acts if isinstance(a, Discard)]
    assert discards == sorted(s.hands[0])
    lay_offs = [(a.card, a.meld_index) for a in acts if isinstance(a, LayOff)]
    assert lay_offs == sorted(lay_offs)
    assert acts == s.legal_actions()


def test_every_listed_action_is_legal_and_unlisted_discards_are_not() -> None:
    s = make_state(
        J7,
        hands=["5d 6d 7d 8h ** Kc 6h", "3c", "4c", "5c"],
        table=[("5h ** 7h", 1)],
        taken_from_open="Kc",
    )
    for action in s.legal_actions():
        s.apply(action)
    with pytest.raises(IllegalMove):
        s.apply(Discard(card(s, "Kc")))


def test_swap_may_not_leave_only_the_taken_card_to_discard() -> None:
    # the joker was taken from the open pile; swapping the 6h would leave two jokers,
    # and neither may be discarded this turn
    s = make_state(
        J7,
        hands=["** 6h", "3c", "4c", "5c"],
        table=[("5h ** 7h", 1)],
        taken_from_open="**",
    )
    with pytest.raises(MustKeepDiscard):
        s.apply(SwapJoker(card(s, "6h"), 0))
    assert not any(isinstance(a, SwapJoker) for a in s.legal_actions())
    assert Discard(card(s, "6h")) in s.legal_actions()


def test_any_number_of_plays_in_any_order_before_the_discard() -> None:
    s = make_state(
        J7,
        hands=["6h 8h 9c 9d 9s Kc Kd 2c", "3c", "4c", "5c"],
        table=[("5h ** 7h", 1)],
    )
    s = s.apply(SwapJoker(card(s, "6h"), 0))
    s = s.apply(LayOff(card(s, "8h"), 0))
    s = s.apply(lay(s, "9c 9d 9s"))
    s = s.apply(lay(s, "Kc Kd **"))
    assert s.phase == "play" and s.current_player == 0
    assert codes(s.hands[0]) == ["2c"]
    end = s.apply(Discard(card(s, "2c")))
    assert end.winner == 0 and end.scores()[0] == 0


def test_cannot_take_from_an_empty_open_pile() -> None:
    from engine.jokeren import OpenPileEmpty

    s = make_state(J13, hands=["2c 5d", "3c", "4c", "5c"], phase="draw", open_pile="")
    assert s.legal_actions() == [Draw("stock")]
    with pytest.raises(OpenPileEmpty):
        s.apply(Draw("open"))


def test_is_legal_and_can_lay_off_helpers() -> None:
    s = make_state(J13, hands=["8h 2c", "3c", "4c", "5c"], table=[("5h 6h 7h", 1)])
    eight = card(s, "8h")
    assert not s.can_lay_off(eight, 0)  # Jokeren 13: not before coming out
    assert not s.is_legal(LayOff(eight, 0))
    out = s._evolve(out=(True, False, False, False))
    assert out.can_lay_off(eight, 0)
    assert out.is_legal(LayOff(eight, 0))
    assert not out.can_lay_off(card(s, "2c"), 0)
    assert not out.can_lay_off(eight, 5)
