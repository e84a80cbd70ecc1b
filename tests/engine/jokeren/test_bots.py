"""Jokeren bots: legal, deterministic, blind to hidden cards, and sensible (docs/rules.md §2-4)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jokeren_helpers import ids, make_state

import engine.jokeren as jokeren
import engine.jokeren.bots as bots
from engine.cards import CARD_CODE, CARD_POINTS, is_joker
from engine.dealing import Stream
from engine.jokeren import (
    BOT_LEVELS,
    PRESETS,
    Discard,
    Draw,
    JokerenObservation,
    JokerenState,
    LayMelds,
    LayOff,
    SwapJoker,
    bot_action,
    new_round,
    state_from_json,
)
from engine.jokeren.bots import (
    basic,
    choose,
    going_out_line,
    hand_partition,
    open_card_goes_out,
    table,
    view_of,
)
from engine.jokeren.melds import InvalidMeld, check_meld, meld_verdict
from engine.jokeren.state import SeatView
from engine.match import play_round

MIXES = (
    ("basic",) * 4,
    ("strong",) * 4,
    ("strong", "basic", "strong", "basic"),
)


def positions(preset: str, rounds: int, levels: tuple[str, ...]) -> Iterator[JokerenState]:
    """Every state where a bot is to move, over some seeded rounds."""
    variant = PRESETS[preset]
    for r in range(rounds):
        state = new_round(variant, secret=b"positions" + bytes([r]), round_index=r)
        while not state.is_terminal:
            yield state
            assert state.current_player is not None
            state = state.apply(bot_action(state, level=levels[state.current_player]))


def codes(state: JokerenState, seat: int) -> list[str]:
    return [CARD_CODE[c] for c in state.hands[seat]]


def play_turn(state: JokerenState, level: str) -> tuple[JokerenState, list[object]]:
    """Let the bot to move play its whole turn."""
    seat = state.current_player
    actions: list[object] = []
    while state.current_player == seat:
        action = bot_action(state, level=level)
        actions.append(action)
        state = state.apply(action)
    return state, actions


# --- hand analysis ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "loose", "points"),
    [
        ("7h 7c 7s Kd", ["Kd"], 10),  # a group of three (seed 000)
        ("2s 3s 4s 5s 9d", ["9d"], 9),  # a run of four
        ("Qh Kh Ah 2h 3h", ["2h", "3h"], 5),  # ace high leaves less than A-2-3
        ("5h 7h ** 9h Jh", ["5h", "7h"], 12),  # the joker fills the dearer gap
        ("Kh Ah 2h 9c", ["2h", "9c", "Ah", "Kh"], 32),  # K-A-2 is no run
        ("7h 7c ** 2d 3d 4d 5d 6d 7d", [], 0),  # everything in melds
        ("** Kc 9d 5h 2s 7c", ["2s", "5h", "7c", "9d", "Kc", "**"], 58),  # no meld at all
        # three jokers: two go with a card alone, the third fills a run
        ("** ** ** Kc 5h 7h", [], 0),
        ("** ** ** 9c 9d 9h 9s 2d", [], 0),
    ],
)
def test_hand_partition_leaves_the_fewest_points(hand: str, loose: list[str], points: int) -> None:
    part = hand_partition(ids(hand))
    assert part.cost == points
    left = [CARD_CODE[k] for k in part.loose] + ["**"] * part.loose_jokers
    assert sorted(left) == sorted(loose)
    for meld in part.melds:
        codes_ = [CARD_CODE[k] for k in meld.naturals] + ["**"] * len(meld.jokers)
        assert meld_verdict(codes_)[0], codes_


def test_hand_partition_puts_a_spare_joker_in_a_group_of_three() -> None:
    """Four tens, an ace and a joker: three tens and the joker make a group of four, so a
    ten (10) and the ace (11) stay, 21 points; the four tens together leave the joker loose
    (36 points, what the analysis found before)."""
    part = hand_partition(ids("Tc Td Th Ts Ah **"))
    assert part.cost == 21
    assert part.loose_jokers == 0
    assert sorted(CARD_CODE[k][0] for k in part.loose) == ["A", "T"]


def _fewest_points_by_search(hand: list[int]) -> int:
    """The least penalty a hand can keep (docs/rules.md §2: the points of the cards not in a
    meld), by trying every set of disjoint melds; a meld is whatever the rules' own meld
    check accepts."""
    n = len(hand)
    melds = []
    for mask in range(1, 1 << n):
        if mask.bit_count() >= 3:
            try:
                check_meld([hand[i] for i in range(n) if mask >> i & 1])
            except InvalidMeld:
                continue
            melds.append(mask)
    memo: dict[int, int] = {}

    def best(left: int) -> int:
        if not left:
            return 0
        if left in memo:
            return memo[left]
        low = left & -left
        first = low.bit_length() - 1
        out = CARD_POINTS[hand[first]] + best(left & ~low)
        for m in melds:
            if m & low and m & left == m:
                out = min(out, best(left & ~m))
        memo[left] = out
        return out

    return best((1 << n) - 1)


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=3, max_value=9).flatmap(
        lambda n: st.lists(st.integers(0, 107), min_size=n, max_size=n, unique=True)
    ),
    st.lists(st.sampled_from([52, 53, 106, 107]), max_size=4, unique=True),
)
def test_hand_partition_is_the_least_penalty_of_any_split(
    hand: list[int], jokers: list[int]
) -> None:
    """Checked against a search over every set of melds of the hand (one or two decks,
    any number of jokers)."""
    hand = [*dict.fromkeys([*hand[: 9 - len(jokers)], *jokers])]
    part = hand_partition(hand)
    assert part.cost == _fewest_points_by_search(hand)
    # the melds and the loose cards are the hand's cards, and every meld is a meld
    laid = [CARD_CODE[k] for m in part.melds for k in m.naturals]
    loose = [CARD_CODE[k] for k in part.loose]
    assert sorted(laid + loose) == sorted(CARD_CODE[c] for c in hand if not is_joker(c))
    for meld in part.melds:
        codes_ = [CARD_CODE[k] for k in meld.naturals] + ["**"] * len(meld.jokers)
        assert meld_verdict(codes_)[0], codes_


def test_hand_partition_by_cards_prefers_fewer_cards() -> None:
    """Three aces (33 points) leave 2-3 of clubs and of diamonds (10 points, four cards);
    the runs A-2-3 of clubs and of diamonds leave one ace (11 points, one card). Points
    scoring keeps the group, cards scoring (Klassiek) the runs."""
    hand = ids("Ac Ad As 2c 3c 2d 3d")
    by_points = hand_partition(hand)
    assert sorted(CARD_CODE[k] for k in by_points.loose) == ["2c", "2d", "3c", "3d"]
    by_cards = hand_partition(hand, by_cards=True)
    assert [CARD_CODE[k] for k in by_cards.loose] == ["As"]


# --- legal moves, over many seeded rounds ----------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_bots_only_make_legal_moves(preset: str) -> None:
    variant = PRESETS[preset]
    rounds = out = 0
    for r in range(8):
        for levels in MIXES:
            state = new_round(variant, secret=b"legal" + bytes([r]), round_index=r)
            while not state.is_terminal:
                seat = state.current_player
                assert seat is not None
                action = bot_action(state, level=levels[seat])
                # apply raises an IllegalMove for an illegal action
                after = state.apply(action)
                if isinstance(action, Discard) and is_joker(action.card):
                    # a joker goes only when nothing else may be discarded
                    taken = state.taken_from_open
                    others = [
                        c
                        for c in state.hands[seat]
                        if not is_joker(c) and (taken is None or CARD_CODE[c] != CARD_CODE[taken])
                    ]
                    assert not others, (codes(state, seat), action)
                state = after
            rounds += 1
            out += state.end_reason == "out"
    # the bots go out: rounds end because a player has no cards left
    assert out >= 0.9 * rounds


@pytest.mark.parametrize(
    ("preset", "changes"),
    [
        ("jokeren13", {"num_players": 3}),
        ("klassiek", {"num_players": 3}),
        ("jokeren7", {"first_cycle_no_meld": True, "decks": 2}),
        ("jokeren13", {"lay_off_same_turn": True, "complete_meld": "recycle"}),
        ("veertigen", {"opening_points": 60, "scoring": "cards"}),
        ("jokeren7", {"hand_size": 10, "turn_limit": 40}),
    ],
)
def test_bots_only_make_legal_moves_in_changed_variants(
    preset: str, changes: dict[str, object]
) -> None:
    """Every field of a variant is configurable (docs/rules.md §3): the bots follow it."""
    variant = dataclasses.replace(PRESETS[preset], **changes)  # type: ignore[arg-type]
    n = variant.num_players
    for r in range(4):
        for levels in (("basic",) * n, ("strong",) * n):
            state, _ = play_round(
                jokeren, variant, secret=b"custom" + bytes([r]), round_index=r, levels=levels
            )
            assert state.is_terminal


# --- determinism and what a bot may see ------------------------------------------------


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_same_state_same_action(level: str) -> None:
    for i, state in enumerate(positions("jokeren13", 2, ("strong",) * 4)):
        if i % 3:
            continue
        first = bot_action(state, level=level)
        assert bot_action(state, level=level) == first
        assert bot_action(state_from_json(state.to_json()), level=level) == first


@pytest.mark.parametrize("preset", list(PRESETS))
def test_basic_bot_plays_as_its_whole_decision(preset: str) -> None:
    """``bot_action`` takes quick paths for a basic bot (the draw, and a discard when
    nothing can be laid, swapped or laid off); they choose what ``decide`` chooses on the
    whole view (after the going-out rules: the open card that lets it go out, the line that
    goes out), in every position of rounds where the seats play at both levels."""
    checked = 0
    for state in positions(preset, 6, ("basic", "strong", "basic", "strong")):
        assert state.current_player is not None
        obs = state.observe(state.current_player)
        whole = basic.decide(view_of(obs, strong=False))
        if obs.phase == "draw":
            if whole == Draw("stock") and open_card_goes_out(obs):
                whole = Draw("open")
            assert basic.draw(obs) == whole
            assert basic.draw(state.seat_view(obs.seat)) == whole
        else:
            line = going_out_line(obs)
            expected = whole if line is None else line[0]
            assert basic.play(obs) == expected
            assert basic.play(state.seat_view(obs.seat)) == expected
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_basic_view_is_the_same_from_the_seat_view(preset: str) -> None:
    """A basic bot makes its whole view (``view_of``) from its seat's narrow view: the same
    view as from the whole observation, in every position of some rounds."""
    checked = 0
    for state in positions(preset, 6, ("basic", "strong", "basic", "strong")):
        assert state.current_player is not None
        seat = state.current_player
        narrow = view_of(state.seat_view(seat), strong=False)
        assert narrow == view_of(state.observe(seat), strong=False)
        checked += 1
    assert checked > 100
    with pytest.raises(TypeError):
        view_of(state.seat_view(0), strong=True)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_seat_view_is_part_of_the_observation(preset: str) -> None:
    """The basic bot's narrow view of a seat (``JokerenState.seat_view``) holds only
    fields of that seat's observation, each with the observation's value, for every seat
    (the one to move and the others) in every position of some rounds."""
    names = {f.name for f in dataclasses.fields(JokerenObservation)}
    assert set(SeatView._fields) <= names
    checked = 0
    for state in positions(preset, 3, ("basic", "strong", "basic", "strong")):
        for seat in range(state.variant.num_players):
            view = state.seat_view(seat)
            obs = state.observe(seat)
            for name in SeatView._fields:
                assert getattr(view, name) == getattr(obs, name), name
            checked += 1
    assert checked > 100


def test_table_view_does_not_depend_on_the_table_viewed_before() -> None:
    """A table's ``TableView`` made from the view of the table before it (melds added to
    it) is the one made from its melds alone."""
    checked = 0
    for preset in ("jokeren7", "jokeren13", "veertigen"):
        for state in positions(preset, 3, ("basic", "strong", "basic", "strong")):
            extended = bots.table_view(state.table)
            saved_cache, saved_last = dict(table._TABLE_CACHE), table._LAST_VIEW[0]
            table._TABLE_CACHE.clear()
            table._LAST_VIEW[0] = ((), bots.TableView({}, {}, {}))
            alone = bots.table_view(state.table)
            table._TABLE_CACHE.clear()
            table._TABLE_CACHE.update(saved_cache)
            table._LAST_VIEW[0] = saved_last
            assert alone == extended
            assert list(alone.fit.items()) == list(extended.fit.items())
            assert list(alone.swaps.items()) == list(extended.swaps.items())
            assert list(alone.unlock.items()) == list(extended.unlock.items())
            checked += bool(state.table)
    assert checked > 100


@pytest.mark.parametrize("preset", ["jokeren7", "jokeren13", "klassiek"])
@pytest.mark.parametrize("level", BOT_LEVELS)
def test_choice_does_not_depend_on_hidden_cards(preset: str, level: str) -> None:
    """Shuffling the other hands and the stock (keeping their sizes) never changes a
    bot's choice: it sees only its own hand and the public cards."""
    rng = random.Random(11)
    n = PRESETS[preset].num_players
    for i, state in enumerate(positions(preset, 2, (level,) * 4)):
        if i % 2:
            continue
        seat = state.current_player
        assert seat is not None
        hidden = [c for o in range(n) if o != seat for c in state.hands[o]] + list(state.stock)
        rng.shuffle(hidden)
        hands = []
        for o in range(n):
            if o == seat:
                hands.append(state.hands[o])
            else:
                size = len(state.hands[o])
                hands.append(tuple(sorted(hidden[:size])))
                hidden = hidden[size:]
        other = dataclasses.replace(state, hands=tuple(hands), stock=tuple(hidden))
        assert bot_action(other, level=level) == bot_action(state, level=level)


def test_choose_is_a_function_of_the_observation_and_the_stream() -> None:
    state = next(iter(positions("jokeren7", 1, ("basic",) * 4)))
    seat = state.current_player
    assert seat is not None
    obs = state.observe(seat)
    for level in BOT_LEVELS:
        if level == "expert":
            continue  # its own module: tests/engine/jokeren/test_expert.py
        a = choose(obs, level=level, rng=Stream(b"seed", f"bot:{seat}"))
        b = choose(obs, level=level, rng=Stream(b"seed", f"bot:{seat}"))
        assert a == b


def test_unknown_level_is_refused() -> None:
    state = new_round(PRESETS["jokeren7"], secret=b"x", round_index=0)
    with pytest.raises(ValueError):
        bot_action(state, level="grandmaster")


# --- sensible play, from hand-made positions -------------------------------------------


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_goes_out_when_it_can_jokeren7(level: str) -> None:
    state = make_state(
        PRESETS["jokeren7"],
        hands=["5h 6h 7h 9c 9d 9s Kc", "2c 3d 4s 8h Jd Qs", "2d 3s 4c 8d Jh Qc", "Ac 2h 3c"],
    )
    state, _ = play_turn(state, level)
    assert state.is_terminal
    assert state.winner == 0
    assert state.scores()[0] == 0


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_goes_out_with_lay_offs_jokeren13(level: str) -> None:
    """Out already (Jokeren 13: lay off from the next turn on): lay off what fits and
    discard the last card."""
    state = make_state(
        PRESETS["jokeren13"],
        hands=["8h Kc 4d", "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        table=[("5h 6h 7h", 1), ("Kd Ks Kh", 2)],
        out=[True, True, True, False],
    )
    state, actions = play_turn(state, level)
    assert state.winner == 0
    assert sum(isinstance(a, LayOff) for a in actions) == 2


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_goes_out_with_a_four_card_meld(level: str) -> None:
    """All cards in melds: one card is kept back to discard, and the bot goes out."""
    state = make_state(
        PRESETS["jokeren7"],
        hands=["5h 6h 7h 8h 9c 9d 9s", "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
    )
    state, _ = play_turn(state, level)
    assert state.winner == 0


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_never_discards_a_joker_while_holding_other_cards(level: str) -> None:
    state = make_state(
        PRESETS["jokeren13"],
        hands=["** Kc 9d 5h 2s 7c", "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
    )
    state, actions = play_turn(state, level)
    discard = actions[-1]
    assert isinstance(discard, Discard)
    assert not is_joker(discard.card)
    assert any(is_joker(c) for c in state.hands[0])


@pytest.mark.parametrize("level", BOT_LEVELS)
@pytest.mark.parametrize(
    ("hand", "top"),
    [
        ("5h 6h Kc 2d 9s Jc 4c", "7h"),  # completes a run
        ("8c 8d Kc 2d 9s Jc 4h", "8s"),  # completes a group
        ("5h 6h 7h Kc 2d 9s Jc", "8h"),  # extends a run in hand
    ],
)
def test_takes_the_open_card_that_completes_a_meld(level: str, hand: str, top: str) -> None:
    state = make_state(
        PRESETS["jokeren13"],
        hands=[hand, "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        open_pile=top,
        phase="draw",
    )
    assert bot_action(state, level=level) == Draw("open")


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_draws_from_the_stock_when_the_open_card_does_not_help(level: str) -> None:
    state = make_state(
        PRESETS["jokeren13"],
        hands=["5h 6h Kc 2d 9s Jc 4c", "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        open_pile="Qd",
        phase="draw",
    )
    assert bot_action(state, level=level) == Draw("stock")


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_takes_the_open_card_it_can_lay_off(level: str) -> None:
    state = make_state(
        PRESETS["jokeren13"],
        hands=["Kc 2d 9s Jc 4c", "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        table=[("5h 6h 7h", 1)],
        out=[True, True, False, False],
        open_pile="8h",
        phase="draw",
    )
    assert bot_action(state, level=level) == Draw("open")


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_lays_off_a_fitting_card(level: str) -> None:
    state = make_state(
        PRESETS["jokeren13"],
        hands=["8h Kc 2d 9s 4c", "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        table=[("5h 6h 7h", 1)],
        out=[True, True, False, False],
    )
    action = bot_action(state, level=level)
    assert isinstance(action, LayOff)
    assert CARD_CODE[action.card] == "8h"
    assert action.meld_index == 0


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_does_not_lay_off_before_coming_out_in_jokeren13(level: str) -> None:
    state = make_state(
        PRESETS["jokeren13"],
        hands=["8h Kc 2d 9s 4c", "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        table=[("5h 6h 7h", 1)],
        out=[False, True, False, False],
    )
    state, actions = play_turn(state, level)
    assert not any(isinstance(a, LayOff) for a in actions)
    # and it keeps the card it can lay off later
    assert "8h" in codes(state, 0)


def test_basic_discards_the_highest_loose_card() -> None:
    state = make_state(
        PRESETS["jokeren13"],
        hands=["2c 9d Ah 4s 7c 5d Kh", "2s 3d 4h 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
    )
    assert bot_action(state, level="basic") == Discard(
        next(c for c in state.hands[0] if CARD_CODE[c] == "Ah")
    )


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_discards_a_loose_card_not_a_meld_card(level: str) -> None:
    """Klassiek, first cycle: nobody may lay down yet, so the run stays in hand and a
    loose card goes."""
    state = make_state(
        PRESETS["klassiek"],
        hands=["5h 6h 7h 2c Kd 9s", "2s 3d 4h 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        turn=0,
    )
    action = bot_action(state, level=level)
    assert isinstance(action, Discard)
    assert CARD_CODE[action.card] in ("2c", "Kd", "9s")


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_swaps_a_joker_it_can_use(level: str) -> None:
    """Jokeren 7: the natural 6h takes the joker's place; the joker completes 9c 9d."""
    state = make_state(
        PRESETS["jokeren7"],
        hands=["6h 9c 9d Kc 2s", "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        table=[("5h ** 7h", 1, "6h")],
        out=[False, True, False, False],
    )
    action = bot_action(state, level=level)
    assert isinstance(action, SwapJoker)
    assert CARD_CODE[action.card] == "6h"
    state, actions = play_turn(state, level)
    laid = [a for a in actions if isinstance(a, LayMelds)]
    assert laid and any(is_joker(c) for a in laid for c in a.cards)


# --- opening requirements ----------------------------------------------------------------


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_contract_run_of_three_is_not_met_by_a_group(level: str) -> None:
    """Klassiek round 1 (seed 001): coming out needs a run of 3; a group is not enough."""
    state = make_state(
        PRESETS["klassiek"],
        hands=["7c 7d 7h 2s Kd 9s Jc", "2c 3d 4s 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        round_index=0,
    )
    state, actions = play_turn(state, level)
    assert not any(isinstance(a, LayMelds) for a in actions)
    assert not state.out[0]


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_contract_run_of_three_comes_out_with_the_group_too(level: str) -> None:
    state = make_state(
        PRESETS["klassiek"],
        hands=["7c 7d 7h 4s 5s 6s Jc Kd", "2c 3d 4h 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        round_index=0,
    )
    action = bot_action(state, level=level)
    assert isinstance(action, LayMelds)
    laid = sorted(CARD_CODE[c] for c in action.cards)
    assert laid == sorted(["7c", "7d", "7h", "4s", "5s", "6s"])


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_contract_group_of_four(level: str) -> None:
    """Klassiek round 2: four of the same rank."""
    state = make_state(
        PRESETS["klassiek"],
        hands=["9c 9d 9h 9s 2c 5d Kh", "2s 3d 4h 8d Jd Qs", "2d 3s 4c Jh Qc", "Ac 2h 3c"],
        round_index=1,
    )
    action = bot_action(state, level=level)
    assert isinstance(action, LayMelds)
    assert sorted(CARD_CODE[c] for c in action.cards) == ["9c", "9d", "9h", "9s"]


@pytest.mark.parametrize("level", BOT_LEVELS)
def test_forty_points_opening(level: str) -> None:
    """Veertigen: melds worth 40 points in one go; 2-3-4 of clubs (9) is not enough, nor
    with three kings (39); 3-4-5 of clubs and three kings (42) is."""
    low = make_state(
        PRESETS["veertigen"],
        hands=["2c 3c 4c 8d Jh 6s", "2s 3d 4h 8c Jd Qs", "2d 3s 4s Jc Qc", "Ac 2h 3h"],
    )
    _, actions = play_turn(low, level)
    assert not any(isinstance(a, LayMelds) for a in actions)
    short = make_state(
        PRESETS["veertigen"],
        hands=["2c 3c 4c Kd Kh Ks 7s", "2s 3d 4h 8c Jd Qs", "2d 3s 4s Jc Qc", "Ac 2h 3h"],
    )
    _, actions = play_turn(short, level)
    assert not any(isinstance(a, LayMelds) for a in actions)
    high = make_state(
        PRESETS["veertigen"],
        hands=["3c 4c 5c Kd Kh Ks 7s", "2s 3d 4h 8c Jd Qs", "2d 3s 4s Jc Qc", "Ac 2h 3h"],
    )
    action = bot_action(high, level=level)
    assert isinstance(action, LayMelds)
    assert len(action.melds) == 2


# --- strength ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "deals"), [("jokeren7", 60), ("klassiek", 60), ("veertigen", 40)]
)
def test_strong_beats_basic_in_duplicate_play(preset: str, deals: int) -> None:
    """Same deals, seats swapped: strong in seats 0 and 2 against basic in 1 and 3, then
    the other way round. Over the same secrets strong scores at least 5% fewer penalty
    points (or cards) than basic."""
    variant = PRESETS[preset]
    strong_total = basic_total = 0
    for g in range(deals):
        secret = b"duplicate" + g.to_bytes(2, "big")
        for levels in (("strong", "basic") * 2, ("basic", "strong") * 2):
            state, _ = play_round(
                jokeren, variant, secret=secret, round_index=g % variant.rounds, levels=levels
            )
            for seat, points in enumerate(state.scores()):
                if levels[seat] == "strong":
                    strong_total += points
                else:
                    basic_total += points
    assert strong_total < 0.95 * basic_total
