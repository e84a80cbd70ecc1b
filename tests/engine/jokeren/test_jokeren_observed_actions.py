"""The observation's ``legal_actions``: for the player to move, every legal action but the
new melds (the draws, the lay-offs with each joker choice, the joker swaps, the discards),
so a table offers exactly what the engine allows (docs/rules.md §2-§3); nothing for the
other seats, and never a card hidden from the seat."""

from __future__ import annotations

import random
from typing import Any

import pytest
from jokeren_helpers import card, make_state

from engine.jokeren import PRESETS, JokerenState, LayMelds, new_round


def listed(state: JokerenState, seat: int) -> list[dict[str, Any]]:
    actions: list[dict[str, Any]] = state.observation(seat)["legal_actions"]
    return actions


@pytest.mark.parametrize("preset", ["jokeren7", "jokeren13", "klassiek", "veertigen"])
def test_the_seat_to_move_sees_every_legal_action_but_the_new_melds(
    preset: str, secret: bytes
) -> None:
    rng = random.Random(preset)
    kinds: set[str] = set()
    for round_index in range(3):
        state = new_round(PRESETS[preset], secret=secret, round_index=round_index)
        while not state.is_terminal:
            legal = state.legal_actions()
            mover = state.current_player
            for seat in range(state.num_players):
                shown = listed(state, seat)
                if seat != mover:
                    assert shown == []
                    continue
                expected = [a.to_json() for a in legal if not isinstance(a, LayMelds)]
                assert shown == expected
                kinds.update(a["type"] for a in shown)
                # only the seat's own cards and the table's
                seen = set(state.hands[seat]) | {c for m in state.table for c in m.cards}
                assert {a["card"] for a in shown if "card" in a} <= seen
            state = state.apply(rng.choice(legal))
        assert all(listed(state, seat) == [] for seat in range(state.num_players))
    assert {"draw", "discard", "lay_off"} <= kinds


def test_the_card_taken_from_the_open_pile_and_its_copy_are_not_offered_as_discards() -> None:
    """docs/rules.md §7 Jokeren 1: not the taken card, nor the other copy of it."""
    state = make_state(
        PRESETS["jokeren13"],
        hands=["7h 7h 9c Kd", "2c 3c 4c", "2d 3d 4d", "2s 3s 4s"],
        taken_from_open="7h",
        out=[True, True, True, True],
    )
    discards = [a["card"] for a in listed(state, 0) if a["type"] == "discard"]
    assert discards == [card(state, "9c"), card(state, "Kd")]


def test_a_joker_laid_off_lists_each_card_it_may_stand_for() -> None:
    """A group lacking a suit: the joker is that suit; a run: one beyond either end."""
    state = make_state(
        PRESETS["jokeren13"],
        hands=["** 2c", "Ac 3c 4c", "2d 3d 4d", "2s 3s 4s"],
        table=[("7c 7d 7h", 1), ("5h 6h 7h", 2)],
        out=[True, True, True, True],
    )
    joker = card(state, "**")
    lay_offs = [
        (a["meld"], a["stands_for"])
        for a in listed(state, 0)
        if a["type"] == "lay_off" and a["card"] == joker
    ]
    assert sorted(lay_offs) == [(0, "7s"), (1, "4h"), (1, "8h")]


def test_lay_offs_and_swaps_follow_the_melds_and_the_turn() -> None:
    """A natural card fits at a run's end or a group's missing suit; a natural card swaps
    for the joker that stands for it; none of it before the seat has come out (Jokeren
    13), and in the draw phase only the draws."""
    hands = ["4h 7s Qs 9d 2c", "Ac 3c 4c", "2d 3d 4d", "2s 3s 4s"]
    table = [("7c 7d 7h", 1), ("5h 6h 7h", 2), ("Js ** Ks", 3, "Qs")]
    j13 = PRESETS["jokeren13"]
    state = make_state(j13, hands=hands, table=table, out=[True, True, True, True])
    shown = listed(state, 0)
    plays = {(a["type"], a["card"], a["meld"]) for a in shown if a["type"] != "discard"}
    assert plays == {
        ("lay_off", card(state, "4h"), 1),
        ("lay_off", card(state, "7s"), 0),
        ("swap_joker", card(state, "Qs"), 2),
    }
    assert [a["type"] for a in shown][-5:] == ["discard"] * 5
    not_out = make_state(j13, hands=hands, table=table, out=[False, True, True, True])
    assert {a["type"] for a in listed(not_out, 0)} == {"discard"}
    drawing = make_state(j13, hands=hands, table=table, phase="draw", open_pile="5c")
    assert listed(drawing, 0) == [
        {"type": "draw", "source": "stock"},
        {"type": "draw", "source": "open"},
    ]
