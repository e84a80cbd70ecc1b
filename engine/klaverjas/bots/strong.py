"""The Klaverjas ``strong`` bot (docs/rules.md, section 6): it counts cards
(``engine.klaverjas.bots.knowledge``) and bids on the expected margin of its hand
(``engine.klaverjas.bots.bidding``), bidding lighter when a pass would force its own
team to play. It pulls trumps with the best trump when its team plays, leads sure winners
(the ace when it holds) or else a cheap card (not from a bare ten, no trump when
defending). Following, it weighs each legal card by the chance that its team wins the
trick times the trick's points and roem, minus what the card is worth keeping: so it
gives points and roem to a partner whose card holds, throws cheap cards (and makes no
roem) on a trick the other team wins, wins with the cheapest card that holds, and keeps
its high trumps instead of trumping a partner's sure trick when not obliged. It breaks
ties by card id.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.dealing import Stream
from engine.klaverjas.actions import Action, PlayCard
from engine.klaverjas.bots.bidding import RA, RT, bid
from engine.klaverjas.bots.knowledge import Knowledge, beat_chance, knowledge, may_hold
from engine.klaverjas.roem import roem_points
from engine.klaverjas.rules import (
    PLAIN_STRENGTH,
    TRUMP_STRENGTH,
    card_points,
    winning_index,
)
from engine.klaverjas.state import KlaverjasObservation

#: What keeping a card is worth: trumps by strength, the best (or second best) card of a suit.
FUTURE_TRUMP_BASE: Final = 10.0
FUTURE_TRUMP_STEP: Final = 6.0
FUTURE_TOP: Final = 8.0
FUTURE_SECOND: Final = 3.0
SIDE_FUTURE_WEIGHT: Final = 0.6
#: Points a card still to come to the trick brings on average.
LATER_CARD_POINTS: Final = 6.0
#: A lead that our team wins with at least this chance is a sure winner.
SURE: Final = 0.9


def choose(obs: KlaverjasObservation, rng: Stream) -> Action:
    """The strong bot's choice from an observation (pure: same observation and stream,
    same action): its only legal action or its bid (``bidding.bid``), else its card."""
    action = bid(obs, strong=True)
    if action is not None:
        return action
    cards = [a.card for a in obs.legal if isinstance(a, PlayCard)]
    return PlayCard(play(obs, cards, rng))


def _future_value(card: int, k: Knowledge) -> float:
    """How much a card is worth keeping: high trumps, and cards that are (or will become)
    the best of their suit."""
    trump = k.trump
    s, r = card // 8, card % 8
    if s == trump:
        return FUTURE_TRUMP_BASE + FUTURE_TRUMP_STEP * TRUMP_STRENGTH[r]
    higher = sum(1 for x in k.unseen if x // 8 == s and PLAIN_STRENGTH[x % 8] > PLAIN_STRENGTH[r])
    if higher == 0:
        return FUTURE_TOP + card_points(card, trump) * 0.5
    if higher == 1:
        return FUTURE_SECOND
    return 0.0


def play(obs: KlaverjasObservation, cards: list[int], rng: Stream) -> int:
    k = knowledge(obs)
    if not obs.trick:
        return _lead_strong(obs, cards, k)
    return _follow_strong(obs, cards, k)


def _top_trump(card: int, k: Knowledge) -> bool:
    """Whether no unseen trump is higher than ``card``."""
    strength = TRUMP_STRENGTH[card % 8]
    return all(strength > TRUMP_STRENGTH[x % 8] for x in k.unseen if x // 8 == k.trump)


def _ours_chance(k: Knowledge, obs: KlaverjasObservation, cards_after: Sequence[int]) -> float:
    """The chance that our team wins the trick once ``cards_after`` lie on it (our card
    last): no later opponent beats our winning card, or our partner (if still to play)
    beats theirs."""
    trump = k.trump
    led = cards_after[0] // 8
    pos = len(cards_after) - 1
    win = winning_index(cards_after, trump)
    best = cards_after[win]
    later = [(obs.seat + i) % 4 for i in range(1, 4 - pos)]
    ours = (win - pos) % 2 == 0
    partner = (obs.seat + 2) % 4
    if ours:
        p = 1.0
        for o in later:
            if o % 2 != obs.seat % 2:
                p *= 1.0 - min(1.0, beat_chance(k, o, best, led))
        return p
    # the partner still plays only when we are second (and it plays last)
    if partner not in later:
        return 0.0
    return min(1.0, beat_chance(k, partner, best, led))


def _lead_strong(obs: KlaverjasObservation, cards: list[int], k: Knowledge) -> int:
    trump = k.trump
    assert obs.playing_seat is not None
    seat = obs.seat
    opps = _opponents(seat)
    our_team_plays = obs.playing_seat % 2 == seat % 2
    trumps = sorted((c for c in cards if c // 8 == trump), key=lambda c: -TRUMP_STRENGTH[c % 8])
    opp_trumps = [c for c in k.unseen if c // 8 == trump and any(may_hold(k, o, c) for o in opps)]
    # 1. pull trumps with the best trump when our team plays
    if trumps and opp_trumps and our_team_plays:
        if _top_trump(trumps[0], k):
            return trumps[0]
        if obs.playing_seat == seat and len(trumps) >= 3:
            return trumps[-1]
    # 2. sure winners
    sure = [
        c for c in cards if (c // 8 != trump or opp_trumps) and _ours_chance(k, obs, (c,)) >= SURE
    ]
    if sure:
        return max(sure, key=lambda c: (card_points(c, trump), -c))

    # 3. a low card from a suit where it costs least: no bare ten, not trump when defending
    return min(cards, key=lambda c: (lead_cost(obs, k, c), c))


def lead_cost(obs: KlaverjasObservation, k: Knowledge, c: int) -> float:
    """What leading ``c`` costs when no trump is pulled and no sure winner led (the lead's
    third rule): its points and worth kept, more for trump when defending, for a bare ten's
    suit and for a suit the opponents trump; short suits (a void to make) a little less."""
    trump = k.trump
    assert obs.playing_seat is not None
    our_team_plays = obs.playing_seat % 2 == obs.seat % 2
    opps = _opponents(obs.seat)
    s = c // 8
    cost = float(card_points(c, trump)) + _future_value(c, k)
    if s == trump:
        cost += 0.0 if our_team_plays else 12.0
    else:
        suit_cards = [x for x in obs.hand if x // 8 == s]
        if any(x % 8 == RT for x in suit_cards) and not any(x % 8 == RA for x in suit_cards):
            cost += 6.0  # leading here may cost the ten
        if all(s in k.void[o] for o in opps):
            cost += 8.0  # they will trump it
        cost -= 0.5 * (3 - min(3, len(suit_cards)))  # short suits: make a void
    return cost


def _opponents(seat: int) -> tuple[int, int]:
    return (seat + 1) % 4, (seat + 3) % 4


def _follow_strong(obs: KlaverjasObservation, cards: list[int], k: Knowledge) -> int:
    return max(cards, key=lambda c: (follow_gain(obs, k, c), -c))


def follow_gain(obs: KlaverjasObservation, k: Knowledge, c: int) -> float:
    """What playing ``c`` to the trick on the table is worth to the team: the chance the
    team wins the trick (times two, less one) times its points and roem with the cards
    still to come, less what the card is worth keeping."""
    trump = k.trump
    trick = obs.trick
    later = 3 - len(trick)
    base_points = sum(card_points(x, trump) for x in trick)
    cards_after = (*trick, c)
    p = _ours_chance(k, obs, cards_after)
    roem = roem_points(cards_after, trump, obs.variant.four_jacks)
    value = base_points + card_points(c, trump) + roem + LATER_CARD_POINTS * later
    gain = (2 * p - 1) * value
    return gain - _future_value(c, k) * (1.0 if c // 8 == trump else SIDE_FUTURE_WEIGHT)
