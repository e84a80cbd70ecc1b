"""Helpers for the Klaverjas tests: cards by code, hand-built states in the play phase."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from engine.cards import SUITS, klaverjas_id
from engine.klaverjas import ROTTERDAMS, KlaverjasState, Variant


def k(code: str) -> int:
    return klaverjas_id(code)


def ks(codes: str) -> list[int]:
    return [klaverjas_id(c) for c in codes.split()]


PlayState = Callable[..., KlaverjasState]


@pytest.fixture
def play_state() -> PlayState:
    """A state in the play phase: ``hand`` is the hand of the seat to move, ``trick`` the
    cards already on the table (led by ``leader``); other hands are left empty."""

    def make(
        hand: str,
        *,
        trump: str = "h",
        trick: str = "",
        leader: int = 1,
        variant: Variant = ROTTERDAMS,
        playing_seat: int = 1,
    ) -> KlaverjasState:
        on_table: Sequence[int] = ks(trick) if trick else []
        seat = (leader + len(on_table)) % 4
        hands: list[tuple[int, ...]] = [() for _ in range(4)]
        hands[seat] = tuple(sorted(ks(hand)))
        return KlaverjasState(
            variant=variant,
            round_index=0,
            round_seed=bytes(32),
            dealer=0,
            deal_number=0,
            proposed_trump=SUITS.index(trump),
            hands=tuple(hands),
            phase="play",
            current_player=seat,
            trump=SUITS.index(trump),
            playing_seat=playing_seat,
            leader=leader,
            trick=tuple(on_table),
        )

    return make
