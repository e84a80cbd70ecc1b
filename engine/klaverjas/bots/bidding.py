"""How the Klaverjas ``basic`` and ``strong`` bots bid (docs/rules.md, section 6): the
value of a hand with a trump suit (``hand_value``: the basic bot counts trump length with
the jack and nine extra, the strong bot the expected margin of the round if its team
plays, fitted on played deals) against each level's threshold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.klaverjas.actions import Action, Bid, ChooseTrump
from engine.klaverjas.state import KlaverjasObservation

# Weights of the strong bot, tuned in duplicate play against the basic bot.
#: Bid when the expected margin of playing is at least this many points; with
#: ``one_round_first_chooses`` the first player's team bids lighter (if all pass, it must play).
STRONG_THRESHOLD: Final = 40.0
STRONG_THRESHOLD_FORCED: Final = 10.0
STRONG_THRESHOLD_FREE: Final = 40.0

R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)


# --- bidding -----------------------------------------------------------------------

_TRUMP_VALUE_BASIC: Final = (1.0, 1.0, 1.5, 1.0, 2.0, 1.0, 1.0, 1.0)
#: Strong: the expected margin (points) of playing with a trump card of each rank
#: (7 8 9 T J Q K A), a side ace, a side ten with or without its ace, a void, and the
#: bonus for four trumps; fitted on bot-played deals (a regression, then rounded).
_TRUMP_MARGIN: Final = (27.0, 27.0, 52.0, 26.0, 107.0, 23.0, 18.0, 31.0)
_BASE_MARGIN: Final = -178.0
_SIDE_ACE: Final = 29.0
_TEN_WITH_ACE: Final = 13.0
_TEN_WITHOUT_ACE: Final = 16.0
_VOID: Final = 16.0
_SINGLETON: Final = 4.0
_FOUR_TRUMPS: Final = 36.0
_FIVE_TRUMPS: Final = 14.0
_LEADING_TEAM: Final = -10.0


def hand_value(
    hand: Sequence[int], trump: int, *, strong: bool, leading_team: bool = False
) -> float:
    """How good ``hand`` is with ``trump`` (bidding). ``basic``: trump length with the jack
    and nine counted extra. ``strong``: the expected margin of the round if this seat plays
    (high trumps, length, side aces, tens, voids, and whether its team leads the first
    trick)."""
    if not strong:
        return sum(_TRUMP_VALUE_BASIC[c % 8] for c in hand if c // 8 == trump)
    value = _BASE_MARGIN
    trumps = 0
    for c in hand:
        if c // 8 == trump:
            value += _TRUMP_MARGIN[c % 8]
            trumps += 1
    if trumps >= 4:
        value += _FOUR_TRUMPS
    if trumps >= 5:
        value += _FIVE_TRUMPS
    if leading_team:
        value += _LEADING_TEAM
    for s in range(4):
        if s == trump:
            continue
        ranks = {c % 8 for c in hand if c // 8 == s}
        if RA in ranks:
            value += _SIDE_ACE
        if RT in ranks:
            value += _TEN_WITH_ACE if RA in ranks else _TEN_WITHOUT_ACE
        if not ranks:
            value += _VOID
        elif len(ranks) == 1:
            value += _SINGLETON
    return value


def threshold(obs: KlaverjasObservation, strong: bool) -> float:
    if not strong:
        return 4.5
    if obs.variant.bidding == "one_round_first_chooses" and obs.phase == "bidding":
        # if everyone passes, the first player must choose: passing is cheap for the
        # dealer's team and dear for the first player's team
        forced_team = obs.first_player % 2 == obs.seat % 2
        return STRONG_THRESHOLD_FORCED if forced_team else STRONG_THRESHOLD_FREE
    return STRONG_THRESHOLD


def suit_key(obs: KlaverjasObservation, strong: bool) -> _SuitKey:
    return _SuitKey(obs.hand, strong)


@dataclass(frozen=True)
class _SuitKey:
    hand: tuple[int, ...]
    strong: bool

    def __call__(self, suit: int) -> tuple[float, int]:
        return hand_value(self.hand, suit, strong=self.strong), -suit


def bid(obs: KlaverjasObservation, *, strong: bool) -> Action | None:
    """What a ``basic`` or ``strong`` bot does before it chooses a card: its only legal
    action, else in a bidding phase its bid, or its choice of trump when it must choose:
    its hand's value (``hand_value``) with the proposed trump, or with its best other
    suit, against its level's threshold (``None``: a card to choose)."""
    legal = obs.legal
    if not legal:
        raise ValueError("this seat has no legal action")
    if len(legal) == 1:
        return legal[0]
    if obs.phase == "bidding":
        leading = obs.first_player % 2 == obs.seat % 2
        value = hand_value(obs.hand, obs.proposed_trump, strong=strong, leading_team=leading)
        return Bid(value >= threshold(obs, strong))
    if obs.phase == "bidding2":
        best = max((s for s in range(4) if s != obs.proposed_trump), key=suit_key(obs, strong))
        leading = obs.first_player % 2 == obs.seat % 2
        value = hand_value(obs.hand, best, strong=strong, leading_team=leading)
        return Bid(True, best) if value >= threshold(obs, strong) else Bid(False)
    if obs.phase == "choose_trump":
        return ChooseTrump(max(range(4), key=suit_key(obs, strong)))
    return None
