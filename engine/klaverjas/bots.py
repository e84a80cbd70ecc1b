"""Klaverjas bots: deterministic, fair (they read only their own observation) and quick.

A bot's choice is a function of ``state.observe(seat)`` and of the stream
``Stream(round_seed, f"bot:{seat}", start=state.move_count)`` (used only to break ties),
so two entrants who make the same moves meet the same bot moves.

- ``basic``: bids on trump length with the jack or nine; wins a trick with its cheapest
  winning card, gives points to a partner who wins, else throws its cheapest card; leads
  aces, then a low card.
- ``strong``: counts cards (which cards are out, who showed out of a suit or of trump),
  values a hand on high trumps, side aces and guarded tens; pulls trumps when its team
  plays, leads only sure winners or safe low cards, wins tricks only when they hold (or it
  plays last), gives points and roem to a partner whose card holds, never gives roem to
  the other team when it can avoid it, and does not trump a partner's sure trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.dealing import Stream
from engine.klaverjas.actions import Action, Bid, ChooseTrump, PlayCard
from engine.klaverjas.roem import _roem
from engine.klaverjas.rules import (
    PLAIN_STRENGTH,
    TRUMP_STRENGTH,
    card_points,
    power,
    winning_index,
)
from engine.klaverjas.state import KlaverjasObservation, KlaverjasState

BOT_LEVELS: Final = ("basic", "strong")

R7, R8, R9, RT, RJ, RQ, RK, RA = range(8)


def bot_action(state: KlaverjasState, *, level: str) -> Action:
    """The bot's action for the seat to move: reads only that seat's observation and the
    round's ``bot:<seat>`` stream from the current move count."""
    seat = state.current_player
    if seat is None:
        raise ValueError("the round is over: no seat to move")
    rng = Stream(state.round_seed, f"bot:{seat}", start=state.move_count)
    return choose(state.observe(seat), level=level, rng=rng)


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
        value = hand_value(obs.hand, obs.proposed_trump, strong=strong)
        return Bid(value >= _threshold(obs, strong))
    if obs.phase == "bidding2":
        best = max((s for s in range(4) if s != obs.proposed_trump), key=_suit_key(obs, strong))
        value = hand_value(obs.hand, best, strong=strong)
        return Bid(True, best) if value >= _threshold(obs, strong) else Bid(False)
    if obs.phase == "choose_trump":
        return ChooseTrump(max(range(4), key=_suit_key(obs, strong)))
    cards = [a.card for a in legal if isinstance(a, PlayCard)]
    card = _play_strong(obs, cards, rng) if strong else _play_basic(obs, cards, rng)
    return PlayCard(card)


# --- bidding -----------------------------------------------------------------------

_TRUMP_VALUE_STRONG: Final = (0.8, 0.8, 2.6, 1.4, 3.4, 1.0, 1.1, 1.8)
_TRUMP_VALUE_BASIC: Final = (1.0, 1.0, 1.5, 1.0, 2.0, 1.0, 1.0, 1.0)


def hand_value(hand: Sequence[int], trump: int, *, strong: bool) -> float:
    """How good ``hand`` is with ``trump`` (bidding). ``basic``: trump length with the jack
    and nine counted extra. ``strong``: high trumps, length, side aces, tens guarded by their
    ace, and short side suits (to trump in) when holding several trumps."""
    if not strong:
        return sum(_TRUMP_VALUE_BASIC[c % 8] for c in hand if c // 8 == trump)
    value = 0.0
    trumps = [c % 8 for c in hand if c // 8 == trump]
    value += sum(_TRUMP_VALUE_STRONG[r] for r in trumps)
    if len(trumps) >= 4:
        value += 0.8 * (len(trumps) - 3)
    if RJ not in trumps and R9 in trumps and len(trumps) <= 2:
        value -= 0.6  # a bare nine falls under the jack
    for s in range(4):
        if s == trump:
            continue
        ranks = {c % 8 for c in hand if c // 8 == s}
        if RA in ranks:
            value += 1.3
            if RT in ranks:
                value += 0.9
        elif RT in ranks and len(ranks) >= 2:
            value += 0.3
        if not ranks and len(trumps) >= 3:
            value += 0.6
    return value


def _threshold(obs: KlaverjasObservation, strong: bool) -> float:
    if not strong:
        return 4.5
    return 7.2


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
    return min(cards, key=lambda c: (card_points(c, trump), power(c, trump, led)))


# --- strong play -------------------------------------------------------------------


@dataclass
class _Knowledge:
    """What a seat knows about the cards it cannot see."""

    unseen: set[int]
    void: list[set[int]]  # per seat: suits it has shown out of
    trump_cap: list[int]  # per seat: it holds no trump stronger than this (8 = unknown)


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
    return _Knowledge(unseen, void, cap)


def _may_hold(k: _Knowledge, seat: int, card: int, trump: int) -> bool:
    s = card // 8
    if card not in k.unseen or s in k.void[seat]:
        return False
    return not (s == trump and TRUMP_STRENGTH[card % 8] > k.trump_cap[seat])


def _can_beat(k: _Knowledge, seat: int, best: int, trump: int, led: int) -> bool:
    """Whether ``seat`` may hold a card that beats ``best`` in a trick led with ``led``."""
    top = power(best, trump, led)
    for c in k.unseen:
        if power(c, trump, led) <= top or not _may_hold(k, seat, c, trump):
            continue
        if c // 8 == led or led == trump:
            return True
        # a trump beats only if the seat may be out of the led suit
        if not any(_may_hold(k, seat, x, trump) for x in k.unseen if x // 8 == led):
            return True
        if led not in k.void[seat] and _may_lack(k, seat, led):
            return True
    return False


def _may_lack(k: _Knowledge, seat: int, suit: int) -> bool:
    """Whether the seat may have no card of ``suit`` left (we cannot rule it out unless we
    know that it holds one, which we never know for sure): count the outstanding cards."""
    outstanding = sum(1 for x in k.unseen if x // 8 == suit)
    return outstanding <= 3


def _future_value(card: int, trump: int, k: _Knowledge, hand: Sequence[int]) -> float:
    """How much a card is worth keeping: high trumps, and cards that are (or will become)
    the best of their suit."""
    s, r = card // 8, card % 8
    if s == trump:
        return 6.0 + 3.0 * TRUMP_STRENGTH[r]
    higher = sum(1 for x in k.unseen if x // 8 == s and PLAIN_STRENGTH[x % 8] > PLAIN_STRENGTH[r])
    if higher == 0:
        return 8.0 + card_points(card, trump) * 0.5
    if higher == 1:
        return 3.0
    return 0.0


def _play_strong(obs: KlaverjasObservation, cards: list[int], rng: Stream) -> int:
    trump = obs.trump
    assert trump is not None and obs.playing_seat is not None
    k = _knowledge(obs)
    if not obs.trick:
        return _lead_strong(obs, cards, k, rng)
    return _follow_strong(obs, cards, k)


def _top_trump(card: int, k: _Knowledge, trump: int) -> bool:
    """Whether no unseen trump is higher than ``card``."""
    strength = TRUMP_STRENGTH[card % 8]
    return all(strength > TRUMP_STRENGTH[x % 8] for x in k.unseen if x // 8 == trump)


def _opponents(seat: int) -> tuple[int, int]:
    return (seat + 1) % 4, (seat + 3) % 4


def _lead_strong(obs: KlaverjasObservation, cards: list[int], k: _Knowledge, rng: Stream) -> int:
    trump = obs.trump
    assert trump is not None and obs.playing_seat is not None
    seat = obs.seat
    opps = _opponents(seat)
    our_team_plays = obs.playing_seat % 2 == seat % 2
    trumps = sorted((c for c in cards if c // 8 == trump), key=lambda c: -TRUMP_STRENGTH[c % 8])
    opp_trumps = [
        c for c in k.unseen if c // 8 == trump and any(_may_hold(k, o, c, trump) for o in opps)
    ]
    # 1. pull trumps with the best trump when our team plays
    if trumps and opp_trumps and (our_team_plays or obs.playing_seat == seat):
        best = trumps[0]
        if _top_trump(best, k, trump):
            return best
        if obs.playing_seat == seat and len(trumps) >= 3:
            return trumps[-1]
    # 2. sure winners in side suits
    sure: list[int] = []
    for c in cards:
        if c // 8 == trump:
            if opp_trumps and _top_trump(c, k, trump):
                sure.append(c)
            continue
        if any(
            x // 8 == c // 8 and PLAIN_STRENGTH[x % 8] > PLAIN_STRENGTH[c % 8] for x in k.unseen
        ):
            continue
        if all(not _can_beat(k, o, c, trump, c // 8) for o in opps):
            sure.append(c)
    if sure:
        return max(sure, key=lambda c: (card_points(c, trump), -c))

    # 3. a low card from a suit where it costs least: no bare ten, not trump when defending
    def lead_cost(c: int) -> tuple[float, int]:
        s = c // 8
        cost = float(card_points(c, trump)) + _future_value(c, trump, k, obs.hand)
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


def _follow_strong(obs: KlaverjasObservation, cards: list[int], k: _Knowledge) -> int:
    trump = obs.trump
    assert trump is not None
    trick = obs.trick
    led = trick[0] // 8
    pos = len(trick)
    seat = obs.seat
    later = [(seat + i) % 4 for i in range(1, 4 - pos)]
    later_opps = [s for s in later if s % 2 != seat % 2]
    base_points = sum(card_points(c, trump) for c in trick)
    best_option: tuple[float, int] | None = None
    for c in cards:
        cards_after = (*trick, c)
        win = winning_index(cards_after, trump)
        ours = (win - pos) % 2 == 0  # the winner sits on our team
        winner_card = cards_after[win]
        holds = not any(_can_beat(k, o, winner_card, trump, led) for o in later_opps)
        roem = _roem(cards_after, trump, obs.variant.four_jacks)
        points = base_points + card_points(c, trump)
        expected_more = 6.0 * len(later)  # the later cards bring a few points too
        if ours and holds:
            gain = points + roem + expected_more
        elif ours:
            gain = 0.35 * (points + roem + expected_more) - 0.65 * (points + roem + expected_more)
        else:
            gain = -(points + roem + expected_more)
        gain -= _future_value(c, trump, k, obs.hand) * (1.0 if c // 8 == trump else 0.6)
        option = (gain, -c)
        if best_option is None or option > best_option:
            best_option = option
    assert best_option is not None
    return -best_option[1]
