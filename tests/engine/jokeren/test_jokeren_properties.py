"""Properties of random play (hypothesis): every card is in exactly one place, every
listed action applies, every round ends, the log replays to the same state, and the
state round-trips through JSON."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import CARD_RANK
from engine.errors import IllegalMove
from engine.jokeren import PRESETS, JokerenState, new_round, state_from_json


def check_cards(state: JokerenState) -> None:
    """Every card of the pack is in exactly one place."""
    places = [c for h in state.hands for c in h]
    places += [*state.stock, *state.open_pile, *state.removed]
    places += [c for m in state.table for c in m.cards]
    assert sorted(places) == list(range(state.variant.pack_size))
    for meld in state.table:
        assert not meld.is_complete


def check_listed_actions(state: JokerenState) -> None:
    """Every listed action applies without error and leaves a discard possible."""
    for action in state.legal_actions():
        after = state.apply(action)
        check_cards(after)
        if not after.is_terminal and after.phase == "play":
            assert after.legal_actions(), "a player must never be stuck"


presets = st.sampled_from(sorted(PRESETS))
secrets = st.binary(min_size=1, max_size=32)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=presets, secret=secrets, round_index=st.integers(0, 11), seed=st.integers())
def test_random_play_keeps_every_card_in_one_place_and_ends(
    preset: str, secret: bytes, round_index: int, seed: int
) -> None:
    rng = random.Random(seed)
    variant = PRESETS[preset]
    state = new_round(variant, secret=secret, round_index=round_index)
    steps = 0
    while not state.is_terminal:
        check_cards(state)
        if steps % 3 == 0:
            check_listed_actions(state)
        actions = state.legal_actions()
        assert actions
        state = state.apply(rng.choice(actions))
        steps += 1
        assert state.turn <= variant.turn_limit
    check_cards(state)
    assert state.legal_actions() == []
    scores = state.scores()
    assert len(scores) == variant.num_players
    if state.winner is not None:
        assert scores[state.winner] == 0
    assert state.end_reason in ("out", "stock", "turn_limit")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=presets,
    secret=secrets,
    round_index=st.integers(0, 11),
    seed=st.integers(),
    stop=st.integers(0, 400),
)
def test_log_replays_and_json_round_trips(
    preset: str, secret: bytes, round_index: int, seed: int, stop: int
) -> None:
    rng = random.Random(seed)
    variant = PRESETS[preset]
    state = new_round(variant, secret=secret, round_index=round_index)
    while not state.is_terminal and state.move_count < stop:
        state = state.apply(rng.choice(state.legal_actions()))
    again = new_round(variant, secret=secret, round_index=round_index)
    for seat, action in state.actions():
        again = again.apply(action, seat=seat)
    assert again.state_hash() == state.state_hash()
    assert again == state
    copy = state_from_json(json.loads(json.dumps(state.to_json())))
    assert copy == state and copy.state_hash() == state.state_hash()
    for seat in range(variant.num_players):
        assert json.loads(json.dumps(state.observation(seat))) == state.observation(seat)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=presets, secret=secrets, round_index=st.integers(0, 11), seed=st.integers())
def test_the_log_only_grows_and_log_json_gives_it_from_any_entry(
    preset: str, secret: bytes, round_index: int, seed: int
) -> None:
    """Within a round the public log only grows (every earlier entry stays as it was), so a
    player shown its first ``k`` entries needs only ``log_json(k)``; ``observation(seat,
    log=False)`` is the observation without its ``"log"`` key, nothing else changed."""
    rng = random.Random(seed)
    state = new_round(PRESETS[preset], secret=secret, round_index=round_index)
    shown: list[object] = []
    while True:
        full = state.observation(0)
        log = full["log"]
        assert log[: len(shown)] == shown
        assert state.log_length == len(log)
        for start in {len(shown), len(log), len(log) + 20, rng.randrange(len(log) + 1)}:
            assert state.log_json(start) == log[start:]
        for seat in range(state.variant.num_players) if state.move_count % 5 == 0 else ():
            without = state.observation(seat, log=False)
            assert "log" not in without
            assert without == {k: v for k, v in state.observation(seat).items() if k != "log"}
        shown = log
        if state.is_terminal:
            break
        state = state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=30, deadline=None)
@given(preset=presets, secret=secrets, seed=st.integers(), junk=st.integers(-5, 120))
def test_illegal_actions_raise_illegal_move_and_change_nothing(
    preset: str, secret: bytes, seed: int, junk: int
) -> None:
    from engine.jokeren import Discard, LayOff, SwapJoker

    rng = random.Random(seed)
    state = new_round(PRESETS[preset], secret=secret, round_index=0)
    for _ in range(rng.randrange(60)):
        if state.is_terminal:
            return
        state = state.apply(rng.choice(state.legal_actions()))
    before = state.state_hash()
    legal = state.legal_actions()
    for action in (Discard(junk % 108), LayOff(junk % 108, junk), SwapJoker(junk % 108, 0)):
        if action in legal:
            continue
        if isinstance(action, LayOff | SwapJoker) and state.is_legal(action):
            continue  # a joker choice or copy not listed separately
        try:
            state.apply(action)
        except IllegalMove as exc:
            assert exc.nl and exc.en and exc.code
        else:
            raise AssertionError(f"{action} was applied though not legal")
    assert state.state_hash() == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=presets, secret=secrets, seed=st.integers(), moves=st.integers(0, 300))
def test_every_legal_lay_off_swap_and_discard_is_listed(
    preset: str, secret: bytes, seed: int, moves: int
) -> None:
    from engine.jokeren import Discard, LayOff, SwapJoker

    rng = random.Random(seed)
    state = new_round(PRESETS[preset], secret=secret, round_index=seed % 8)
    for _ in range(moves):
        if state.is_terminal:
            return
        state = state.apply(rng.choice(state.legal_actions()))
    if state.is_terminal or state.phase != "play":
        return
    listed = set(state.legal_actions())
    seat = state.current_player
    assert seat is not None
    candidates: list[object] = []
    for card in state.hands[seat]:
        candidates.append(Discard(card))
        for i in range(len(state.table)):
            candidates.append(SwapJoker(card, i))
            candidates.append(LayOff(card, i))
            candidates += [LayOff(card, i, (r, s)) for r in range(1, 14) for s in range(4)]
    for action in candidates:
        expected = action in listed
        if isinstance(action, LayOff) and action.stands_for is None and not CARD_RANK[action.card]:
            # a joker laid off without naming its card takes the first listed choice
            expected = any(
                isinstance(a, LayOff) and (a.card, a.meld_index) == (action.card, action.meld_index)
                for a in listed
            )
        assert state.is_legal(action) == expected, action  # type: ignore[arg-type]
