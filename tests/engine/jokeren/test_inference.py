"""The reasonable-player likelihood of a world's hidden hands (research, no bot uses it):
the evidence points the right way, no weight is zero, the open pile is rebuilt right and
everything is a function of the stream."""

from __future__ import annotations

import math

import pytest

from engine.dealing import Stream
from engine.jokeren import PRESETS, Discard, Draw, JokerenState, bot_action, new_round
from engine.jokeren.bots.expert import _known_in_hands, _unseen, _world
from engine.jokeren.bots.hand import KIND
from engine.jokeren.bots.inference import (
    Event,
    Model,
    public_events,
    sample_posterior,
    seat_log_likelihood,
    select_worlds,
    world_log_weight,
)

MODEL = Model()


def _card(code: str) -> int:
    """A one-deck card id (its kind) from e.g. ``7h``: suits in the order c, d, h, s."""
    rank = "A23456789TJQK".index(code[0]) + 1
    return "cdhs".index(code[1]) * 13 + rank - 1


def _hand(*codes: str) -> list[int]:
    return [_card(c) for c in codes]


def test_taking_an_open_card_that_makes_a_set_weighs_for_the_pair_in_hand() -> None:
    took = [Event("take", 1, (_card("7h"),))]
    pair = _hand("7h", "7c", "7s", "2d", "Jc")
    none = _hand("7h", "3c", "Ks", "2d", "Jc")
    assert seat_log_likelihood(pair, 1, took, MODEL) > seat_log_likelihood(none, 1, took, MODEL)


def test_passing_an_open_card_weighs_against_cards_it_would_have_joined() -> None:
    passed = [Event("pass", 1, (_card("7h"),))]
    run = _hand("8h", "9h", "2d", "Jc")
    loose = _hand("3c", "Ks", "2d", "Jc")
    assert seat_log_likelihood(run, 1, passed, MODEL) < seat_log_likelihood(loose, 1, passed, MODEL)


def test_a_discard_that_pairs_with_the_hand_is_less_likely_than_a_loose_one() -> None:
    hand = _hand("9c", "4d", "5d", "Qs")
    pairs = [Event("discard", 1, (_card("9h"),))]  # the 9c's partner
    loose = [Event("discard", 1, (_card("2h"),))]  # of no use to the hand
    assert seat_log_likelihood(hand, 1, pairs, MODEL) < seat_log_likelihood(hand, 1, loose, MODEL)


def test_only_the_seats_own_actions_count() -> None:
    events = [Event("discard", 2, (_card("9h"),)), Event("pass", 3, (_card("7h"),))]
    assert seat_log_likelihood(_hand("9c", "8h"), 1, events, MODEL) == 0.0


def _round(preset: str, moves: int, r: int = 0) -> JokerenState:
    state = new_round(PRESETS[preset], secret=b"inference" + bytes([r]), round_index=r)
    for _ in range(moves):
        after = state.apply(bot_action(state, level="strong"))
        if after.is_terminal:
            break  # a state with a seat to move
        state = after
    return state


@pytest.mark.parametrize("preset", ["jokeren7", "jokeren13"])
def test_the_weights_are_never_zero(preset: str) -> None:
    """Even worlds that contradict every action keep a finite log-weight: each action's
    probability is at least its floor."""
    state = _round(preset, 40)
    seat = state.current_player
    assert seat is not None
    obs = state.observe(seat)
    events = public_events(obs)
    harsh = Model(take_loose=0.0, take_near=0.0, take_meld=1.0, beta=50.0)
    rng = Stream(b"w" * 32, "t")
    known, unseen = _known_in_hands(obs), _unseen(obs)
    for _ in range(10):
        world = _world(obs, known, unseen, rng)
        for model in (MODEL, harsh):
            w = world_log_weight(world, seat, events, model)
            assert math.isfinite(w)
            actions = sum(1 for e in events if e.seat != seat and e.what in ("take", "pass"))
            actions += sum(1 for e in events if e.seat != seat and e.what == "discard")
            assert w >= actions * math.log(model.floor / 30)


@pytest.mark.parametrize(
    ("preset", "rounds"),
    # every preset (one or two decks, with or without an open card, complete melds
    # recycled or removed); round 15 of Jokeren 7 reshuffles the open pile
    [(p, (0, 1, 2)) for p in PRESETS] + [("jokeren7", (15,))],
)
def test_public_events_name_the_open_card_each_stock_draw_passed(
    preset: str, rounds: tuple[int, ...]
) -> None:
    """Played forward, the open pile's top at every draw from the stock is the card the
    events (rebuilt from the log) say was passed; but a card of the deal's open pile
    (never discarded) that a reshuffle took into the stock is no longer known."""
    for r in rounds:
        state = new_round(PRESETS[preset], secret=b"events" + bytes([r]), round_index=r % 8)
        dealt = set(state.open_pile)
        passed: list[tuple[int, int]] = []
        of_deal: list[tuple[int, int]] = []
        while not state.is_terminal:
            action = bot_action(state, level="strong")
            if action == Draw("stock") and state.open_pile:
                assert state.current_player is not None
                top = state.open_pile[-1]
                passed.append((state.current_player, KIND[top]))
                if top in dealt:
                    of_deal.append(passed[-1])
            elif isinstance(action, Discard):
                dealt.discard(action.card)
            state = state.apply(action)
        events = public_events(state.observe(0))
        got = [(e.seat, e.kinds[0]) for e in reversed(events) if e.what == "pass"]
        if any(e[0] == "reshuffle" for e in state.log):
            passed = [p for p in passed if p not in of_deal]
        else:
            assert r != 15
        assert got == passed


def test_the_choice_of_worlds_is_a_function_of_the_stream() -> None:
    state = _round("jokeren13", 50)
    seat = state.current_player
    assert seat is not None
    obs = state.observe(seat)
    events = public_events(obs)
    known, unseen = _known_in_hands(obs), _unseen(obs)

    def pick(how: str) -> list[JokerenState]:
        rng = Stream(b"d" * 32, "t")
        pool = [_world(obs, known, unseen, rng) for _ in range(12)]
        weights = [world_log_weight(w, seat, events, MODEL) for w in pool]
        if how == "mcmc":
            return sample_posterior(pool[0], seat, known, events, MODEL, rng, 3, 20, 5)
        return select_worlds(pool, weights, 4, rng, how)

    for how in ("top", "resample", "mcmc"):
        first, again = pick(how), pick(how)
        assert [w.hands for w in first] == [w.hands for w in again]
        assert [w.stock for w in first] == [w.stock for w in again]


def test_the_chain_moves_only_hidden_cards() -> None:
    """The posterior worlds keep the seat's hand, the cards the log places, every hand's
    size and the set of hidden cards."""
    state = _round("jokeren7", 30, r=1)
    seat = state.current_player
    assert seat is not None
    obs = state.observe(seat)
    known, unseen = _known_in_hands(obs), _unseen(obs)
    rng = Stream(b"c" * 32, "t")
    start = _world(obs, known, unseen, rng)
    hidden = sorted(c for s, h in enumerate(start.hands) if s != seat for c in h)
    hidden = sorted([*hidden, *start.stock])
    for world in sample_posterior(start, seat, known, public_events(obs), MODEL, rng, 4, 30, 10):
        assert world.hands[seat] == obs.hand
        assert [len(h) for h in world.hands] == [len(h) for h in start.hands]
        for s, cards in enumerate(known):
            assert set(cards) <= set(world.hands[s])
        now = sorted(
            [*(c for s, h in enumerate(world.hands) if s != seat for c in h), *world.stock]
        )
        assert now == hidden
