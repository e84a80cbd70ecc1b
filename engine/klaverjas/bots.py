"""Klaverjas bots: deterministic, fair (they read only their own observation) and quick.

A bot's choice is a function of ``state.observe(seat)`` and of the stream
``Stream(round_seed, f"bot:{seat}", start=state.move_count)`` (the basic bot draws from it
to break ties; the strong bot breaks ties by card id),
so two entrants who make the same moves meet the same bot moves.

- ``basic``: bids on trump length with the jack or nine; wins a trick with its cheapest
  winning card, gives points to a partner who wins, else throws the card that gives the
  other team the fewest points, the roem it would complete included; leads aces, then a
  low card.
- ``strong``: counts cards: which cards are out, who showed out of a suit or of trump (or
  could not overtrump), and from that the chance that each other seat holds each unseen
  card. It bids on the expected margin of the hand (high trumps, length, side aces, tens,
  voids; fitted on played deals), bidding lighter when a pass would force its own team to
  play. It pulls trumps with the best trump when its team plays, leads sure winners (the
  ace when it holds) or else a cheap card (not from a bare ten, no trump when defending).
  Following, it weighs each legal card by the chance that its team wins the trick times
  the trick's points and roem, minus what the card is worth keeping: so it gives points
  and roem to a partner whose card holds, throws cheap cards (and makes no roem) on a
  trick the other team wins, wins with the cheapest card that holds, and keeps its high
  trumps instead of trumping a partner's sure trick when not obliged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.dealing import Stream
from engine.klaverjas.actions import Action, Bid, ChooseTrump, PlayCard
from engine.klaverjas.roem import roem_points
from engine.klaverjas.rules import (
    PLAIN_STRENGTH,
    TRUMP_STRENGTH,
    card_points,
    power,
    winning_index,
)
from engine.klaverjas.state import KlaverjasObservation, KlaverjasState

BOT_LEVELS: Final = ("basic", "strong")

# Weights of the strong bot, tuned in duplicate play against the basic bot.
#: Bid when the expected margin of playing is at least this many points; with
#: ``one_round_first_chooses`` the first player's team bids lighter (if all pass, it must play).
STRONG_THRESHOLD: Final = 40.0
STRONG_THRESHOLD_FORCED: Final = 10.0
STRONG_THRESHOLD_FREE: Final = 40.0
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

R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)


def bot_action(state: KlaverjasState, *, level: str) -> Action:
    """The bot's action for the seat to move: reads only that seat's observation and the
    round's ``bot:<seat>`` stream from the current move count."""
    seat = state.current_player
    if seat is None:
        raise ValueError("the round is over: no seat to move")
    rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
    return choose(state.observe(seat), level=level, rng=rng)


def simplest_action(state: KlaverjasState) -> Action:
    """The simplest legal action of the seat to move, for a caller that must go on when
    an action was refused: the first of the engine's legal actions (canonical order)."""
    legal = state.legal_actions()
    if not legal:
        raise ValueError("the round is over: no seat to move")
    return legal[0]


def choose(obs: KlaverjasObservation, *, level: str, rng: Stream) -> Action:
    """The bot's choice from an observation (pure: same observation and stream, same action)."""
    if level not in BOT_LEVELS:
        raise ValueError(f"unknown bot level: {level!r}")
    legal = obs.legal
    if not legal:
        raise ValueError("this seat has no legal action")
    if len(legal) == 1:
        return legal[0]
    strong = level == "strong"
    if obs.phase == "bidding":
        leading = obs.first_player % 2 == obs.seat % 2
        value = hand_value(obs.hand, obs.proposed_trump, strong=strong, leading_team=leading)
        return Bid(value >= _threshold(obs, strong))
    if obs.phase == "bidding2":
        best = max((s for s in range(4) if s != obs.proposed_trump), key=_suit_key(obs, strong))
        leading = obs.first_player % 2 == obs.seat % 2
        value = hand_value(obs.hand, best, strong=strong, leading_team=leading)
        return Bid(True, best) if value >= _threshold(obs, strong) else Bid(False)
    if obs.phase == "choose_trump":
        return ChooseTrump(max(range(4), key=_suit_key(obs, strong)))
    cards = [a.card for a in legal if isinstance(a, PlayCard)]
    card = _play_strong(obs, cards, rng) if strong else _play_basic(obs, cards, rng)
    return PlayCard(card)


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


def _threshold(obs: KlaverjasObservation, strong: bool) -> float:
    if not strong:
        return 4.5
    if obs.variant.bidding == "one_round_first_chooses" and obs.phase == "bidding":
        # if everyone passes, the first player must choose: passing is cheap for the
        # dealer's team and dear for the first player's team
        forced_team = obs.first_player % 2 == obs.seat % 2
        return STRONG_THRESHOLD_FORCED if forced_team else STRONG_THRESHOLD_FREE
    return STRONG_THRESHOLD


def _suit_key(obs: KlaverjasObservation, strong: bool) -> _SuitKey:
    return _SuitKey(obs.hand, strong)


@dataclass(frozen=True)
class _SuitKey:
    hand: tuple[int, ...]
    strong: bool

    def __call__(self, suit: int) -> tuple[float, int]:
        return hand_value(self.hand, suit, strong=self.strong), -suit


# --- basic play --------------------------------------------------------------------


def _play_basic(obs: KlaverjasObservation, cards: list[int], rng: Stream) -> int:
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


# --- strong play -------------------------------------------------------------------


@dataclass
class _Knowledge:
    """What a seat knows about the cards it cannot see, and the chance that another seat
    holds each unseen card (its hand size over the hand sizes of the seats that may
    hold the card; a seat that showed out of a suit holds none of it)."""

    trump: int
    unseen: set[int]
    void: list[set[int]]  # per seat: suits it has shown out of
    trump_cap: list[int]  # per seat: it holds no trump stronger than this (8 = unknown)
    chance: list[dict[int, float]]  # per seat: unseen card -> probability it holds it


def _knowledge(obs: KlaverjasObservation) -> _Knowledge:
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
    k = _Knowledge(trump, unseen, void, cap, [{} for _ in range(4)])
    others = [s for s in range(4) if s != obs.seat]
    for c in unseen:
        holders = [s for s in others if _may_hold(k, s, c)]
        total = sum(obs.hand_counts[s] for s in holders)
        for s in holders:
            k.chance[s][c] = obs.hand_counts[s] / total if total else 0.0
    return k


def _may_hold(k: _Knowledge, seat: int, card: int) -> bool:
    s = card // 8
    if card not in k.unseen or s in k.void[seat]:
        return False
    return not (s == k.trump and TRUMP_STRENGTH[card % 8] > k.trump_cap[seat])


def _none_of(k: _Knowledge, seat: int, cards: Sequence[int] | set[int]) -> float:
    """The chance that ``seat`` holds none of ``cards``."""
    p = 1.0
    chance = k.chance[seat]
    for c in cards:
        p *= 1.0 - chance.get(c, 0.0)
    return p


def _beat_chance(k: _Knowledge, seat: int, best: int, led: int) -> float:
    """The chance that ``seat`` can beat ``best`` in a trick led with suit ``led``."""
    trump = k.trump
    top = power(best, trump, led)
    higher_led = [c for c in k.chance[seat] if c // 8 == led and power(c, trump, led) > top]
    if led == trump:
        return 1.0 - _none_of(k, seat, higher_led)
    no_led = _none_of(k, seat, [c for c in k.chance[seat] if c // 8 == led])
    higher_trumps = [c for c in k.chance[seat] if c // 8 == trump and power(c, trump, led) > top]
    p_higher_led = 1.0 - _none_of(k, seat, higher_led) if best // 8 == led else 0.0
    return p_higher_led + no_led * (1.0 - _none_of(k, seat, higher_trumps))


def _future_value(card: int, k: _Knowledge) -> float:
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


def _play_strong(obs: KlaverjasObservation, cards: list[int], rng: Stream) -> int:
    k = _knowledge(obs)
    if not obs.trick:
        return _lead_strong(obs, cards, k)
    return _follow_strong(obs, cards, k)


def _top_trump(card: int, k: _Knowledge) -> bool:
    """Whether no unseen trump is higher than ``card``."""
    strength = TRUMP_STRENGTH[card % 8]
    return all(strength > TRUMP_STRENGTH[x % 8] for x in k.unseen if x // 8 == k.trump)


def _ours_chance(k: _Knowledge, obs: KlaverjasObservation, cards_after: Sequence[int]) -> float:
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
                p *= 1.0 - min(1.0, _beat_chance(k, o, best, led))
        return p
    # the partner still plays only when we are second (and it plays last)
    if partner not in later:
        return 0.0
    return min(1.0, _beat_chance(k, partner, best, led))


def _lead_strong(obs: KlaverjasObservation, cards: list[int], k: _Knowledge) -> int:
    trump = k.trump
    assert obs.playing_seat is not None
    seat = obs.seat
    opps = _opponents(seat)
    our_team_plays = obs.playing_seat % 2 == seat % 2
    trumps = sorted((c for c in cards if c // 8 == trump), key=lambda c: -TRUMP_STRENGTH[c % 8])
    opp_trumps = [c for c in k.unseen if c // 8 == trump and any(_may_hold(k, o, c) for o in opps)]
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
    def lead_cost(c: int) -> tuple[float, int]:
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
        return cost, c

    return min(cards, key=lead_cost)


def _opponents(seat: int) -> tuple[int, int]:
    return (seat + 1) % 4, (seat + 3) % 4


def _follow_strong(obs: KlaverjasObservation, cards: list[int], k: _Knowledge) -> int:
    trump = k.trump
    trick = obs.trick
    later = 3 - len(trick)
    base_points = sum(card_points(c, trump) for c in trick)
    best_option: tuple[float, int] | None = None
    for c in cards:
        cards_after = (*trick, c)
        p = _ours_chance(k, obs, cards_after)
        roem = roem_points(cards_after, trump, obs.variant.four_jacks)
        value = base_points + card_points(c, trump) + roem + LATER_CARD_POINTS * later
        gain = (2 * p - 1) * value
        gain -= _future_value(c, k) * (1.0 if c // 8 == trump else SIDE_FUTURE_WEIGHT)
        option = (gain, -c)
        if best_option is None or option > best_option:
            best_option = option
    assert best_option is not None
    return -best_option[1]
