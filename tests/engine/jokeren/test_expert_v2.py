"""Version 2 of the Jokeren expert: the strong bot's play, with a discard that the next
player is less likely to take; legal, deterministic, blind to what its seat cannot see;
version 1 stays what it was."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.dealing import Stream
from engine.jokeren import PRESETS, JokerenState, bot_action, new_round
from engine.jokeren.actions import DRAW_OPEN, Discard
from engine.jokeren.expert import (
    BOT_VERSION,
    BOT_VERSIONS,
    _known_in_hands,
    _unseen,
    _world,
    choose_expert,
    choose_expert_v2,
)

#: actions made per round in the legality test
MOVES = 90


def _positions(
    preset: str, rounds: int, levels: tuple[str, ...], version: int = 2
) -> Iterator[JokerenState]:
    """States where a bot is to move, over the first ``MOVES`` actions of some rounds."""
    variant = PRESETS[preset]
    for r in range(rounds):
        state = new_round(variant, secret=b"expert2" + bytes([r]), round_index=r)
        for _ in range(MOVES):
            if state.is_terminal:
                break
            yield state
            seat = state.current_player
            assert seat is not None
            state = state.apply(bot_action(state, level=levels[seat], version=version))


def test_version_2_is_the_current_one_and_version_1_stays() -> None:
    assert BOT_VERSION == 2
    assert BOT_VERSIONS == (1, 2)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_version_2_makes_only_legal_moves_in_every_seat(preset: str) -> None:
    """``apply`` raises on an illegal action: two rounds with the expert in every seat."""
    n = PRESETS[preset].num_players
    seats = {s.current_player for s in _positions(preset, 2, ("expert",) * n)}
    assert seats == set(range(n))


def test_version_1_of_the_expert_still_plays_its_own_choices() -> None:
    """``version=1`` answers with the first expert's choice, never version 2's."""
    differ = 0
    for state in _positions("jokeren13", 2, ("expert", "strong") * 2, version=1):
        seat = state.current_player
        assert seat is not None
        obs = state.observe(seat)
        first = choose_expert(
            obs, rng=Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
        )
        assert bot_action(state, level="expert", version=1) == first
        second = choose_expert_v2(
            obs, rng=Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
        )
        differ += second != first
    assert differ > 0


def test_version_2_sees_only_its_own_observation() -> None:
    """The same observation in worlds whose hidden cards (other hands, stock) differ gives
    the same choice for the same stream."""
    checked = 0
    for i, state in enumerate(_positions("jokeren7", 2, ("expert", "strong") * 2)):
        if state.phase == "draw" or i % 3:
            continue
        seat = state.current_player
        assert seat is not None
        obs = state.observe(seat)
        other = _world(obs, _known_in_hands(obs), _unseen(obs), Stream(b"other", "w"))
        assert other.hands != state.hands
        choices = {
            choose_expert_v2(s.observe(seat), rng=Stream(b"seed", f"bot:{seat}", start=3))
            for s in (state, other)
        }
        assert len(choices) == 1
        checked += 1
    assert checked > 5


def test_version_2_keeps_the_card_the_next_player_would_take() -> None:
    """Jokeren 7, deal 0 of the duplicate benchmark (secret ``00000000`` x 8, round 0),
    four strong bots, the fifth action: North discards. The strong bot's card is one the
    next player (East, a strong bot) takes from the open pile; the expert discards
    another card, which East does not take."""
    state = new_round(PRESETS["jokeren7"], secret=bytes(32), round_index=0)
    while state.move_count < 4:
        state = state.apply(bot_action(state, level="strong"))
    assert state.current_player == 2 and state.phase != "draw"
    strong = bot_action(state, level="strong")
    expert = bot_action(state, level="expert")
    assert isinstance(strong, Discard) and isinstance(expert, Discard)
    assert expert != strong
    assert bot_action(state.apply(strong), level="strong") == DRAW_OPEN
    assert bot_action(state.apply(expert), level="strong") != DRAW_OPEN
