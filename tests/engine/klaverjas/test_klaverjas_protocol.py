"""The game protocol (engine/protocol.py): module attributes, JSON of variants, actions,
states and observations, duplicate results."""

from __future__ import annotations

import dataclasses
import json

import pytest

import engine.klaverjas as klaverjas
from engine.cards import klaverjas_code
from engine.errors import MalformedAction
from engine.klaverjas import (
    AMSTERDAMS,
    PRESETS,
    ROTTERDAMS,
    Bid,
    ChooseTrump,
    PlayCard,
    Variant,
    action_from_json,
    game_over,
    new_round,
    results,
    state_from_json,
    variant_from_json,
)
from engine.match import play_match
from engine.registry import game_module, game_of_preset, preset

SECRET = b"p" * 32


def test_module_attributes() -> None:
    assert klaverjas.GAME == "klaverjas"
    assert klaverjas.LOWER_IS_BETTER is False
    assert klaverjas.BOT_LEVELS == ("basic", "strong", "expert")
    assert klaverjas.DEFAULT_BOT_LEVEL == "strong"
    assert game_module("klaverjas") is klaverjas
    assert game_of_preset("rotterdams") == "klaverjas"
    assert preset("amsterdams") is AMSTERDAMS


def test_presets() -> None:
    assert set(PRESETS) == {"rotterdams", "amsterdams"}
    assert ROTTERDAMS.must_trump and ROTTERDAMS.must_overtrump
    assert not ROTTERDAMS.partner_exemption
    assert AMSTERDAMS.partner_exemption
    for name, variant in PRESETS.items():
        assert variant.name == name
        assert variant.num_players == 4 and variant.rounds == 16
        assert variant.four_jacks == 100 and variant.last_trick == 10 and variant.pit == 100


@pytest.mark.parametrize("variant", list(PRESETS.values()))
def test_variant_json_round_trip(variant: Variant) -> None:
    obj = json.loads(json.dumps(variant.to_json()))
    assert variant_from_json(obj) == variant
    assert set(obj) == {f.name for f in dataclasses.fields(Variant)}


@pytest.mark.parametrize(
    "bad",
    [
        {"colour": "red"},
        {"four_jacks": 150},
        {"bidding": "auction"},
        {"undertrump": "sometimes"},
        {"must_trump": 1},
        {"rounds": 0},
        {"num_players": 3},
        {"points_limit": -5},
    ],
)
def test_variant_from_json_rejects(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        variant_from_json({**ROTTERDAMS.to_json(), **bad})


def test_variant_missing_fields_take_defaults() -> None:
    assert variant_from_json({"name": "x", "four_jacks": 200}).four_jacks == 200


@pytest.mark.parametrize(
    ("action", "obj"),
    [
        (Bid(True), {"type": "bid", "play": True}),
        (Bid(False), {"type": "bid", "play": False}),
        (Bid(True, 2), {"type": "bid", "play": True, "suit": "h"}),
        (ChooseTrump(3), {"type": "choose_trump", "suit": "s"}),
        (PlayCard(13), {"type": "play", "card": 13}),
    ],
)
def test_action_json(action: object, obj: dict[str, object]) -> None:
    assert action.to_json() == obj  # type: ignore[attr-defined]
    assert action_from_json(obj) == action


def test_action_card_code_accepted() -> None:
    assert action_from_json({"type": "play", "card": "Td"}) == PlayCard(11)


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "jump"},
        {"type": "bid"},
        {"type": "bid", "play": "yes"},
        {"type": "play", "card": 32},
        {"type": "play", "card": "Zz"},
        {"type": "play", "card": True},
        {"type": "choose_trump", "suit": "x"},
        [],
    ],
)
def test_malformed_actions(obj: object) -> None:
    with pytest.raises(MalformedAction):
        action_from_json(obj)  # type: ignore[arg-type]


def test_results_own_team_minus_other_team() -> None:
    assert results([900, 700, 900, 700]) == [200.0, -200.0, 200.0, -200.0]


def test_game_over_by_rounds_or_points_limit() -> None:
    assert not game_over(ROTTERDAMS, rounds_played=15, totals=[3000, 0, 3000, 0])
    assert game_over(ROTTERDAMS, rounds_played=16, totals=[0, 0, 0, 0])
    limited = dataclasses.replace(ROTTERDAMS, points_limit=1500)
    assert game_over(limited, rounds_played=3, totals=[1500, 200, 1500, 200])
    assert not game_over(limited, rounds_played=3, totals=[1499, 200, 1499, 200])


def _played(n_moves: int):  # type: ignore[no-untyped-def]
    state = new_round(ROTTERDAMS, secret=SECRET, round_index=0)
    for _ in range(n_moves):
        state = state.apply(state.legal_actions()[-1])
    return state


def test_observation_hides_other_hands_and_the_seed() -> None:
    state = _played(7)  # a bid and six cards
    for seat in range(4):
        obs = state.observation(seat)
        text = json.dumps(obs)
        assert state.round_seed.hex() not in text
        assert obs["hand"] == list(state.hands[seat])
        assert obs["hand_counts"] == [len(h) for h in state.hands]
        assert "hands" not in obs and "round_seed" not in obs
        assert obs["trump"] == "cdhs"[state.trump or 0]
        assert obs["playing_seat"] == state.playing_seat
        assert obs["trick"]["plays"] == [
            {"seat": (state.leader + i) % 4, "card": c} for i, c in enumerate(state.trick)
        ]
        if seat == state.current_player:
            assert obs["legal_actions"] == [a.to_json() for a in state.legal_actions()]
        else:
            assert obs["legal_actions"] == []
        assert obs["result"] is None and obs["scores"] is None


def test_observation_while_bidding() -> None:
    state = _played(0)
    obs = state.observation(state.first_player)
    assert obs["phase"] == "bidding" and obs["trump"] is None and obs["playing_seat"] is None
    assert obs["proposed_trump"] == "cdhs"[state.proposed_trump]
    assert obs["legal_actions"] == [{"type": "bid", "play": False}, {"type": "bid", "play": True}]
    assert obs["hand_codes"] == [klaverjas_code(c) for c in state.hands[state.first_player]]
    with pytest.raises(ValueError):
        state.observation(4)


def test_observation_at_round_end_has_the_scores() -> None:
    state = _played(33)
    assert state.is_terminal
    obs = state.observation(1)
    assert obs["scores"] == state.scores()
    assert obs["result"]["scores"] == [state.scores()[0], state.scores()[1]]
    assert len(obs["tricks"]) == 8
    assert all(len(t["plays"]) == 4 for t in obs["tricks"])


def test_state_json_round_trip_and_hash() -> None:
    for n in (0, 1, 5, 17, 33):
        state = _played(n)
        obj = json.loads(json.dumps(state.to_json()))
        again = state_from_json(obj)
        assert again == state
        assert again.state_hash() == state.state_hash()
        assert len(state.state_hash()) == 64


def test_state_from_json_rejects_lost_cards() -> None:
    obj = _played(3).to_json()
    obj["hands"][0] = obj["hands"][0][1:]
    with pytest.raises(ValueError):
        state_from_json(obj)


def test_play_match_with_bots() -> None:
    match = play_match(klaverjas, AMSTERDAMS, secret=SECRET, rounds=4, levels=["strong"] * 4)
    assert len(match.rounds) == 4
    assert match.totals[0] == match.totals[2] and match.totals[1] == match.totals[3]
    assert match.results[0] == match.totals[0] - match.totals[1]
