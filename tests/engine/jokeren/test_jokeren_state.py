"""The round state as data: observation per seat, JSON round trips, hashes, the log."""

from __future__ import annotations

import json
import random

import pytest
from jokeren_helpers import card, make_state, random_round

from engine.cards import CARD_CODE
from engine.errors import MalformedAction
from engine.jokeren import (
    PRESETS,
    Discard,
    Draw,
    LayMelds,
    LayOff,
    SwapJoker,
    action_from_json,
    deal_summary,
    new_round,
    state_from_json,
)

J13 = PRESETS["jokeren13"]


def played(secret: bytes, moves: int, preset: str = "jokeren13", seed: int = 5):
    rng = random.Random(seed)
    s = new_round(PRESETS[preset], secret=secret, round_index=1)
    for _ in range(moves):
        if s.is_terminal:
            break
        s = s.apply(rng.choice(s.legal_actions()))
    return s


def test_observation_shows_own_hand_and_only_counts_of_hidden_cards(secret: bytes) -> None:
    s = played(secret, 40)
    obs = s.observation(2)
    assert obs["hand"] == list(s.hands[2])
    assert obs["hand_counts"] == [len(h) for h in s.hands]
    assert obs["stock_count"] == len(s.stock)
    assert "stock" not in obs and "hands" not in obs and "round_seed" not in obs
    text = json.dumps(obs)
    assert s.round_seed.hex() not in text
    shown = set(obs["hand"]) | set(obs["open_pile"]) | set(obs["removed"])
    shown |= {c for m in obs["table"] for c in m["cards"]}
    hidden = {c for seat in (0, 1, 3) for c in s.hands[seat]} | set(s.stock)
    assert not shown & hidden


def test_observation_log_shows_draws_without_the_stock_card(secret: bytes) -> None:
    s = new_round(J13, secret=secret, round_index=0)
    top = s.stock[0]
    s = s.apply(Draw("stock"))
    log = s.observation(0)["log"]
    assert log == [{"type": "action", "seat": 1, "action": {"type": "draw", "source": "stock"}}]
    assert str(top) not in json.dumps(log)


def test_observation_is_plain_json_and_matches_the_typed_view(secret: bytes) -> None:
    s = played(secret, 25, "jokeren7")
    for seat in range(4):
        obs = s.observation(seat)
        assert json.loads(json.dumps(obs)) == obs
        typed = s.observe(seat)
        assert list(typed.hand) == obs["hand"]
        assert typed.stock_count == obs["stock_count"]
        assert typed.may_lay_off == obs["may_lay_off"]
        assert typed.open_top == obs["open_top"]
        assert len(typed.log) == len(obs["log"])


def test_observation_has_scores_only_at_the_end(secret: bytes) -> None:
    end, _ = random_round(PRESETS["jokeren7"], secret=secret, round_index=0, rng=random.Random(1))
    assert end.observation(0)["scores"] == end.scores()
    assert end.observation(1)["final_hands"] == [list(h) for h in end.hands]
    start = new_round(J13, secret=secret, round_index=0)
    assert start.observation(0)["scores"] is None
    assert start.observation(0)["final_hands"] is None


@pytest.mark.parametrize(
    "action",
    [
        Draw("stock"),
        Draw("open"),
        LayMelds((((1, 2, 52), (None, None, (4, 0))), ((20, 21, 22), (None, None, None)))),
        LayOff(7, 2, None),
        LayOff(52, 0, (1, 3)),
        SwapJoker(9, 1),
        Discard(107),
    ],
)
def test_every_action_round_trips_through_json(action: object) -> None:
    data = action.to_json()  # type: ignore[attr-defined]
    assert action_from_json(json.loads(json.dumps(data))) == action


def test_action_json_shapes() -> None:
    assert LayOff(52, 0, (7, 2)).to_json() == {
        "type": "lay_off",
        "card": 52,
        "meld": 0,
        "stands_for": "7h",
    }
    assert LayMelds((((1, 2, 52), (None, None, None)),)).to_json() == {
        "type": "lay_melds",
        "melds": [{"cards": [1, 2, 52], "stands_for": [None, None, None]}],
    }


@pytest.mark.parametrize(
    "data",
    [
        {"type": "fly"},
        {"type": "draw", "source": "table"},
        {"type": "discard"},
        {"type": "discard", "card": 999},
        {"type": "lay_off", "card": 3, "meld": -1},
        {"type": "lay_melds", "melds": []},
        {"type": "lay_melds", "melds": [{"cards": [1, 2, 3], "stands_for": ["zz", None, None]}]},
    ],
)
def test_malformed_actions_are_refused(data: dict[str, object]) -> None:
    with pytest.raises(MalformedAction):
        action_from_json(data)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_state_json_round_trip(secret: bytes, preset: str) -> None:
    s = played(secret, 120, preset)
    again = state_from_json(json.loads(json.dumps(s.to_json())))
    assert again == s
    assert again.state_hash() == s.state_hash()
    assert again.legal_actions() == s.legal_actions()


def test_state_from_json_refuses_a_card_in_two_places(secret: bytes) -> None:
    data = new_round(J13, secret=secret, round_index=0).to_json()
    data["hands"][0][0] = data["hands"][1][0]
    with pytest.raises(ValueError, match="exactly one place"):
        state_from_json(data)


def test_state_hash_is_short_stable_and_changes_with_a_move(secret: bytes) -> None:
    s = new_round(J13, secret=secret, round_index=0)
    h = s.state_hash()
    assert len(h) == 16 and int(h, 16) >= 0
    assert new_round(J13, secret=secret, round_index=0).state_hash() == h
    assert s.apply(Draw("stock")).state_hash() != h


def test_replaying_the_log_gives_the_same_state(secret: bytes) -> None:
    s = played(secret, 200, "jokeren7")
    again = new_round(PRESETS["jokeren7"], secret=secret, round_index=1)
    for seat, action in s.actions():
        again = again.apply(action, seat=seat)
    assert again.state_hash() == s.state_hash()


def test_deal_summary_shape(secret: bytes) -> None:
    d = deal_summary(PRESETS["jokeren7"], secret=secret, round_index=0)
    assert set(d) == {"commitment", "hands", "open", "stock"}
    assert [len(h) for h in d["hands"]] == [7, 7, 7, 7]
    assert len(d["open"]) == 1 and len(d["stock"]) == 54 - 29


def test_meld_laid_with_unnamed_jokers_is_logged_with_their_cards() -> None:
    s = make_state(J13, hands=["7h 7c ** 2c", "3c", "4c", "5c"])
    by_code = {CARD_CODE[c]: c for c in s.hands[0]}
    meld = (by_code["7h"], by_code["7c"], by_code["**"])
    after = s.apply(LayMelds(((meld, (None, None, None)),)))
    logged = after.observation(0)["log"][-1]["action"]
    assert logged["melds"][0]["stands_for"] == [None, "7d", None]
    assert after.actions()[-1][1] == LayMelds(((after.table[0].cards, after.table[0].stands_for),))


def test_a_long_round_compares_copies_and_pickles(secret: bytes) -> None:
    import copy
    import pickle

    # potje 6 (all out at once) rarely ends in random play: the round runs to the limit
    end, _ = random_round(PRESETS["klassiek"], secret=secret, round_index=5, rng=random.Random(2))
    assert end.end_reason == "turn_limit" and len(end.log) > 800
    assert copy.deepcopy(end) == end
    assert pickle.loads(pickle.dumps(end)) == end
    assert hash(copy.deepcopy(end)) == hash(end)
    assert state_from_json(end.to_json()) == end


def test_open_takes_lists_who_took_which_open_card(secret: bytes) -> None:
    # docs/rules.md §2: a turn starts by drawing from the stock or taking the top card of the
    # open pile; the open pile and the log are public, so every seat sees who took what
    # (a draw from the stock shows no card)
    s = make_state(
        J13,
        hands=["2c 5d 9h", "3c 8d Qc", "4c 9d Kc", "5c Td Ac"],
        open_pile="Kd 7s",
        stock="Qh Jh Th",
        phase="draw",
    )
    assert s.open_takes == () and s.observe(2).open_takes == ()
    seven = s.open_pile[-1]
    s = s.apply(Draw("open")).apply(Discard(card(s, "2c")))
    eight = card(s, "8d", seat=1)
    s = s.apply(Draw("stock")).apply(Discard(eight))
    s = s.apply(Draw("open"))
    four = card(s, "4c", seat=2)
    s = s.apply(Discard(four)).apply(Draw("open"))
    expected = ((0, seven), (2, eight), (3, four))
    assert s.open_takes == expected
    for seat in range(4):
        assert s.observe(seat).open_takes == expected
    logged = [(e["seat"], e["card"]) for e in s.observation(1)["log"] if "card" in e]
    assert tuple(logged) == expected
    # stored games keep only the log: loading one gives the same list
    again = state_from_json(json.loads(json.dumps(s.to_json())))
    assert again.open_takes == expected and again == s
    assert new_round(J13, secret=secret, round_index=0).open_takes == ()
