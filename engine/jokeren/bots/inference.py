"""Research, not a bot: how likely a world's hidden hands are, given every public action
since the deal, under a model of a *reasonable player* (not the strong bot's code).

Not used by any released bot version (``benchmarks/expert_oracle.py --know model``
measures it). A world is a full round state consistent with a seat's observation
(``expert._world``); its log-weight is the sum, over every other seat and every public
action of that seat this round, of the log-probability that a reasonable player holding
the world's hand at that moment makes that action.

The model's assumptions:

- **The hand at an action** is reconstructed backwards from the world's current hand:
  the cards the seat laid down, laid off or discarded since are put back, the open cards
  it took since are taken out, a joker it swapped off the table since is given back for
  the card it gave. Cards it drew from the stock since are unknown and stay in (the
  reconstruction holds a few cards too many).
- **Cards relate by kind only** (two copies in a two-deck game alike). A card *connects*
  to another of the same rank (another suit: a set), or of the same suit one or two run
  positions away (an ace low or high; no run wraps from king to two).
- **The open card** (the open pile's top when the seat drew; taking a joker, or a card
  that fits the table for a seat that has come out, tells nothing about the hand): taken
  with probability ``take_meld`` when it makes a meld with two cards of the hand (a set,
  a run of three, or a joker and a connecting card), ``take_near`` when it connects to
  one card, ``take_loose`` otherwise; drawing from the stock instead is the complement.
- **A discard** of kind ``d`` from hand ``H``: ``P(d) ∝ exp(-beta * keep(d))`` over the
  cards of ``H``, where ``keep(x)`` counts the cards of ``H`` that ``x`` connects to (a
  same-rank card or a run neighbour one position away 1, two positions away 1/2, another
  copy of ``x`` 1) less ``points_weight`` per penalty point of ``x`` (a reasonable player
  dumps high loose cards first), and a joker's is ``joker_keep`` (kept).
- **A floor**: every action's probability is mixed with ``floor`` of a uniform choice
  (half for the draw, one over the hand for the discard), so no world's weight is zero.
- Actions are independent given the reconstructed hands (the log-weights add up).

Using it: ``select_worlds`` keeps the most likely of a pool of worlds dealt uniformly
(``expert._world``) or draws from the pool by weight; ``sample_posterior`` walks a
Metropolis chain over the hidden cards instead (the pool's worlds are far apart, so a
pool of 32 seldom holds one close to the truth). Every function is deterministic; the
two draw only from the stream they are given.

Measured (benchmarks/expert_oracle.py ``--know model`` and ``--diagnose``, 2026-12-03): the
evidence is weak. The worlds kept put 16.5-18.6% of the opponents' hidden cards in the
right seat against 15-16% for uniform worlds, and make the opponents look closer to going
out than they are; the expert's search over 8 of them plays no better than over 8 uniform
worlds (the most likely of 32), or worse (the chain's).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, NamedTuple

from engine.dealing import Stream
from engine.jokeren.actions import Discard, Draw, LayMelds, LayOff, SwapJoker
from engine.jokeren.bots.hand import JOKER_KIND, KIND, KIND_POINTS
from engine.jokeren.bots.table import table_view
from engine.jokeren.state import JokerenObservation, JokerenState

KINDS: Final = JOKER_KIND + 1


@dataclass(frozen=True)
class Model:
    """The reasonable player's parameters (see the module text)."""

    take_meld: float = 0.85
    take_near: float = 0.4
    take_loose: float = 0.05
    beta: float = 1.5
    points_weight: float = 0.05
    joker_keep: float = 10.0
    floor: float = 0.05


class Event(NamedTuple):
    """A public action of a seat: ``take`` (an open card), ``pass`` (the stock drawn with
    ``kinds[0]`` open), ``discard``, ``lay`` (cards laid down or off) or ``swap`` (the
    card given for a table joker). ``fits``: a take or pass of a card that fits the table
    for a seat that had come out (no evidence about the hand)."""

    what: str
    seat: int
    kinds: tuple[int, ...]
    fits: bool = False


def _positions(k: int) -> tuple[int, ...]:
    r = k % 13 + 1
    return (1, 14) if r == 1 else (r,)


def _kind_at(suit: int, p: int) -> int | None:
    if p < 1 or p > 14:
        return None
    return suit * 13 + (0 if p == 14 else p - 1)


def _tables() -> tuple[
    tuple[tuple[tuple[int, float], ...], ...],
    tuple[tuple[int, ...], ...],
    tuple[tuple[tuple[int, int], ...], ...],
]:
    """Per natural kind: its connections with their weights, the same-rank kinds of the
    other suits, and the pairs of kinds that make a run of three with it."""
    conn: list[tuple[tuple[int, float], ...]] = []
    same: list[tuple[int, ...]] = []
    runs: list[tuple[tuple[int, int], ...]] = []
    for k in range(JOKER_KIND):
        suit, rank = divmod(k, 13)
        s = tuple(t * 13 + rank for t in range(4) if t != suit)
        c: dict[int, float] = dict.fromkeys(s, 1.0)
        trios: set[tuple[int, int]] = set()
        for p in _positions(k):
            for d, w in ((1, 1.0), (2, 0.5)):
                for q in (p - d, p + d):
                    n = _kind_at(suit, q)
                    if n is not None and n != k:
                        c[n] = max(c.get(n, 0.0), w)
            for a, b in ((p - 2, p - 1), (p - 1, p + 1), (p + 1, p + 2)):
                ka, kb = _kind_at(suit, a), _kind_at(suit, b)
                if ka is not None and kb is not None and k not in (ka, kb):
                    trios.add((ka, kb))
        conn.append(tuple(sorted(c.items())))
        same.append(s)
        runs.append(tuple(sorted(trios)))
    return tuple(conn), tuple(same), tuple(runs)


CONNECT, SAME_RANK, RUN_PAIRS = _tables()


def public_events(obs: JokerenObservation) -> list[Event]:
    """Every seat's public actions this round, **newest first**, with the open card each
    draw from the stock passed. The open pile at the deal is rebuilt backwards from the
    log (a card of it that went into a reshuffle unknown), then played forwards."""
    log = obs.log
    fit = table_view(obs.table).fit
    pile: list[int | None] = list(obs.open_pile)
    for kind, _seat, action, data in reversed(log):
        if kind == "action":
            if isinstance(action, Draw) and data:
                pile.append(data[0])
            elif isinstance(action, Discard) and pile:
                pile.pop()
        elif kind == "complete" and data and data[0] == 0:  # to the open pile
            del pile[: len(data) - 1]
        elif kind == "reshuffle":
            hidden: list[int | None] = [None] * int(data[1])
            pile = hidden + pile
    out: set[int] = set()
    events: list[Event] = []
    for kind, seat, action, data in log:
        if kind == "complete" and data and data[0] == 0:
            pile = [*data[1:], *pile]
        elif kind == "reshuffle":
            pile = pile[-1:]
        if kind != "action" or action is None:
            continue
        if isinstance(action, Draw):
            card = data[0] if data else (pile[-1] if pile else None)
            if data and pile:
                pile.pop()
            if card is None:
                continue
            k = KIND[card]
            events.append(Event("take" if data else "pass", seat, (k,), seat in out and k in fit))
        elif isinstance(action, Discard):
            pile.append(action.card)
            events.append(Event("discard", seat, (KIND[action.card],)))
        elif isinstance(action, LayMelds):
            out.add(seat)
            kinds = tuple(KIND[c] for cards, _ in action.melds for c in cards)
            events.append(Event("lay", seat, kinds))
        elif isinstance(action, LayOff):
            events.append(Event("lay", seat, (KIND[action.card],)))
        elif isinstance(action, SwapJoker):
            events.append(Event("swap", seat, (KIND[action.card],)))
    events.reverse()
    return events


def _take_probability(k: int, counts: Sequence[int], model: Model) -> float:
    if k == JOKER_KIND:
        return model.take_meld
    partners = sum(counts[n] for n, _ in CONNECT[k]) + counts[k]
    if not partners:
        p = model.take_loose
    elif (
        counts[JOKER_KIND]
        or sum(counts[n] > 0 for n in SAME_RANK[k]) >= 2
        or any(counts[a] and counts[b] for a, b in RUN_PAIRS[k])
    ):
        p = model.take_meld
    else:
        p = model.take_near
    return (1 - model.floor) * p + model.floor / 2


def _keep(k: int, counts: Sequence[int], model: Model) -> float:
    if k == JOKER_KIND:
        return model.joker_keep
    v = float(counts[k] - 1) - model.points_weight * KIND_POINTS[k]
    for n, w in CONNECT[k]:
        if counts[n]:
            v += w * counts[n]
    return v


def _discard_log_probability(d: int, counts: Sequence[int], model: Model) -> float:
    beta = model.beta
    total = 0.0
    cards = 0
    for k in range(KINDS):
        c = counts[k]
        if c:
            cards += c
            total += c * math.exp(-beta * _keep(k, counts, model))
    p = math.exp(-beta * _keep(d, counts, model)) / total
    return math.log((1 - model.floor) * p + model.floor / cards)


def seat_log_likelihood(
    hand: Sequence[int], seat: int, events: Sequence[Event], model: Model
) -> float:
    """The log-probability of ``seat``'s public actions (``events``, newest first) for a
    current ``hand`` of card ids (see the module text)."""
    counts = [0] * KINDS
    for c in hand:
        counts[KIND[c]] += 1
    total = 0.0
    for e in events:
        if e.seat != seat:
            continue
        what = e.what
        if what == "discard":
            d = e.kinds[0]
            counts[d] += 1
            total += _discard_log_probability(d, counts, model)
        elif what == "lay":
            for k in e.kinds:
                counts[k] += 1
        elif what == "swap":
            counts[e.kinds[0]] += 1
            if counts[JOKER_KIND]:
                counts[JOKER_KIND] -= 1
        else:
            k = e.kinds[0]
            if what == "take" and counts[k]:
                counts[k] -= 1
            if e.fits:
                continue
            p = _take_probability(k, counts, model)
            total += math.log(p if what == "take" else 1 - p)
    return total


def world_log_weight(
    world: JokerenState, seat: int, events: Sequence[Event], model: Model
) -> float:
    """The log-weight of ``world`` for the observing ``seat``: the sum over the other
    seats of ``seat_log_likelihood`` of their hands in the world."""
    return sum(
        seat_log_likelihood(hand, s, events, model)
        for s, hand in enumerate(world.hands)
        if s != seat
    )


def select_worlds(
    worlds: Sequence[JokerenState],
    log_weights: Sequence[float],
    n: int,
    rng: Stream,
    how: str = "top",
) -> list[JokerenState]:
    """``n`` of ``worlds``: the ``n`` of highest weight (``top``; the earlier on a tie),
    or ``n`` drawn with replacement in proportion to the weights (``resample``,
    systematic: one draw from ``rng``)."""
    if how == "top":
        order = sorted(range(len(worlds)), key=lambda i: (-log_weights[i], i))
        return [worlds[i] for i in order[:n]]
    top = max(log_weights)
    w = [math.exp(x - top) for x in log_weights]
    total = sum(w)
    step = total / n
    u = rng.uniform(1 << 30) / (1 << 30) * step
    out: list[JokerenState] = []
    acc = 0.0
    i = 0
    for j in range(n):
        target = u + j * step
        while i < len(w) - 1 and acc + w[i] <= target:
            acc += w[i]
            i += 1
        out.append(worlds[i])
    return out


def sample_posterior(
    world: JokerenState,
    seat: int,
    fixed: Sequence[Sequence[int]],
    events: Sequence[Event],
    model: Model,
    rng: Stream,
    n: int,
    burn: int = 100,
    thin: int = 20,
) -> list[JokerenState]:
    """``n`` worlds drawn by a Metropolis chain over the hidden cards started at
    ``world``: each step swaps a card of another seat's hand (not one of ``fixed``, the
    cards the log places in that seat) with a card of another seat or of the stock, and
    is kept with probability ``min(1, weight ratio)``. ``burn`` steps first, then one
    world every ``thin`` steps."""
    hands = [list(h) for h in world.hands]
    stock = list(world.stock)
    others = [s for s in range(len(hands)) if s != seat]
    free: list[tuple[int, int]] = []  # (seat or -1 for the stock, index)
    for s in others:
        fixed_s = set(fixed[s])
        free.extend((s, i) for i, c in enumerate(hands[s]) if c not in fixed_s)
    free.extend((-1, i) for i in range(len(stock)))
    loglik = {s: seat_log_likelihood(hands[s], s, events, model) for s in others}
    out: list[JokerenState] = []
    step = 0
    in_hands = sum(1 for s, _ in free if s >= 0)
    while len(out) < n:
        step += 1
        if in_hands and len(free) > 1:
            a = free[rng.uniform(in_hands)]
            b = free[rng.uniform(len(free))]
            if a[0] != b[0]:
                sa, ia = a
                sb, ib = b
                ca = hands[sa][ia]
                cb = stock[ib] if sb < 0 else hands[sb][ib]
                hands[sa][ia] = cb
                if sb < 0:
                    stock[ib] = ca
                else:
                    hands[sb][ib] = ca
                new_a = seat_log_likelihood(hands[sa], sa, events, model)
                new_b = seat_log_likelihood(hands[sb], sb, events, model) if sb >= 0 else 0.0
                delta = new_a - loglik[sa] + (new_b - loglik[sb] if sb >= 0 else 0.0)
                if delta >= 0 or rng.uniform(1 << 30) < math.exp(delta) * (1 << 30):
                    loglik[sa] = new_a
                    if sb >= 0:
                        loglik[sb] = new_b
                else:
                    hands[sa][ia] = ca
                    if sb < 0:
                        stock[ib] = cb
                    else:
                        hands[sb][ib] = cb
        if step >= burn and (step - burn) % thin == 0:
            out.append(
                world._evolve(hands=tuple(tuple(sorted(h)) for h in hands), stock=tuple(stock))
            )
    return out
