"""Property tests over random legal play in random variants (hypothesis)."""

from __future__ import annotations

import itertools
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import IllegalMove
from engine.klaverjas import (
    KlaverjasState,
    PlayCard,
    Variant,
    bot_action,
    new_round,
    state_from_json,
)

variants = st.builds(
    Variant,
    name=st.just("random"),
    bidding=st.sampled_from(["one_round_first_chooses", "two_rounds", "no_passing"]),
    must_trump=st.booleans(),
    must_overtrump=st.booleans(),
    undertrump=st.sampled_from(["must_undertrump", "no_undertrump_while_other_suit"]),
    partner_exemption=st.booleans(),
    four_jacks=st.sampled_from([100, 200]),
    tie_is_nat=st.booleans(),
    max_redeals=st.integers(0, 2),
)


def _all_cards(state: KlaverjasState) -> list[int]:
    return sorted(
        [c for h in state.hands for c in h]
        + list(state.trick)
        + [c for t in state.tricks for c in t.cards]
    )


def _play_randomly(data: st.DataObject, variant: Variant, round_index: int):  # type: ignore[no-untyped-def]
    secret = data.draw(st.binary(min_size=32, max_size=32), label="secret")
    state = new_round(variant, secret=secret, round_index=round_index)
    actions = []
    states = [state]
    while not state.is_terminal:
        legal = state.legal_actions()
        assert legal, "a live state always has a legal action"
        action = legal[data.draw(st.integers(0, len(legal) - 1), label="choice")]
        actions.append(action)
        state = state.apply(action)
        states.append(state)
        assert len(actions) < 200
    return secret, actions, states


@settings(max_examples=60, deadline=None)
@given(data=st.data(), variant=variants, round_index=st.integers(0, 40))
def test_random_rounds(data: st.DataObject, variant: Variant, round_index: int) -> None:
    secret, actions, states = _play_randomly(data, variant, round_index)
    final = states[-1]
    # 32 cards always accounted for, once each
    for s in states:
        assert _all_cards(s) == list(range(32))
    # a round ends after 8 tricks of 4 cards
    assert len(final.tricks) == 8 and all(len(t.cards) == 4 for t in final.tricks)
    assert all(len(h) == 0 for h in final.hands) and final.current_player is None
    assert final.move_count == len(actions)
    # 162 card points plus all roem (plus the pit bonus) are shared out
    result = final.result()
    assert result is not None
    roem = sum(t.roem for t in final.tricks)
    pit = variant.pit if result.pit_team is not None else 0
    assert sum(result.scores) == 162 + roem + pit
    assert sum(result.points) == 162
    scores = final.scores()
    assert scores[0] == scores[2] == result.scores[0]
    assert scores[1] == scores[3] == result.scores[1]
    # replay from the seed gives the same state
    again = new_round(variant, secret=secret, round_index=round_index)
    for action in actions:
        again = again.apply(action)
    assert again.state_hash() == final.state_hash()
    # JSON round trip of every state
    for s in [*states[:: max(1, len(states) // 6)], final]:
        back = state_from_json(json.loads(json.dumps(s.to_json())))
        assert back == s and back.state_hash() == s.state_hash()


@settings(max_examples=60, deadline=None)
@given(data=st.data(), variant=variants, round_index=st.integers(0, 40))
def test_played_cards_obey_the_rule_text(
    data: st.DataObject, variant: Variant, round_index: int
) -> None:
    _secret, _actions, states = _play_randomly(data, variant, round_index)
    for before, after in itertools.pairwise(states):
        if before.phase != "play" or not before.trick:
            continue
        seat = before.current_player
        assert seat is not None and before.trump is not None
        hand = before.hands[seat]
        played = (set(hand) - set(after.hands[seat])).pop()
        led = before.trick[0] // 8
        if any(c // 8 == led for c in hand):
            assert played // 8 == led, "follow suit if you can"
        elif (
            variant.must_trump
            and not variant.partner_exemption
            and any(c // 8 == before.trump for c in hand)
            and (
                variant.undertrump == "must_undertrump"
                or not any(c // 8 == before.trump for c in before.trick)
            )
        ):
            assert played // 8 == before.trump, "without the led suit, trump"


@settings(max_examples=40, deadline=None)
@given(data=st.data(), variant=variants, round_index=st.integers(0, 40))
def test_cards_outside_the_legal_list_are_refused(
    data: st.DataObject, variant: Variant, round_index: int
) -> None:
    _secret, _actions, states = _play_randomly(data, variant, round_index)
    for state in states:
        if state.phase != "play" or state.current_player is None:
            continue
        legal = {a.card for a in state.legal_actions() if isinstance(a, PlayCard)}
        for card in range(32):
            if card in legal:
                continue
            try:
                state.apply(PlayCard(card))
            except IllegalMove as exc:
                assert type(exc) is not IllegalMove and exc.nl and exc.en
            else:
                raise AssertionError(f"card {card} was accepted but is not legal")


@settings(max_examples=25, deadline=None)
@given(
    variant=variants,
    round_index=st.integers(0, 40),
    secret=st.binary(min_size=32, max_size=32),
    levels=st.lists(st.sampled_from(["basic", "strong"]), min_size=4, max_size=4),
)
def test_bots_in_random_variants(
    variant: Variant, round_index: int, secret: bytes, levels: list[str]
) -> None:
    state = new_round(variant, secret=secret, round_index=round_index)
    while not state.is_terminal:
        seat = state.current_player
        assert seat is not None
        action = bot_action(state, level=levels[seat])
        assert action in state.legal_actions()
        state = state.apply(action)
    result = state.result()
    assert result is not None and len(state.tricks) == 8
    roem = sum(t.roem for t in state.tricks)
    pit = variant.pit if result.pit_team is not None else 0
    assert sum(result.scores) == 162 + roem + pit
