"""The Klaverjas ``basic`` bot (docs/rules.md, section 6): it bids on trump length with
the jack or nine (``engine.klaverjas.bots.bidding``); it wins a trick with its cheapest
winning card, gives points to a partner who wins, else throws the card that gives the
other team the fewest points, the roem it would complete included; it leads aces, then a
low card (ties drawn from the round's ``bot:<seat>`` stream).
"""

from __future__ import annotations

from engine.dealing import Stream
from engine.klaverjas.actions import Action, PlayCard
from engine.klaverjas.bots.bidding import RA, bid
from engine.klaverjas.roem import roem_points
from engine.klaverjas.rules import (
    card_points,
    power,
    winning_index,
)
from engine.klaverjas.state import KlaverjasObservation


def choose(obs: KlaverjasObservation, rng: Stream) -> Action:
    """The basic bot's choice from an observation (pure: same observation and stream,
    same action): its only legal action or its bid (``bidding.bid``), else its card."""
    action = bid(obs, strong=False)
    if action is not None:
        return action
    cards = [a.card for a in obs.legal if isinstance(a, PlayCard)]
    return PlayCard(play(obs, cards, rng))


def play(obs: KlaverjasObservation, cards: list[int], rng: Stream) -> int:
    trump = obs.trump
    assert trump is not None
    trick = obs.trick
    if not trick:
        aces = [c for c in cards if c % 8 == RA and c // 8 != trump]
        if aces:
            return aces[0]
        side = [c for c in cards if c // 8 != trump] or cards
        low = min(card_points(c, trump) for c in side)
        return rng.choice([c for c in side if card_points(c, trump) == low])
    led = trick[0] // 8
    win = winning_index(trick, trump)
    if win == len(trick) - 2:  # partner wins: give points, not trumps
        side = [c for c in cards if c // 8 != trump] or cards
        return max(side, key=lambda c: (card_points(c, trump), -power(c, trump, led)))
    top = power(trick[win], trump, led)
    winners = [c for c in cards if power(c, trump, led) > top]
    if winners:
        return min(winners, key=lambda c: power(c, trump, led))
    # the other team wins the trick: give it the fewest points, roem included
    four_jacks = obs.variant.four_jacks

    def given(c: int) -> tuple[int, int]:
        return card_points(c, trump) + roem_points([*trick, c], trump, four_jacks), power(
            c, trump, led
        )

    return min(cards, key=given)
