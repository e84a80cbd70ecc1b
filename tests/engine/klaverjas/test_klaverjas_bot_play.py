"""The bots play sensibly (the brief's list): bid on strength, give points and roem to a
partner who wins, do not trump a partner's sure trick when not obliged, win tricks, give
no roem away, lead sure winners, pull trumps and stop when the opponents have none."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engine.cards import SUITS
from engine.klaverjas import (
    AMSTERDAMS,
    ROTTERDAMS,
    Bid,
    KlaverjasState,
    PlayCard,
    Variant,
    bot_action,
)
from engine.klaverjas.state import make_trick

from .conftest import k, ks


def table(
    hands: Sequence[str],
    *,
    trump: str = "h",
    trick: str = "",
    leader: int = 0,
    tricks: Sequence[tuple[int, str]] = (),
    variant: Variant = ROTTERDAMS,
    playing_seat: int = 0,
    phase: str = "play",
) -> KlaverjasState:
    """A state with every hand given (the 32 cards are checked), seat 0 usually to move."""
    t = SUITS.index(trump)
    done = tuple(make_trick(ld, ks(cards), t, variant) for ld, cards in tricks)
    on_table = tuple(ks(trick)) if trick else ()
    hand_ids = tuple(tuple(sorted(ks(h))) if h else () for h in hands)
    every = sorted(
        [c for h in hand_ids for c in h] + list(on_table) + [c for x in done for c in x.cards]
    )
    assert every == list(range(32)), "the scenario must hold the 32 cards once"
    bidding = phase == "bidding"
    return KlaverjasState(
        variant=variant,
        round_index=0,
        round_seed=b"s" * 32,
        dealer=3,
        deal_number=0,
        proposed_trump=t,
        hands=hand_ids,
        phase=phase,  # type: ignore[arg-type]
        current_player=0 if bidding else (leader + len(on_table)) % 4,
        trump=None if bidding else t,
        playing_seat=None if bidding else playing_seat,
        leader=leader,
        trick=on_table,
        tricks=done,
    )


LEVELS = ("basic", "strong")


@pytest.mark.parametrize("level", LEVELS)
def test_bid_on_a_strong_hand(level: str) -> None:
    state = table(
        [
            "Jh 9h Ah Th Ac Ad As Ks",
            "7h 8h Qh Kh 7c 8c 9c Tc",
            "Jc Qc Kc 7d 8d 9d Td Jd",
            "Qd Kd 7s 8s 9s Ts Js Qs",
        ],
        phase="bidding",
    )
    assert bot_action(state, level=level) == Bid(True)


@pytest.mark.parametrize("level", LEVELS)
def test_pass_on_a_weak_hand(level: str) -> None:
    state = table(
        [
            "7h 7c 8c 9d Td Qs Ks 8d",
            "Jh 9h Ah Th Ac Ad As Kc",
            "8h Qh Kh 9c Tc Jc Qc 7d",
            "Jd Qd Kd 7s 8s 9s Ts Js",
        ],
        phase="bidding",
    )
    assert bot_action(state, level=level) == Bid(False)


@pytest.mark.parametrize("level", LEVELS)
def test_give_points_to_a_partner_who_wins(level: str) -> None:
    state = table(
        [
            "Ts 7d 8d 9d Td Jd Qd Kd",
            "Tc Jc Qc Kc 7s 8s 9s",
            "8h 9h Th Qh Kh Ah Js",
            "Jh Ad Qs Ks As 7h 9c",
        ],
        trick="7c Ac 8c",
        leader=1,
        variant=AMSTERDAMS,
        playing_seat=2,
    )
    # no club, no trump: a ten (10 points) goes to the partner's sure trick
    assert bot_action(state, level=level) in (PlayCard(k("Ts")), PlayCard(k("Td")))


# West leads 7c, North (partner) wins with the ace, East follows; South holds the jack of
# trump as its only trump.
PARTNER_WINS = [
    "Jh 7d 8s 9d Td Jd Qd Kd",
    "Tc Jc Qc Kc 7s 9s Ts",
    "8h 9h Th Qh Kh Ah Js",
    "7h Ad Qs Ks As 8d 9c",
]


@pytest.mark.parametrize("level", LEVELS)
def test_do_not_trump_a_partners_sure_trick(level: str) -> None:
    # Amsterdams: the partner wins, so no obligation; keep the jack of trump
    state = table(PARTNER_WINS, trick="7c Ac 8c", leader=1, variant=AMSTERDAMS, playing_seat=2)
    assert bot_action(state, level=level) != PlayCard(k("Jh"))


@pytest.mark.parametrize("level", LEVELS)
def test_rotterdams_bot_trumps_as_obliged(level: str) -> None:
    state = table(PARTNER_WINS, trick="7c Ac 8c", leader=1, variant=ROTTERDAMS, playing_seat=2)
    assert bot_action(state, level=level) == PlayCard(k("Jh"))


@pytest.mark.parametrize("level", LEVELS)
def test_win_the_trick_when_playing_last(level: str) -> None:
    state = table(
        [
            "Ac 8c 7d 8d 9d Td Jd Qd",
            "9c Tc Jc 7s 8s 9s Ts",
            "8h 9h Th Qh Kh Ah Js",
            "Jh 7h Kd Ad Qs Ks As",
        ],
        trick="Kc 7c Qc",
        leader=1,
        playing_seat=1,
    )
    assert bot_action(state, level=level) == PlayCard(k("Ac"))


@pytest.mark.parametrize("level", LEVELS)
def test_gives_no_roem_to_the_other_team(level: str) -> None:
    # West leads the ten of clubs, the partner plays the nine, East wins with the ace:
    # the eight would make 8-9-10 (20 roem for them), the king costs only 4 (the basic bot
    # threw the eight, the card of fewest points, before it counted roem)
    state = table(
        [
            "8c Kc 7d 8d 9d Td Jd Qd",
            "Jc Qc Kd Ad 7s 8s 9s",
            "7c 8h 9h Th Qh Kh Ah",
            "Jh 7h Js Qs Ks As Ts",
        ],
        trick="Tc 9c Ac",
        leader=1,
        playing_seat=1,
    )
    assert bot_action(state, level=level) == PlayCard(k("Kc"))


def test_strong_makes_roem_for_its_team() -> None:
    # West leads the seven of diamonds, the partner wins with the ace: 9d makes 7-8-9
    state = table(
        [
            "9d Kd 7c 8c 9c Tc Jc Qc",
            "Kc Ac Td Jd 7s 8s 9s",
            "Qd 8h 9h Th Qh Kh Ah",
            "Jh 7h Js Qs Ks As Ts",
        ],
        trick="7d Ad 8d",
        leader=1,
        playing_seat=0,
    )
    assert bot_action(state, level="strong") == PlayCard(k("9d"))


# Two tricks of trumps have been played: nobody holds a trump any more.
NO_TRUMPS_LEFT = [(0, "7h 8h 9h Th"), (0, "Jh Qh Kh Ah")]


@pytest.mark.parametrize("level", LEVELS)
def test_lead_a_sure_winner(level: str) -> None:
    state = table(
        [
            "As 7s 8d 9c 7c 8c",
            "Ks Qs Js 9d Td Jd",
            "Ts 9s 8s Qd Kd Ad",
            "7d Tc Jc Qc Kc Ac",
        ],
        tricks=NO_TRUMPS_LEFT,
        playing_seat=0,
    )
    assert bot_action(state, level=level) == PlayCard(k("As"))


def test_strong_pulls_trumps_with_the_best_trump() -> None:
    state = table(
        [
            "Jh 9h 7h Ac Tc Ad 7s 8s",
            "8h Qh 7c 8c 9c 7d 8d 9d",
            "Th Kh Jc Qc Kc Td Jd Qd",
            "Ah Kd 9s Ts Js Qs Ks As",
        ],
        playing_seat=0,
    )
    assert bot_action(state, level="strong") == PlayCard(k("Jh"))


def test_strong_stops_pulling_trumps_when_the_opponents_have_none() -> None:
    # South led the jack of trump; both opponents showed out of trump
    state = table(
        [
            "9h Ah As Ks 7d 8d 9d",
            "8c 9c Tc Jc Qc Kc 7s",
            "Th Kh Qh 7h Td Jd Qd",
            "Ac Kd Ad 8s 9s Ts Qs",
        ],
        tricks=[(0, "Jh 7c 8h Js")],
        playing_seat=0,
    )
    assert bot_action(state, level="strong") == PlayCard(k("As"))
