"""The Klaverjas ``expert`` bot of version 1: determinized double-dummy search (GIB's
PIMC) of the last tricks. It stays as it was released, so that games played with it
replay the same (version 2: ``engine.klaverjas.bots.expert_v2``).

Version 1 bids like the ``strong`` bot and plays its cards until ``SEARCH_TRICKS``
tricks are left. From then on, when it has a choice of two or more cards, it:

1. samples ``SAMPLES`` deals of the cards it has not seen over the other three seats,
   each consistent with its observation: the number of cards in each hand, the suits
   a seat has shown out of, and the trumps a seat cannot hold (it failed to overtrump
   when it had to) — the card counting of the strong bot (``knowledge``);
2. for each sample and each legal card, searches the rest of the round double dummy
   (every hand open) to its end: alpha-beta with the bounds found for a position at
   the start of a trick memoised, the value being the card points and roem the own team
   takes minus what the other team takes (the last trick's bonus included);
3. turns each result into the round's outcome for its team (a playing team that does
   not score more than the other is nat: it gets nothing and the other team gets 162
   and all roem) and plays the card with the best total over the samples (ties: the
   strong bot's card, then the lowest card id).

The search is counted in nodes, never in wall-clock time: no new sample is searched
once ``NODE_BUDGET`` nodes are spent, and a sample that would pass ``NODE_LIMIT`` is
dropped (with none searched, the strong bot's card is played). Every choice is a
function of the observation and the round's ``bot:<seat>`` stream (the samples are
drawn from it). (Searching earlier tricks a trick or two ahead, with the rest counted
as shared evenly, played worse than the strong bot's card in duplicate play.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.dealing import Stream
from engine.klaverjas.actions import Action, PlayCard
from engine.klaverjas.bots import strong as strong_bot
from engine.klaverjas.bots.knowledge import Knowledge, knowledge, may_hold
from engine.klaverjas.roem import roem_points
from engine.klaverjas.rules import PLAIN_STRENGTH, TRUMP_STRENGTH, card_points
from engine.klaverjas.state import KlaverjasObservation
from engine.klaverjas.variants import Variant

#: deals sampled per decision (at most)
SAMPLES: Final = 12
#: no further sample is searched once the search has visited this many nodes
NODE_BUDGET: Final = 4000
#: a sample whose search would pass this many nodes in all is dropped, and so are the
#: samples after it (the bound of a decision's time)
NODE_LIMIT: Final = 9000
#: the expert searches when at most this many tricks are left (the current one
#: included); before, it plays the strong bot's card
SEARCH_TRICKS: Final = 4


class _OutOfNodes(Exception):
    """The search passed ``NODE_LIMIT``."""


#: tries to draw a deal that meets every known void and trump cap, before dropping caps
SAMPLE_TRIES: Final = 20

_SUIT_MASK: Final = tuple(0xFF << (8 * s) for s in range(4))
_ALL: Final = 0xFFFFFFFF


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class _Search:
    """Double-dummy search of one trump suit and variant: hands are bit masks of card ids.

    ``value(hands, leader, trick, tricks_left)`` is the best difference (team 0 minus
    team 1) of the card points and roem still to be won, both teams playing perfectly
    with every hand open."""

    def __init__(self, trump: int, variant: Variant, last_trick: int, limit: int) -> None:
        self.trump = trump
        self.v = variant
        self.last_trick = last_trick
        self.nodes = 0
        self.limit = limit
        #: a position at the start of a trick -> the bounds of its value found so far
        self.memo: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        #: a full trick (cards in play order) -> the index of its winner, its points
        #: and roem
        self.tricks: dict[tuple[int, ...], tuple[int, int]] = {}
        tmask = _SUIT_MASK[trump]
        self.tmask = tmask
        # power of each card by led suit: trumps above the led suit above the rest
        self.power = [
            [
                (
                    16 + TRUMP_STRENGTH[c % 8]
                    if c // 8 == trump
                    else (8 + PLAIN_STRENGTH[c % 8] if c // 8 == led else -1)
                )
                for c in range(32)
            ]
            for led in range(4)
        ]
        self.points = [card_points(c, trump) for c in range(32)]
        #: the cards of each suit, strongest first
        self.order = [
            sorted(
                range(8 * s, 8 * s + 8),
                key=lambda c: -(TRUMP_STRENGTH if c // 8 == trump else PLAIN_STRENGTH)[c % 8],
            )
            for s in range(4)
        ]
        #: trumps stronger than a trump strength (index -1..7 as 0..8)
        self.higher = [
            sum(1 << (trump * 8 + r) for r in range(8) if TRUMP_STRENGTH[r] > s)
            for s in range(-1, 8)
        ]

    def legal(self, hand: int, trick: Sequence[int]) -> int:
        """``rules.legal_cards`` on bit masks."""
        if not trick:
            return hand
        v = self.v
        led = trick[0] // 8
        follow = hand & _SUIT_MASK[led]
        top = -1
        trump = self.trump
        for c in trick:
            if c // 8 == trump and TRUMP_STRENGTH[c % 8] > top:
                top = TRUMP_STRENGTH[c % 8]
        if follow:
            if led == trump and v.must_overtrump:
                high = follow & self.higher[top + 1]
                if high:
                    return high
            return follow
        trumps = hand & self.tmask
        if not trumps:
            return hand
        others = hand & ~self.tmask
        exempt = False
        if v.partner_exemption and len(trick) >= 2:
            power = self.power[led]
            best = max(range(len(trick)), key=lambda i: power[trick[i]])
            exempt = best == len(trick) - 2
        high = trumps & self.higher[top + 1]
        if high:
            allowed = high if (v.must_overtrump and not exempt) else trumps
            may_discard = bool(others) and (exempt or not v.must_trump)
        else:
            allowed = trumps if (v.undertrump == "must_undertrump" or not others) else 0
            if not others:
                may_discard = False
            elif exempt or not v.must_trump:
                may_discard = True
            else:
                may_discard = v.undertrump == "no_undertrump_while_other_suit"
        if may_discard:
            allowed |= others
        return allowed

    def value(
        self,
        hands: list[int],
        leader: int,
        trick: tuple[int, ...],
        alpha: int = -10_000,
        beta: int = 10_000,
    ) -> int:
        """The value (team 0 minus team 1) of the rest of the round, the current trick
        (led by ``leader``, its cards ``trick``) included."""
        self.nodes += 1
        if self.nodes > self.limit:
            raise _OutOfNodes
        n = len(trick)
        if n == 4:
            known = self.tricks.get(trick)
            if known is None:
                power = self.power[trick[0] // 8]
                win = max(range(4), key=lambda i: power[trick[i]])
                points = sum(self.points[c] for c in trick)
                known = (win, points + roem_points(trick, self.trump, self.v.four_jacks))
                self.tricks[trick] = known
            win, gain = known
            winner = (leader + win) % 4
            last = not (hands[0] or hands[1] or hands[2] or hands[3])
            if last:
                gain += self.last_trick
            if winner % 2:
                gain = -gain
            if last:
                return gain
            return gain + self._fresh(hands, winner, alpha - gain, beta - gain)
        seat = (leader + n) % 4
        moves = self._moves(hands, seat, trick)
        maximise = seat % 2 == 0
        best = -10_000 if maximise else 10_000
        hand = hands[seat]
        for c in moves:
            hands[seat] = hand & ~(1 << c)
            x = self.value(hands, leader, (*trick, c), alpha, beta)
            if maximise:
                if x > best:
                    best = x
                    if x > alpha:
                        alpha = x
            else:
                if x < best:
                    best = x
                    if x < beta:
                        beta = x
            if alpha >= beta:
                break
        hands[seat] = hand
        return best

    def _moves(self, hands: list[int], seat: int, trick: tuple[int, ...]) -> list[int]:
        """The legal cards worth trying, strongest first: of cards of one suit next to
        each other in strength among the cards still in play and worth the same points,
        only the highest (they win and lose the same tricks)."""
        legal = self.legal(hands[seat], trick)
        if legal & (legal - 1) == 0:
            return [legal.bit_length() - 1]
        live = hands[0] | hands[1] | hands[2] | hands[3]
        for c in trick:
            live |= 1 << c
        points = self.points
        order = self.order
        out: list[int] = []
        for s in range(4):
            mine = legal & _SUIT_MASK[s]
            if not mine:
                continue
            prev = -1
            for c in order[s]:
                bit = 1 << c
                if mine & bit:
                    if prev < 0 or points[prev] != points[c]:
                        out.append(c)
                    prev = c
                elif live & bit:
                    prev = -1
        led = trick[0] // 8 if trick else 0
        power = self.power[led]
        out.sort(key=lambda c: (-power[c], -points[c]))
        return out

    def _fresh(self, hands: list[int], leader: int, alpha: int, beta: int) -> int:
        """The value of a position at the start of a trick, within the window ``alpha``
        to ``beta`` (a value outside it is a bound): the bounds found are memoised."""
        key = (hands[0], hands[1], hands[2], hands[3], leader)
        low, high = self.memo.get(key, (-10_000, 10_000))
        if low >= beta:
            return low
        if high <= alpha or low == high:
            return high
        x = self.value(hands, leader, (), max(alpha, low), min(beta, high))
        if x <= max(alpha, low):
            high = x
        elif x >= min(beta, high):
            low = x
        else:
            low = high = x
        self.memo[key] = (low, high)
        return x


def _sample(
    obs: KlaverjasObservation, k: Knowledge, rng: Stream, *, caps: bool
) -> list[int] | None:
    """One deal of the unseen cards over the other seats (hands as bit masks, own hand
    included), consistent with the voids (and, with ``caps``, the trump caps) of ``k``,
    or ``None`` when the tries run out."""
    seat = obs.seat
    others = [s for s in range(4) if s != seat]
    unseen = sorted(k.unseen)
    allowed: dict[int, list[int]] = {}
    for c in unseen:
        if caps:
            allowed[c] = [s for s in others if may_hold(k, s, c)]
        else:
            allowed[c] = [s for s in others if c // 8 not in k.void[s]]
    # the most constrained cards first
    order = sorted(unseen, key=lambda c: (len(allowed[c]), c))
    for _ in range(SAMPLE_TRIES):
        room = list(obs.hand_counts)
        hands = [0, 0, 0, 0]
        for c in obs.hand:
            hands[seat] |= 1 << c
        ok = True
        for c in order:
            free = [s for s in allowed[c] if room[s] > 0]
            if not free:
                ok = False
                break
            total = sum(room[s] for s in free)
            x = rng.uniform(total)
            for s in free:
                x -= room[s]
                if x < 0:
                    break
            room[s] -= 1
            hands[s] |= 1 << c
        if ok:
            return hands
    return None


def _samples(obs: KlaverjasObservation, rng: Stream, count: int) -> list[list[int]]:
    out: list[list[int]] = []
    k = knowledge(obs)
    for _ in range(count):
        hands = _sample(obs, k, rng, caps=True) or _sample(obs, k, rng, caps=False)
        if hands is not None:
            out.append(hands)
    return out


def _outcome(diff: int, team: int, playing_team: int, total: int, tie_is_nat: bool) -> int:
    """The round's score difference for ``team`` given its final card-and-roem
    difference ``diff``: a playing team that does not score more is nat (it gets
    nothing, the other team ``total``)."""
    playing_diff = diff if team == playing_team else -diff
    if playing_diff < 0 or (playing_diff == 0 and tie_is_nat):
        return -total if team == playing_team else total
    return diff


def choose_expert(obs: KlaverjasObservation, *, rng: Stream) -> Action:
    """The expert's action (version 1) for the seat of ``obs`` (see the module text)."""
    strong = strong_bot.choose(obs, rng)
    legal = obs.legal
    if obs.phase != "play" or len(legal) < 2 or 8 - len(obs.tricks) > SEARCH_TRICKS:
        return strong
    assert obs.trump is not None and obs.playing_seat is not None
    v = obs.variant
    seat = obs.seat
    team = seat % 2
    # what the teams have taken so far (team 0 minus team 1), and the roem so far
    taken = 0
    roem = 0
    for t in obs.tricks:
        gain = t.points + t.roem
        taken += gain if t.winner % 2 == 0 else -gain
        roem += t.roem
    total = 152 + v.last_trick + roem
    search = _Search(obs.trump, v, v.last_trick, NODE_LIMIT)
    cards = [a.card for a in legal if isinstance(a, PlayCard)]
    totals = dict.fromkeys(cards, 0)
    trick = obs.trick
    leader = obs.leader if trick else seat
    playing_team = obs.playing_seat % 2
    searched = 0
    for hands in _samples(obs, rng, SAMPLES):
        if search.nodes >= NODE_BUDGET:
            break
        search.memo.clear()
        values = {}
        try:
            for c in cards:
                hands[seat] &= ~(1 << c)
                values[c] = search.value(hands, leader, (*trick, c))
                hands[seat] |= 1 << c
        except _OutOfNodes:
            break
        for c, d in values.items():
            own = taken + d if team == 0 else -(taken + d)
            totals[c] += _outcome(own, team, playing_team, total, v.tie_is_nat)
        searched += 1
    if not searched:
        return strong
    best = max(totals[c] for c in cards)
    winners = [c for c in cards if totals[c] == best]
    strong_card = strong.card if isinstance(strong, PlayCard) else -1
    return PlayCard(strong_card if strong_card in winners else winners[0])
