"""The Jokeren expert bot: legal in every seat and preset, deterministic, and blind to
what its seat cannot see; its sampled worlds agree with the observation."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest
from jokeren_helpers import make_state

from engine.cards import CARD_CODE
from engine.dealing import Stream
from engine.jokeren import PRESETS, Draw, JokerenState, LayMelds, bot_action, new_round
from engine.jokeren.bots.expert import _known_in_hands, _unseen, _world, choose_expert

#: actions made per round in the legality test (the expert takes some ms a decision)
MOVES = 90


def _positions(preset: str, rounds: int, levels: tuple[str, ...]) -> Iterator[JokerenState]:
    """States where a bot is to move, over the first ``MOVES`` actions of some rounds."""
    variant = PRESETS[preset]
    for r in range(rounds):
        state = new_round(variant, secret=b"expert" + bytes([r]), round_index=r)
        for _ in range(MOVES):
            if state.is_terminal:
                break
            yield state
            assert state.current_player is not None
            state = state.apply(bot_action(state, level=levels[state.current_player]))


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_expert_makes_only_legal_moves_in_every_seat(preset: str) -> None:
    """``apply`` raises on an illegal action: two rounds with the expert in every seat."""
    n = PRESETS[preset].num_players
    seats = set()
    for state in _positions(preset, 2, ("expert",) * n):
        seats.add(state.current_player)
    assert seats == set(range(n))


def test_the_expert_is_a_function_of_the_observation_and_the_stream() -> None:
    for i, state in enumerate(_positions("jokeren7", 1, ("expert", "strong") * 2)):
        if i % 4:
            continue
        seat = state.current_player
        assert seat is not None
        obs = state.observe(seat)
        first = choose_expert(obs, rng=Stream(b"seed", f"bot:{seat}", start=7))
        assert choose_expert(obs, rng=Stream(b"seed", f"bot:{seat}", start=7)) == first


def test_a_world_holds_every_card_once_and_what_the_seat_knows() -> None:
    """Every sampled world has the seat's own hand, the public cards, the hand sizes and
    the stock size of the observation, every card of the pack exactly once, and the
    cards another seat took from the open pile (and still holds) in that seat's hand."""
    checked = 0
    for state in _positions("jokeren13", 2, ("strong",) * 4):
        seat = state.current_player
        assert seat is not None
        obs = state.observe(seat)
        known = _known_in_hands(obs)
        world = _world(obs, known, _unseen(obs), Stream(b"w", "x", start=state.move_count))
        assert world.hands[seat] == state.hands[seat]
        assert [len(h) for h in world.hands] == [len(h) for h in state.hands]
        assert len(world.stock) == len(state.stock)
        assert (world.open_pile, world.table, world.removed) == (
            state.open_pile,
            state.table,
            state.removed,
        )
        every = [c for h in world.hands for c in h] + list(world.stock) + list(world.open_pile)
        every += [c for m in world.table for c in m.cards] + list(world.removed)
        assert Counter(every) == Counter(range(108))
        for other, cards in enumerate(known):
            assert set(cards) <= set(state.hands[other])
            assert set(cards) <= set(world.hands[other])
            checked += len(cards)
    assert checked > 0


def test_a_card_taken_from_the_open_pile_is_known_until_it_is_laid() -> None:
    state = make_state(
        PRESETS["jokeren13"],
        hands=["5h 6h Kc 2d 9s Jc 4c", "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        open_pile="7h",
        phase="draw",
    )
    state = state.apply(Draw("open"))
    taken = state.open_takes[-1][1]
    assert _known_in_hands(state.observe(1))[0] == [taken]
    run = tuple(c for c in state.hands[0] if CARD_CODE[c] in ("5h", "6h", "7h"))
    state = state.apply(LayMelds(((run, (None, None, None)),)))
    assert _known_in_hands(state.observe(1))[0] == []


@pytest.mark.parametrize("levels", [("expert", "strong") * 2, ("strong", "expert") * 2])
def test_a_rollout_bot_that_errs_does_not_stop_the_expert(levels: tuple[str, ...]) -> None:
    """In a world of deal 11 of the duplicate benchmark a strong bot of the rollout swaps
    a joker that leaves it nothing to discard (an illegal move): the rollout ends there
    and the expert still chooses."""
    import engine.jokeren as jokeren
    from engine.match import play_round

    secret = (11).to_bytes(4, "big") * 8
    state, _ = play_round(jokeren, PRESETS["jokeren7"], secret=secret, round_index=3, levels=levels)
    assert state.is_terminal
