"""The Klaverjas expert bot of version 2: determinized search (GIB's PIMC) on every trick.

The expert bids like the ``strong`` bot (with its own thresholds, ``BID_*``). In play,
when it has a choice of cards, it samples up to ``SAMPLES`` deals of the cards it has
not seen over the other seats, each consistent with its observation: the number of
cards in each hand, the suits a seat has shown out of, the trumps a seat cannot hold (it
failed to overtrump when it had to), and the bidding — a seat that passed the proposed
trump did not hold a hand the strong bot would play, a seat that played it did, within
``BID_SLACK`` points of the strong bot's valuation (``bidding.hand_value``), with the cards
the seat has played put back in its hand (after ``BID_TRIES`` deals that miss, the
bidding is left out, then the trump caps). Only one card of a run of equivalent cards
is tried (``DoubleDummy.representatives``). Then:

- with at most ``SEARCH_TRICKS`` tricks left, it searches each card double dummy to the
  round's end in each sample (``engine.klaverjas.bots.dd``: card points, roem, the last
  trick and the pit bonus), turns each result into the round's outcome for its team (a
  playing team that does not score more than the other is nat: it gets nothing, the
  other team all points) and plays the card with the best total over the samples
  (ties: the strong bot's card, then the first in the search's order); no new sample
  is searched once ``NODE_BUDGET`` nodes are spent, and a search that passes
  ``NODE_LIMIT`` is stopped and its sample dropped;
- earlier, it plays each card out in up to ``ROLLOUT_SAMPLES`` samples with the quick
  greedy play of every seat (``DoubleDummy.rollout``: hands open), scores the outcomes
  the same way, and keeps the strong bot's card unless another card's total is better
  by more than ``ROLLOUT_MARGIN`` points a sample (a rollout policy improvement); no new
  sample once ``ROLLOUT_NODES`` cards are played.

The work is counted in nodes and cards, never in wall-clock time; with no sample drawn
or searched, the strong bot's card is played. Every choice is a function of the
observation and the round's ``bot:<seat>`` stream.
"""

from __future__ import annotations

from typing import Final

from engine.dealing import Stream
from engine.klaverjas.actions import Action, Bid, PlayCard
from engine.klaverjas.bots import strong as strong_bot
from engine.klaverjas.bots.bidding import (
    STRONG_THRESHOLD,
    STRONG_THRESHOLD_FORCED,
    STRONG_THRESHOLD_FREE,
    hand_value,
)
from engine.klaverjas.bots.dd import DoubleDummy, OutOfNodes, pit_state
from engine.klaverjas.bots.knowledge import Knowledge, knowledge, may_hold
from engine.klaverjas.state import KlaverjasObservation

#: the expert plays the proposed trump when the strong bot's valuation of its hand is at
#: least this: with ``one_round_first_chooses`` for the first player's team (which must
#: play if all pass) and the other team, else
BID_FORCED: float = STRONG_THRESHOLD_FORCED
BID_FREE: float = STRONG_THRESHOLD_FREE
BID_OTHER: float = STRONG_THRESHOLD

#: deals sampled per decision (at most)
SAMPLES: Final = 24
#: no new sample is searched once this many nodes are spent
NODE_BUDGET: Final = 3000
#: the search of a decision stops here (the sample being searched is dropped)
NODE_LIMIT: Final = 12000
#: the expert searches when at most this many tricks are left (the current included)
SEARCH_TRICKS: Final = 4
#: earlier: samples played out by the greedy play of ``DoubleDummy.rollout`` (at most),
#: no new sample once this many cards are played, and the strong bot's card is kept
#: unless another is better by more than this many points a sample
ROLLOUT_SAMPLES: int = 16
ROLLOUT_NODES: int = 3000
ROLLOUT_MARGIN: float = 5.0
#: tries to draw a deal that meets every known void and trump cap
SAMPLE_TRIES: Final = 20
#: tries to draw a deal whose hands agree with the bidding
BID_TRIES: Final = 12
#: how far (points of ``hand_value``) a bid may be from the strong bot's valuation
BID_SLACK: Final = 20.0


#: what ``draw_once`` needs of a decision: the order in which the unseen cards are dealt,
#: the seats that may hold each, and the own hand (a bit mask)
DrawSetup = tuple[list[int], dict[int, list[int]], int]


def draw_setup(obs: KlaverjasObservation, k: Knowledge, *, caps: bool) -> DrawSetup:
    """What ``draw_once`` needs to deal the unseen cards over the other seats consistent
    with the voids (and, with ``caps``, the trump caps) of ``k``."""
    seat = obs.seat
    others = [s for s in range(4) if s != seat]
    allowed: dict[int, list[int]] = {}
    for c in k.unseen:
        if caps:
            allowed[c] = [s for s in others if may_hold(k, s, c)]
        else:
            allowed[c] = [s for s in others if c // 8 not in k.void[s]]
    order = sorted(k.unseen, key=lambda c: (len(allowed[c]), c))
    own = 0
    for c in obs.hand:
        own |= 1 << c
    return order, allowed, own


def draw_once(obs: KlaverjasObservation, setup: DrawSetup, rng: Stream) -> list[int] | None:
    """One try at a deal of the unseen cards (hands as bit masks, own hand included) as
    ``setup`` says, or ``None`` when a card finds no seat with room."""
    order, allowed, own = setup
    room = list(obs.hand_counts)
    hands = [0, 0, 0, 0]
    hands[obs.seat] = own
    for c in order:
        free = [s for s in allowed[c] if room[s] > 0]
        if not free:
            return None
        if len(free) == 1:
            s = free[0]
        else:
            x = rng.uniform(sum(room[s] for s in free))
            for s in free:
                x -= room[s]
                if x < 0:
                    break
        room[s] -= 1
        hands[s] |= 1 << c
    return hands


def _draw(obs: KlaverjasObservation, k: Knowledge, rng: Stream, *, caps: bool) -> list[int] | None:
    """One deal of the unseen cards over the other seats (``draw_once``) in at most
    ``SAMPLE_TRIES`` tries, or ``None`` when the tries run out."""
    setup = draw_setup(obs, k, caps=caps)
    for _ in range(SAMPLE_TRIES):
        hands = draw_once(obs, setup, rng)
        if hands is not None:
            return hands
    return None


def bid_checks(obs: KlaverjasObservation) -> list[tuple[int, int, bool, float]]:
    """What the bidding says about the other seats: ``(seat, suit, plays, threshold)``,
    a seat that ``plays`` holding a hand worth at least ``threshold`` with ``suit``
    trump, one that passes less (the strong bot's valuation and thresholds)."""
    v = obs.variant
    first = obs.first_player
    out: list[tuple[int, int, bool, float]] = []
    for b in obs.bids:
        if b.seat == obs.seat:
            continue
        if b.bidding_round == 1:
            if v.bidding == "one_round_first_chooses":
                forced = first % 2 == b.seat % 2
                threshold = STRONG_THRESHOLD_FORCED if forced else STRONG_THRESHOLD_FREE
            else:
                threshold = STRONG_THRESHOLD
            out.append((b.seat, obs.proposed_trump, b.play, threshold))
        elif b.play and b.suit is not None:
            out.append((b.seat, b.suit, True, STRONG_THRESHOLD))
    return out


def agrees(
    obs: KlaverjasObservation,
    hands: list[int],
    played: list[list[int]],
    checks: list[tuple[int, int, bool, float]],
) -> bool:
    """Whether the sampled ``hands`` (with the cards each seat played) agree with the
    bidding checks, within ``BID_SLACK``."""
    first = obs.first_player
    for seat, suit, plays, threshold in checks:
        hand = [c for c in range(32) if hands[seat] >> c & 1] + played[seat]
        value = hand_value(hand, suit, strong=True, leading_team=first % 2 == seat % 2)
        if plays and value < threshold - BID_SLACK:
            return False
        if not plays and value >= threshold + BID_SLACK:
            return False
    return True


def played_cards(obs: KlaverjasObservation) -> list[list[int]]:
    """The cards each seat has played this round (the current trick's included)."""
    played: list[list[int]] = [[], [], [], []]
    for t in obs.tricks:
        for seat, c in zip(t.seats, t.cards, strict=True):
            played[seat].append(c)
    for i, c in enumerate(obs.trick):
        played[(obs.leader + i) % 4].append(c)
    return played


def _samples(obs: KlaverjasObservation, rng: Stream) -> list[list[int]]:
    k = knowledge(obs)
    played = played_cards(obs)
    checks = bid_checks(obs)
    out: list[list[int]] = []
    misses = 0
    for _ in range(SAMPLES):
        hands = _draw(obs, k, rng, caps=True) or _draw(obs, k, rng, caps=False)
        if hands is None:
            continue
        while checks and misses < BID_TRIES and not agrees(obs, hands, played, checks):
            misses += 1
            hands = _draw(obs, k, rng, caps=True) or hands
        out.append(hands)
    return out


def outcome(diff: int, team: int, playing_team: int, total: int, tie_is_nat: bool) -> int:
    """The round's score difference for ``team`` given its final difference of points,
    roem and bonuses ``diff``: a playing team that does not score more is nat (it gets
    nothing, the other team at least ``total``)."""
    playing_diff = diff if team == playing_team else -diff
    if playing_diff < 0 or (playing_diff == 0 and tie_is_nat):
        size = max(total, abs(diff))
        return -size if team == playing_team else size
    return diff


def round_so_far(obs: KlaverjasObservation) -> tuple[int, int]:
    """The round so far: what team 0 has taken minus what team 1 has (card points and
    roem of the tricks played), and the points of the whole round (152, the last trick's
    bonus and the roem so far)."""
    taken = 0
    roem = 0
    for t in obs.tricks:
        gain = t.points + t.roem
        taken += gain if t.winner % 2 == 0 else -gain
        roem += t.roem
    return taken, 152 + obs.variant.last_trick + roem


def expert_bid(obs: KlaverjasObservation) -> Action | None:
    """The expert's bid in the first bidding round: the strong bot's valuation against
    the expert's own thresholds (``None`` in another phase)."""
    if obs.phase != "bidding" or len(obs.legal) < 2:
        return None
    leading = obs.first_player % 2 == obs.seat % 2
    value = hand_value(obs.hand, obs.proposed_trump, strong=True, leading_team=leading)
    if obs.variant.bidding == "one_round_first_chooses":
        threshold = BID_FORCED if leading else BID_FREE
    else:
        threshold = BID_OTHER
    return Bid(value >= threshold)


class Play:
    """A play decision's fixed facts (the seat, the trick, the round so far, the strong
    bot's card) and the search (``DoubleDummy`` with a node ``limit``) that values its
    cards in a sample, each as the round's outcome for the seat's team."""

    def __init__(self, obs: KlaverjasObservation, strong: Action, limit: int) -> None:
        assert obs.trump is not None and obs.playing_seat is not None
        self.strong = strong
        self.strong_card = strong.card if isinstance(strong, PlayCard) else -1
        self.seat = obs.seat
        self.team = obs.seat % 2
        self.playing_team = obs.playing_seat % 2
        self.tie_is_nat = obs.variant.tie_is_nat
        self.taken, self.total = round_so_far(obs)
        self.pit = pit_state([t.winner for t in obs.tricks])
        self.trick = obs.trick
        self.leader = obs.leader if obs.trick else obs.seat
        #: whether the cards are played out (``rollout_values``) rather than searched
        self.rollouts = 8 - len(obs.tricks) > SEARCH_TRICKS
        self.search = DoubleDummy(obs.trump, obs.variant, limit)

    def candidates(self, hands: list[int]) -> tuple[dict[int, int], list[int]]:
        """The legal cards -> the card tried for each, and the cards tried (the same in
        every sample: the cards in play are)."""
        search, seat, trick = self.search, self.seat, self.trick
        return search.representatives(hands, seat, trick), search.moves(hands, seat, trick)

    def _outcome(self, d: int) -> int:
        own = self.taken + d if self.team == 0 else -(self.taken + d)
        return outcome(own, self.team, self.playing_team, self.total, self.tie_is_nat)

    def rollout_values(self, hands: list[int], cards: list[int]) -> dict[int, int]:
        """Each card's outcome in the sample ``hands``, played out by ``rollout``."""
        seat = self.seat
        out = {}
        for c in cards:
            hands[seat] &= ~(1 << c)
            d = self.search.rollout(hands, self.leader, (*self.trick, c), self.pit)
            hands[seat] |= 1 << c
            out[c] = self._outcome(d)
        return out

    def search_values(self, hands: list[int], cards: list[int]) -> dict[int, int]:
        """Each card's outcome in the sample ``hands``, searched double dummy (raises
        ``OutOfNodes`` past the search's limit)."""
        search, seat = self.search, self.seat
        search.memo.clear()
        values = {}
        for c in cards:
            hands[seat] &= ~(1 << c)
            values[c] = search.value(hands, self.leader, (*self.trick, c), self.pit)
            hands[seat] |= 1 << c
        return {c: self._outcome(d) for c, d in values.items()}

    def rollout_choice(self, totals: dict[int, int], rep: dict[int, int], count: int) -> Action:
        """The strong bot's card unless another card's total over ``count`` rollout
        samples is better by more than ``ROLLOUT_MARGIN`` points a sample."""
        mine = rep.get(self.strong_card)
        best_card = max(totals, key=lambda c: totals[c])
        if mine is None or totals[best_card] > totals[mine] + ROLLOUT_MARGIN * count:
            return PlayCard(best_card)
        return self.strong

    def search_choice(self, totals: dict[int, int], rep: dict[int, int]) -> Action:
        """The card with the best total over the searched samples (ties: the strong
        bot's card, then the first in the search's order)."""
        best = max(totals.values())
        winners = [c for c in totals if totals[c] == best]
        if rep.get(self.strong_card) in winners:
            return self.strong
        return PlayCard(winners[0])


def choose_expert_v2(obs: KlaverjasObservation, *, rng: Stream) -> Action:
    """The expert's action (version 2) for the seat of ``obs`` (see the module text)."""
    bid = expert_bid(obs)
    if bid is not None:
        return bid
    strong = strong_bot.choose(obs, rng)
    if obs.phase != "play" or len(obs.legal) < 2:
        return strong
    play = Play(obs, strong, NODE_LIMIT)
    samples = _samples(obs, rng)
    if not samples:
        return strong
    rep, cards = play.candidates(samples[0])
    totals = dict.fromkeys(cards, 0)
    if play.rollouts:
        if len(cards) < 2:
            return strong
        count = 0
        for hands in samples[:ROLLOUT_SAMPLES]:
            if play.search.nodes >= ROLLOUT_NODES:
                break
            for c, x in play.rollout_values(hands, cards).items():
                totals[c] += x
            count += 1
        return play.rollout_choice(totals, rep, count)
    searched = 0
    for hands in samples:
        if play.search.nodes >= NODE_BUDGET:
            break
        try:
            values = play.search_values(hands, cards)
        except OutOfNodes:
            break
        for c, x in values.items():
            totals[c] += x
        searched += 1
    if not searched:
        return strong
    return play.search_choice(totals, rep)
