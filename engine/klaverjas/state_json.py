"""A Klaverjas round state from its JSON (``KlaverjasState.to_json``): the shape is checked
and all 32 cards accounted for (docs/rules.md §6); anything else raises ``InvalidState``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from engine.errors import IllegalMove, InvalidState
from engine.klaverjas.round import KlaverjasState
from engine.klaverjas.tricks import (
    HAND_SIZE,
    NUM_SEATS,
    PHASES,
    TRICKS,
    BidRecord,
    Phase,
    Trick,
    make_trick,
    suit_from_json,
)
from engine.klaverjas.variants import variant_from_json


def _int(obj: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise ValueError(f"{key}: an integer {lo}..{hi}")
    return value


def _opt_seat(obj: Mapping[str, Any], key: str) -> int | None:
    if obj.get(key) is None:
        return None
    return _int(obj, key, 0, NUM_SEATS - 1)


def _cards(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(
        isinstance(c, int) and not isinstance(c, bool) and 0 <= c < 32 for c in value
    ):
        raise ValueError(f"{what}: a list of card ids 0..31")
    return tuple(value)


def state_from_json(obj: Mapping[str, Any]) -> KlaverjasState:
    """A state from ``KlaverjasState.to_json``; checks the shape and that all 32 cards are
    accounted for, and raises ``InvalidState`` (a ``ValueError``) otherwise, never another
    exception. Trick winners, points and roem are recomputed."""
    try:
        state = _read_state(obj)
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, IllegalMove) as exc:
        raise InvalidState(f"state: {exc}") from exc
    _check_reachable(state)
    return state


def _check_reachable(state: KlaverjasState) -> None:
    """Raise ``InvalidState`` unless the rules can reach ``state``: the dealer of round r
    is seat r mod 4; bidding comes before any card is played; in play the trump is known,
    the trick's leader won the last trick (the first player leads the first) and the seat
    after the trick's last card is to move; every hand holds 8 cards less the cards its
    seat played; the round is over after 8 tricks, and nobody is to move then."""
    if state.dealer != state.round_index % NUM_SEATS:
        raise InvalidState("state: the dealer of round r is seat r mod 4")
    if (state.phase == "over") != (state.current_player is None):
        raise InvalidState("state: nobody is to move exactly when the round is over")
    if len(state.trick) >= NUM_SEATS:
        raise InvalidState("state: a trick in play holds at most three cards")
    if state.phase in ("bidding", "bidding2", "choose_trump"):
        if state.tricks or state.trick or state.trump is not None:
            raise InvalidState("state: no card is played before the trump is chosen")
    elif state.trump is None or state.playing_seat is None:
        raise InvalidState("state: play needs a trump suit and a playing seat")
    if state.phase == "over" and (len(state.tricks) != TRICKS or state.trick):
        raise InvalidState("state: a round is over after eight tricks")
    if state.phase == "play":
        leader = state.tricks[-1].winner if state.tricks else state.first_player
        if state.leader != leader:
            raise InvalidState("state: the winner of a trick leads the next")
        if state.current_player != (leader + len(state.trick)) % NUM_SEATS:
            raise InvalidState("state: the seat after the trick's last card is to move")
    played = {(state.leader + i) % NUM_SEATS for i in range(len(state.trick))}
    for seat, hand in enumerate(state.hands):
        if len(hand) != HAND_SIZE - len(state.tricks) - (seat in played):
            raise InvalidState("state: every hand holds 8 cards less those its seat played")


def _read_state(obj: Mapping[str, Any]) -> KlaverjasState:
    if not isinstance(obj, Mapping) or obj.get("game") != "klaverjas":
        raise ValueError("not a Klaverjas state")
    if not isinstance(obj.get("variant"), Mapping):
        raise ValueError("variant: the variant's JSON object")
    variant = variant_from_json(obj["variant"])
    phase = obj.get("phase")
    if phase not in PHASES:
        raise ValueError(f"phase: one of {', '.join(PHASES)}")
    seed_hex = obj.get("round_seed")
    if not isinstance(seed_hex, str):
        raise ValueError("round_seed: hex text")
    seed = bytes.fromhex(seed_hex)
    proposed = suit_from_json(obj.get("proposed_trump"))
    if proposed is None:
        raise ValueError("proposed_trump: a suit letter")
    trump = suit_from_json(obj.get("trump"))
    hands_raw = obj.get("hands")
    if not isinstance(hands_raw, list) or len(hands_raw) != NUM_SEATS:
        raise ValueError("hands: four lists")
    hands = tuple(tuple(sorted(_cards(h, "hands"))) for h in hands_raw)
    bids: list[BidRecord] = []
    for b in obj.get("bids", []):
        if not isinstance(b, Mapping) or not isinstance(b.get("play"), bool):
            raise ValueError("bids: objects with seat, round, play, suit")
        bids.append(
            BidRecord(
                _int(b, "seat", 0, 3),
                _int(b, "round", 1, 2),
                b["play"],
                suit_from_json(b.get("suit")),
            )
        )
    tricks: list[Trick] = []
    for t in obj.get("tricks", []):
        if trump is None or not isinstance(t, Mapping):
            raise ValueError("tricks need a trump suit")
        cards = _cards(t.get("cards"), "tricks")
        if len(cards) != NUM_SEATS:
            raise ValueError("a finished trick holds four cards")
        tricks.append(make_trick(_int(t, "leader", 0, 3), cards, trump, variant))
    trick = _cards(obj.get("trick", []), "trick")
    every = [c for h in hands for c in h] + list(trick) + [c for t in tricks for c in t.cards]
    if sorted(every) != list(range(32)):
        raise ValueError("the 32 cards are not all accounted for exactly once")
    return KlaverjasState(
        variant=variant,
        round_index=_int(obj, "round_index", 0, 10**6),
        round_seed=seed,
        dealer=_int(obj, "dealer", 0, 3),
        deal_number=_int(obj, "deal_number", 0, 100),
        proposed_trump=proposed,
        hands=hands,
        phase=cast(Phase, phase),
        current_player=_opt_seat(obj, "current_player"),
        bids=tuple(bids),
        trump=trump,
        playing_seat=_opt_seat(obj, "playing_seat"),
        leader=_int(obj, "leader", 0, 3),
        trick=trick,
        tricks=tuple(tricks),
        move_count=_int(obj, "move_count", 0, 10**6),
    )
