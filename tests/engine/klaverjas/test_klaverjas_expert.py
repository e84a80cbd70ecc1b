"""The Klaverjas expert bot, version 1: its double-dummy search is exact, it plays only
legal cards, it is deterministic and it reads only its own observation (its released
choices are pinned by tests/engine/test_bot_fingerprints.py; version 2 is in
test_klaverjas_expert_v2)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest

from engine.dealing import Stream
from engine.klaverjas import PRESETS, KlaverjasState, PlayCard, Variant, new_round
from engine.klaverjas.actions import Action
from engine.klaverjas.bots.expert_v1 import _Search
from engine.klaverjas.bots.versions import bot_action as expert_action
from engine.klaverjas.bots.versions import choose_expert
from engine.klaverjas.rules import legal_cards
from engine.klaverjas.variants import AMSTERDAMS, ROTTERDAMS

VARIANTS = (
    ROTTERDAMS,
    AMSTERDAMS,
    Variant(name="free", must_trump=False, must_overtrump=False),
    Variant(name="unie", undertrump="no_undertrump_while_other_suit"),
    Variant(
        name="unie-amsterdams", partner_exemption=True, undertrump="no_undertrump_while_other_suit"
    ),
)


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.name)
def test_the_search_allows_the_cards_the_rules_allow(variant: Variant) -> None:
    rng = random.Random(5)
    for _ in range(3000):
        cards = rng.sample(range(32), 12)
        trump = rng.randrange(4)
        trick = cards[: rng.randrange(4)]
        hand = cards[4 : 4 + rng.randrange(1, 9)]
        search = _Search(trump, variant, 10, 10**9)
        got = search.legal(_mask(hand), tuple(trick))
        assert got == _mask(legal_cards(hand, trick, trump, variant)), (hand, trick, trump)


def bot_action(state: KlaverjasState, *, level: str) -> Action:
    """A bot of ``level``, the expert in its version 1."""
    return expert_action(state, level=level, version=1)


def _brute_force(state: KlaverjasState) -> int:
    """Team 0's card points and roem minus team 1's in the rest of the round, every hand
    open, by trying every legal card (the rules engine's own play)."""
    if state.is_terminal:
        return 0
    done = len(state.tricks)
    values = []
    for action in state.legal_actions():
        after = state.apply(action)
        gain = 0
        if len(after.tricks) > done:
            t = after.tricks[-1]
            gain = t.points + t.roem + (state.variant.last_trick if after.is_terminal else 0)
            gain = gain if t.winner % 2 == 0 else -gain
        values.append(gain + _brute_force(after))
    return max(values) if state.current_player in (0, 2) else min(values)


def _endgames(variant: Variant, tricks_left: int, count: int) -> Iterator[KlaverjasState]:
    """States of bot-played rounds with ``tricks_left`` tricks to go (the trick partly
    played in some)."""
    for r in range(count):
        state = new_round(variant, secret=b"endgame" + bytes([r]), round_index=r)
        while not state.is_terminal:
            if (
                state.phase == "play"
                and 8 - len(state.tricks) == tricks_left
                and (len(state.trick) == r % 4)
            ):
                yield state
                break
            state = state.apply(bot_action(state, level="strong"))


@pytest.mark.parametrize("variant", [ROTTERDAMS, AMSTERDAMS], ids=lambda v: v.name)
def test_the_double_dummy_value_is_the_best_play_of_both_teams(variant: Variant) -> None:
    checked = 0
    for state in _endgames(variant, 3, 24):
        assert state.trump is not None
        search = _Search(state.trump, variant, variant.last_trick, 10**9)
        hands = [_mask(list(h)) for h in state.hands]
        assert search.value(hands, state.leader, state.trick) == _brute_force(state)
        checked += 1
    assert checked >= 20


def test_the_last_trick_counts_its_cards_roem_and_bonus() -> None:
    # clubs trump; 9c 8c 7c Ac: a sequence of three (7 8 9), won by the nine of trump
    hands = [1 << 2, 1 << 1, 1 << 0, 1 << 7]  # seat 0: 9c, 1: 8c, 2: 7c, 3: Ac
    search = _Search(0, ROTTERDAMS, 10, 10**9)
    assert search.value(hands, 0, ()) == (14 + 11) + 20 + 10
    # led by seat 1 (8c): the nine of seat 0 still wins it for team 0
    assert search.value(hands, 1, ()) == (14 + 11) + 20 + 10
    # the ace in seat 0 and the nine in seat 3: team 1 wins it
    hands = [1 << 7, 1 << 1, 1 << 0, 1 << 2]
    assert search.value(hands, 0, ()) == -((14 + 11) + 20 + 10)


def _positions(preset: str, rounds: int) -> Iterator[KlaverjasState]:
    """Every state of rounds played by expert bots where a seat has two or more cards."""
    variant = PRESETS[preset]
    for r in range(rounds):
        state = new_round(variant, secret=b"expert" + bytes([r]), round_index=r)
        while not state.is_terminal:
            legal = state.legal_actions()
            action = bot_action(state, level="expert")
            assert action in legal
            if len(legal) > 1:
                yield state
            state = state.apply(action)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_expert_plays_legal_cards_in_every_seat(preset: str) -> None:
    seats = set()
    for state in _positions(preset, 12):
        seats.add(state.current_player)
    assert seats == {0, 1, 2, 3}


def test_the_expert_is_a_function_of_the_observation_and_the_stream() -> None:
    for state in _positions("rotterdams", 2):
        seat = state.current_player
        assert seat is not None
        obs = state.observe(seat)
        first = choose_expert(obs, rng=Stream(b"seed", f"bot:{seat}", start=3), version=1)
        again = choose_expert(obs, rng=Stream(b"seed", f"bot:{seat}", start=3), version=1)
        assert again == first
        assert bot_action(state, level="expert") == bot_action(state, level="expert")


def test_the_expert_does_not_see_the_other_hands() -> None:
    """Swapping cards of one side suit between two other hands (so every void and trump
    shown stays true) never changes the expert's card."""
    changed = 0
    for state in _positions("amsterdams", 4):
        seat = state.current_player
        if state.phase != "play" or 8 - len(state.tricks) > 4 or seat is None:
            continue
        a, b = [s for s in range(4) if s != seat][:2]
        hands = [list(h) for h in state.hands]
        pair = next(
            (
                (x, y)
                for x in hands[a]
                for y in hands[b]
                if x // 8 == y // 8 and x // 8 != state.trump
            ),
            None,
        )
        if pair is None:
            continue
        x, y = pair
        hands[a] = sorted([c for c in hands[a] if c != x] + [y])
        hands[b] = sorted([c for c in hands[b] if c != y] + [x])
        other = dataclasses.replace(state, hands=tuple(tuple(h) for h in hands))
        assert isinstance(bot_action(other, level="expert"), PlayCard)
        assert bot_action(other, level="expert") == bot_action(state, level="expert")
        changed += 1
    assert changed >= 5
