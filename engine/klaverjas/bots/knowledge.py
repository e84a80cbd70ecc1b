"""What a Klaverjas bot knows of the cards it cannot see (the strong bot's card
counting, which the experts' samples use too): which cards are out, who showed out of a
suit or of trump (or could not overtrump), and the chance that each other seat holds each
unseen card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.klaverjas.rules import (
    TRUMP_STRENGTH,
    power,
    winning_index,
)
from engine.klaverjas.state import KlaverjasObservation


@dataclass
class Knowledge:
    """What a seat knows about the cards it cannot see, and the chance that another seat
    holds each unseen card (its hand size over the hand sizes of the seats that may
    hold the card; a seat that showed out of a suit holds none of it)."""

    trump: int
    unseen: set[int]
    void: list[set[int]]  # per seat: suits it has shown out of
    trump_cap: list[int]  # per seat: it holds no trump stronger than this (8 = unknown)
    chance: list[dict[int, float]]  # per seat: unseen card -> probability it holds it


def knowledge(obs: KlaverjasObservation) -> Knowledge:
    trump = obs.trump
    assert trump is not None
    v = obs.variant
    played: set[int] = set()
    void: list[set[int]] = [set() for _ in range(4)]
    cap = [8, 8, 8, 8]
    plays = [(t.leader, t.cards) for t in obs.tricks]
    if obs.trick:
        plays.append((obs.leader, obs.trick))
    for leader, cards in plays:
        led = cards[0] // 8
        played.update(cards)
        for i in range(1, len(cards)):
            seat = (leader + i) % 4
            c = cards[i]
            prefix = cards[:i]
            top = max(
                (TRUMP_STRENGTH[x % 8] for x in prefix if x // 8 == trump),
                default=-1,
            )
            if c // 8 != led:
                void[seat].add(led)
                exempt = v.partner_exemption and i >= 2 and winning_index(prefix, trump) == i - 2
                if c // 8 != trump and v.must_trump and not exempt:
                    if top < 0 or v.undertrump == "must_undertrump":
                        void[seat].add(trump)
                    else:
                        cap[seat] = min(cap[seat], top)
                elif (
                    c // 8 == trump
                    and v.must_overtrump
                    and not exempt
                    and top >= 0
                    and TRUMP_STRENGTH[c % 8] < top
                ):
                    cap[seat] = min(cap[seat], top)
            elif led == trump and v.must_overtrump and TRUMP_STRENGTH[c % 8] < top:
                cap[seat] = min(cap[seat], top)
    unseen = set(range(32)) - played - set(obs.hand)
    k = Knowledge(trump, unseen, void, cap, [{} for _ in range(4)])
    others = [s for s in range(4) if s != obs.seat]
    for c in unseen:
        holders = [s for s in others if may_hold(k, s, c)]
        total = sum(obs.hand_counts[s] for s in holders)
        for s in holders:
            k.chance[s][c] = obs.hand_counts[s] / total if total else 0.0
    return k


def may_hold(k: Knowledge, seat: int, card: int) -> bool:
    s = card // 8
    if card not in k.unseen or s in k.void[seat]:
        return False
    return not (s == k.trump and TRUMP_STRENGTH[card % 8] > k.trump_cap[seat])


def none_of(k: Knowledge, seat: int, cards: Sequence[int] | set[int]) -> float:
    """The chance that ``seat`` holds none of ``cards``."""
    p = 1.0
    chance = k.chance[seat]
    for c in cards:
        p *= 1.0 - chance.get(c, 0.0)
    return p


def beat_chance(k: Knowledge, seat: int, best: int, led: int) -> float:
    """The chance that ``seat`` can beat ``best`` in a trick led with suit ``led``."""
    trump = k.trump
    top = power(best, trump, led)
    higher_led = [c for c in k.chance[seat] if c // 8 == led and power(c, trump, led) > top]
    if led == trump:
        return 1.0 - none_of(k, seat, higher_led)
    no_led = none_of(k, seat, [c for c in k.chance[seat] if c // 8 == led])
    higher_trumps = [c for c in k.chance[seat] if c // 8 == trump and power(c, trump, led) > top]
    p_higher_led = 1.0 - none_of(k, seat, higher_led) if best // 8 == led else 0.0
    return p_higher_led + no_led * (1.0 - none_of(k, seat, higher_trumps))
