"""Which actions are the same move (``move_key`` / ``JokerenState.same_move``): the same
meld in another card order, the melds of one action in another order, another copy of a
card, a joker left for the engine to name. Different cards, melds or joker stand-ins are
different moves."""

from __future__ import annotations

from jokeren_helpers import make_state

from engine.cards import CARD_CODE
from engine.jokeren import (
    PRESETS,
    Discard,
    Draw,
    JokerenState,
    LayMelds,
    LayOff,
    SwapJoker,
    move_key,
)
from engine.jokeren.actions import MeldSpec
from engine.jokeren.melds import stands_for_from_json

J13 = PRESETS["jokeren13"]


def _ids(state: JokerenState, codes: str, seat: int = 0) -> list[int]:
    """Ids of the seat's cards with these codes, each card once, first copy first."""
    hand = list(state.hands[seat])
    out = []
    for code in codes.split():
        c = next(c for c in hand if CARD_CODE[c] == code)
        hand.remove(c)
        out.append(c)
    return out


def _meld(cards: list[int], *names: str | None) -> MeldSpec:
    """A meld spec; ``names``: per card what it stands for (``None`` natural / unnamed)."""
    sfs = tuple(stands_for_from_json(n) for n in names) if names else (None,) * len(cards)
    return tuple(cards), sfs


def _state() -> JokerenState:
    return make_state(
        J13,
        hands=["8d 8s ** 8d 4h 5h 6h Kc Kc Qs 2c", "3c", "4c", "5c"],
        table=[("9c Tc Jc **", 1, "Qc"), ("7s 8s 9s", 2)],
        out=[True, True, True, False],
    )


def test_a_set_meld_in_another_card_order_is_the_same_move() -> None:
    s = _state()
    d8, s8, joker = _ids(s, "8d 8s **")
    first = LayMelds((_meld([joker, d8, s8], "8c", None, None),))
    second = LayMelds((_meld([d8, s8, joker], None, None, "8c"),))
    assert first.to_json() != second.to_json()
    assert s.same_move(first, second)
    assert move_key(first) == move_key(second)
    # Both are legal and give the same table.
    assert s.apply(first).table[-1].cards == s.apply(second).table[-1].cards


def test_a_joker_left_unnamed_is_the_card_the_engine_names() -> None:
    s = _state()
    d8, s8, joker = _ids(s, "8d 8s **")
    named = LayMelds((_meld([d8, s8, joker], None, None, "8c"),))
    unnamed = LayMelds((_meld([joker, s8, d8]),))
    assert s.same_move(named, unnamed)
    # the same cards with the joker standing for another card: another move
    hearts = LayMelds((_meld([d8, s8, joker], None, None, "8h"),))
    assert not s.same_move(named, hearts)


def test_the_order_of_the_melds_of_one_action_does_not_count() -> None:
    s = _state()
    d8, s8, joker, h4, h5, h6 = _ids(s, "8d 8s ** 4h 5h 6h")
    eights = _meld([d8, s8, joker], None, None, "8c")
    run = _meld([h6, h4, h5])
    assert s.same_move(LayMelds((eights, run)), LayMelds((_meld([h4, h5, h6]), eights)))
    assert not s.same_move(LayMelds((eights, run)), LayMelds((eights,)))


def test_a_run_in_another_order_is_the_same_but_another_joker_end_is_not() -> None:
    s = _state()
    h4, h5, h6, joker = _ids(s, "4h 5h 6h **")
    low = LayMelds((_meld([joker, h4, h5, h6], "3h", None, None, None),))
    low_again = LayMelds((_meld([h6, h5, h4, joker], None, None, None, "3h"),))
    high = LayMelds((_meld([h4, h5, h6, joker], None, None, None, "7h"),))
    assert s.same_move(low, low_again)
    assert not s.same_move(low, high)


def test_the_two_copies_of_a_card_are_the_same_card() -> None:
    s = _state()
    first, second = _ids(s, "8d 8d")
    assert first != second
    assert s.same_move(Discard(first), Discard(second))
    kc1, kc2, qs = _ids(s, "Kc Kc Qs")
    assert s.same_move(Discard(kc1), Discard(kc2))
    assert not s.same_move(Discard(kc1), Discard(qs))
    assert s.same_move(Draw("stock"), Draw("stock"))
    assert not s.same_move(Draw("stock"), Draw("open"))


def test_lay_offs_and_swaps_compare_card_meld_and_stand_in() -> None:
    s = _state()
    (joker,) = _ids(s, "**")
    (s8,) = _ids(s, "8s")
    # A joker onto the run 7s 8s 9s: unnamed it stands for the high end (Ts), as the engine lays it.
    assert s.same_move(LayOff(joker, 1, None), LayOff(joker, 1, stands_for_from_json("Ts")))
    assert not s.same_move(LayOff(joker, 1, None), LayOff(joker, 1, stands_for_from_json("6s")))
    assert not s.same_move(LayOff(joker, 0, None), LayOff(joker, 1, None))
    qc = SwapJoker(s8, 0)
    assert s.same_move(qc, SwapJoker(s8, 0)) and not s.same_move(qc, SwapJoker(s8, 1))
    assert not s.same_move(LayOff(s8, 1), Discard(s8))
