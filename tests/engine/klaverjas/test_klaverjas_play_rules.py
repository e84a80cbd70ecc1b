"""Which cards may be played (docs/rules.md §6 "Play", seed 003 "Spelverloop"), per setting.

Seats: the trick is led by ``leader``; the player to move sits ``len(trick)`` seats after
it, so with two cards on the table the partner of the player to move led the trick.
"""

from __future__ import annotations

import dataclasses

import pytest

from engine.klaverjas import (
    AMSTERDAMS,
    ROTTERDAMS,
    MayNotUndertrump,
    MustFollowSuit,
    MustOvertrump,
    MustTrump,
    NotInHand,
    PlayCard,
)

from .conftest import PlayState, k, ks


def legal(state) -> list[int]:  # type: ignore[no-untyped-def]
    return [a.card for a in state.legal_actions()]


def test_leader_may_lead_any_card(play_state: PlayState) -> None:
    state = play_state("7c Jh As Td")
    assert legal(state) == sorted(ks("7c Jh As Td"))


def test_must_follow_suit(play_state: PlayState) -> None:
    state = play_state("7c Kc Jh As", trick="Ac")
    assert legal(state) == ks("7c Kc")
    with pytest.raises(MustFollowSuit) as info:
        state.apply(PlayCard(k("As")))
    assert info.value.nl and info.value.en and info.value.code == "must_follow_suit"


def test_follow_suit_beats_the_trump_obligation(play_state: PlayState) -> None:
    # trump hearts; clubs led: with a club you play a club, never a trump
    state = play_state("7c Jh 9h", trick="Ac")
    assert legal(state) == ks("7c")


def test_must_trump_without_the_led_suit(play_state: PlayState) -> None:
    state = play_state("7h Ks As", trick="Ac")
    assert legal(state) == ks("7h")
    with pytest.raises(MustTrump):
        state.apply(PlayCard(k("As")))


def test_without_led_suit_and_trump_any_card(play_state: PlayState) -> None:
    state = play_state("7d Ks As", trick="Ac")
    assert legal(state) == sorted(ks("7d Ks As"))


def test_troeven_niet_verplicht(play_state: PlayState) -> None:
    variant = dataclasses.replace(ROTTERDAMS, must_trump=False)
    state = play_state("7h Ks As", trick="Ac", variant=variant)
    assert legal(state) == sorted(ks("7h Ks As"))


def test_must_overtrump(play_state: PlayState) -> None:
    # clubs led, West trumped with the queen of hearts: hold 7h (lower) and Ah (higher)
    state = play_state("7h Ah Ks", trick="Ac Qh")
    assert legal(state) == ks("Ah")
    with pytest.raises(MustOvertrump):
        state.apply(PlayCard(k("7h")))


def test_trump_order_decides_overtrumping(play_state: PlayState) -> None:
    # trump order J 9 A 10 K Q 8 7: over the ace only the nine and the jack
    state = play_state("Th 9h Kh 7s", trick="Ac Ah")
    assert legal(state) == ks("9h")


def test_overtroeven_niet_verplicht(play_state: PlayState) -> None:
    variant = dataclasses.replace(ROTTERDAMS, must_overtrump=False)
    state = play_state("7h Ah Ks", trick="Ac Qh", variant=variant)
    assert legal(state) == ks("7h Ah")  # still trump, but any trump


def test_trump_led_must_play_higher(play_state: PlayState) -> None:
    state = play_state("7h 9h Ks", trick="Ah")
    assert legal(state) == ks("9h")
    with pytest.raises(MustOvertrump):
        state.apply(PlayCard(k("7h")))


def test_trump_led_without_higher_any_trump(play_state: PlayState) -> None:
    state = play_state("7h 8h Ks", trick="Jh")
    assert legal(state) == ks("7h 8h")


def test_trump_led_overtroeven_niet_verplicht(play_state: PlayState) -> None:
    variant = dataclasses.replace(ROTTERDAMS, must_overtrump=False)
    state = play_state("7h 9h Ks", trick="Ah", variant=variant)
    assert legal(state) == ks("7h 9h")


def test_must_undertrump_by_default(play_state: PlayState) -> None:
    # cannot follow clubs, cannot beat the jack of trump, hold a lower trump and a spade
    assert ROTTERDAMS.undertrump == "must_undertrump"
    state = play_state("7h Ks", trick="Ac Jh")
    assert legal(state) == ks("7h")
    with pytest.raises(MustTrump):
        state.apply(PlayCard(k("Ks")))


def test_no_undertrump_while_other_suit(play_state: PlayState) -> None:
    variant = dataclasses.replace(ROTTERDAMS, undertrump="no_undertrump_while_other_suit")
    state = play_state("7h Ks", trick="Ac Jh", variant=variant)
    assert legal(state) == ks("Ks")
    with pytest.raises(MayNotUndertrump):
        state.apply(PlayCard(k("7h")))


def test_no_undertrump_setting_with_only_trumps_left(play_state: PlayState) -> None:
    variant = dataclasses.replace(ROTTERDAMS, undertrump="no_undertrump_while_other_suit")
    state = play_state("7h 8h", trick="Ac Jh", variant=variant)
    assert legal(state) == ks("7h 8h")


def test_rotterdams_trumps_over_partner(play_state: PlayState) -> None:
    # the partner led the ace of clubs and wins; Rotterdams still obliges to trump
    state = play_state("7h Ks", trick="Ac 7c", variant=ROTTERDAMS)
    assert legal(state) == ks("7h")


def test_rotterdams_overtrumps_partner(play_state: PlayState) -> None:
    # the partner trumped (Qh) and wins: Rotterdams obliges to overtrump
    state = play_state("7h Ah Ks", trick="7c Qh 8c", leader=3, variant=ROTTERDAMS)
    assert legal(state) == ks("Ah")


def test_amsterdams_partner_wins_no_obligation(play_state: PlayState) -> None:
    state = play_state("7h Ks", trick="Ac 7c", variant=AMSTERDAMS)
    assert legal(state) == sorted(ks("7h Ks"))


def test_amsterdams_partner_trumped_need_not_overtrump(play_state: PlayState) -> None:
    state = play_state("7h Ah Ks", trick="7c Qh 8c", leader=3, variant=AMSTERDAMS)
    assert legal(state) == sorted(ks("7h Ah Ks"))


def test_amsterdams_opponent_wins_must_trump(play_state: PlayState) -> None:
    # the partner led the 7 of clubs, the right-hand opponent's ace wins: trump
    state = play_state("7h Ks", trick="7c Ac", variant=AMSTERDAMS)
    assert legal(state) == ks("7h")


def test_amsterdams_trump_led_still_overtrump(play_state: PlayState) -> None:
    # platform: the partner exemption is about trumping when you cannot follow; when
    # trump is led you follow suit and must play higher if you can
    state = play_state("7h 9h Ks", trick="Ah 8h", variant=AMSTERDAMS)
    assert legal(state) == ks("9h")


def test_not_in_hand(play_state: PlayState) -> None:
    state = play_state("7c Kc")
    with pytest.raises(NotInHand):
        state.apply(PlayCard(k("Ac")))
