"""The Klaverjas expert bot of version 3: version 2's search (``expert_v2``) within one
work cap.

It bids as version 2 does and plays as version 2 does (the same samples, in the same
order from the same stream, the same search and rollouts, the same budgets), with one
difference: all the work of a decision is counted on one counter and stops at
``WORK_CAP`` units, so that its worst case fits the time budget. Version 2's slowest
decisions are its first searches (four tricks left): no new sample once ``NODE_BUDGET``
nodes are spent, but the sample that passes it runs on to ``NODE_LIMIT`` (12,000 nodes;
8,154 seen in 5,388 Amsterdams decisions), while its sampling (at most 1,200 tries at a deal: 24
samples of 20 tries with the trump caps and 20 without, and 12 redraws of 20 for the
bidding; a try takes about ten nodes' time) stays a few milliseconds. The units:

- a try at dealing a sample (``expert_v2.draw_once``) costs ``DRAW_COST``;
- a check of a sample against the bidding costs ``CHECK_COST`` per bid checked;
- a node of the double-dummy search, and a card of a rollout, cost 1.

Samples are drawn one at a time as the search or the rollouts need them (the same
deals as version 2's, which drew ``SAMPLES`` before using any). No work starts that the
cap cannot pay for: a draw or a check that does not fit ends the sampling, a rollout
sample is started only if every card's rollout to the round's end fits, and the
double-dummy search stops at the cap (the sample being searched is dropped). As in
version 2, ``NODE_BUDGET`` and ``ROLLOUT_NODES`` (counted from the first search node or
rollout card, as version 2 counts them) stop new samples earlier. With no sample drawn or
searched, the strong bot's card is played. The count never depends on the clock: every
choice is a function of the observation and the round's ``bot:<seat>`` stream.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from engine.dealing import Stream
from engine.klaverjas.actions import Action
from engine.klaverjas.bots import strong as strong_bot
from engine.klaverjas.bots.dd import DoubleDummy, OutOfNodes
from engine.klaverjas.bots.expert_v2 import (
    BID_TRIES,
    NODE_BUDGET,
    ROLLOUT_NODES,
    ROLLOUT_SAMPLES,
    SAMPLE_TRIES,
    SAMPLES,
    Play,
    agrees,
    bid_checks,
    draw_once,
    draw_setup,
    expert_bid,
    played_cards,
)
from engine.klaverjas.bots.knowledge import knowledge
from engine.klaverjas.state import KlaverjasObservation

#: the work a decision may do, in the units of the module text (a node took 3-4 µs on
#: the benchmarks' machine, up to 16 µs in a decision: 20-100 ms)
WORK_CAP: Final = 6000
#: the work of one try at dealing a sample (about 40 µs: ten nodes)
DRAW_COST: Final = 10
#: the work of checking one bid against a sample (about 8 µs)
CHECK_COST: Final = 2
#: how far the search's node count may pass its limit before it stops
#: (``DoubleDummy._play`` checks the limit as it counts a node; the node of the round's
#: last trick, whose cards are forced, is counted unchecked: a node counted at the limit,
#: then the last trick after each of the two cards of the penultimate trick's last seat,
#: then the node that stops the search)
SEARCH_OVERSHOOT: Final = 3


class _Sampler:
    """Samples as version 2 draws them, one at a time, each try and check paid on the
    search's counter (``DoubleDummy.nodes``) while it stays within ``WORK_CAP``."""

    def __init__(self, obs: KlaverjasObservation, rng: Stream, work: DoubleDummy) -> None:
        self.obs = obs
        self.rng = rng
        self.work = work
        k = knowledge(obs)
        self.capped = draw_setup(obs, k, caps=True)
        self.uncapped = draw_setup(obs, k, caps=False)
        self.played = played_cards(obs)
        self.checks = bid_checks(obs)
        self.misses = 0
        self.spent = False  # a try or check did not fit

    def _pay(self, units: int) -> bool:
        if self.work.nodes + units > WORK_CAP:
            self.spent = True
            return False
        self.work.nodes += units
        return True

    def _draw(self, capped: bool) -> list[int] | None:
        setup = self.capped if capped else self.uncapped
        for _ in range(SAMPLE_TRIES):
            if not self._pay(DRAW_COST):
                return None
            hands = draw_once(self.obs, setup, self.rng)
            if hands is not None:
                return hands
        return None

    def _agrees(self, hands: list[int]) -> bool | None:
        if not self._pay(CHECK_COST * len(self.checks)):
            return None
        return agrees(self.obs, hands, self.played, self.checks)

    def samples(self) -> Iterator[list[int]]:
        """Up to ``SAMPLES`` samples (version 2's ``_samples``, lazily)."""
        for _ in range(SAMPLES):
            hands = self._draw(True)
            if hands is None and not self.spent:
                hands = self._draw(False)
            if self.spent:
                return
            if hands is None:
                continue
            while self.checks and self.misses < BID_TRIES:
                ok = self._agrees(hands)
                if ok is None:
                    return
                if ok:
                    break
                self.misses += 1
                again = self._draw(True)
                if self.spent:
                    return
                hands = again or hands
            yield hands


def decide(obs: KlaverjasObservation, *, rng: Stream) -> tuple[Action, int]:
    """The expert's action (version 3) for the seat of ``obs`` and the work it took
    (at most ``WORK_CAP``; see the module text)."""
    bid = expert_bid(obs)
    if bid is not None:
        return bid, 0
    strong = strong_bot.choose(obs, rng)
    if obs.phase != "play" or len(obs.legal) < 2:
        return strong, 0
    # the search's node count is the decision's work counter; a search started within
    # its limit passes it by ``SEARCH_OVERSHOOT`` at most
    play = Play(obs, strong, WORK_CAP - SEARCH_OVERSHOOT)
    search = play.search
    samples = _Sampler(obs, rng, search).samples()
    first = next(samples, None)
    if first is None:
        return strong, search.nodes
    rep, cards = play.candidates(first)
    totals = dict.fromkeys(cards, 0)
    hands: list[int] | None = first
    if play.rollouts:
        if len(cards) < 2:
            return strong, search.nodes
        # a rollout plays at most every card still out
        longest = 32 - 4 * len(obs.tricks) - len(obs.trick)
        count = 0
        played = 0  # rollout cards (version 2's ``ROLLOUT_NODES`` counts these)
        while hands is not None and count < ROLLOUT_SAMPLES:
            if played >= ROLLOUT_NODES or search.nodes + len(cards) * longest > WORK_CAP:
                break
            before = search.nodes
            for c, x in play.rollout_values(hands, cards).items():
                totals[c] += x
            played += search.nodes - before
            count += 1
            if count < ROLLOUT_SAMPLES:
                hands = next(samples, None)
        return play.rollout_choice(totals, rep, count), search.nodes
    searched = 0
    nodes = 0  # search nodes (version 2's ``NODE_BUDGET`` counts these)
    while hands is not None:
        if nodes >= NODE_BUDGET or search.nodes > search.limit:
            break
        before = search.nodes
        try:
            values = play.search_values(hands, cards)
        except OutOfNodes:
            break
        nodes += search.nodes - before
        for c, x in values.items():
            totals[c] += x
        searched += 1
        hands = next(samples, None)
    if not searched:
        return strong, search.nodes
    return play.search_choice(totals, rep), search.nodes


def choose_expert_v3(obs: KlaverjasObservation, *, rng: Stream) -> Action:
    """The expert's action (version 3) for the seat of ``obs`` (see the module text)."""
    return decide(obs, rng=rng)[0]
