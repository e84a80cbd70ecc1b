"""The rating update of one tournament: Weng and Lin's Bayesian approximation of the
Plackett–Luce model (their Algorithm 4, as openskill implements it), with ties rated as
a tie and in O(n log n) (docs/rules.md, "Ratings", rules 2 and 5).

Plain arithmetic, no Django: ``services.ratings`` feeds it the field's beliefs and
places, ``benchmarks/ratings.py`` times it.

**Why our own update, not openskill's.** openskill's ``PlackettLuce.rate`` compares every
entrant with every place (O(n²): about 13 s of CPU for 10,000 entrants, more than 20
minutes for 100,000), and it rates a tie as one stage of the ranking shared by the tied
entrants (the "A_q" of the paper, a Davidson–Luce likelihood cut short): a group tied for
first gets 1/a of a win each, less than the entrant right behind them (standings 1 = 1, 3,
4 with equal beliefs: the tied winners' shown rating 1046, the third 1057). That cannot
be mended by a parameter: the tie's likelihood is the model's own. So this module replaces
the update, and keeps everything else of the model (its parameters, the tau added to
sigma, the gamma of sigma/c, kappa's floor) so that on a field without ties its numbers
are openskill's (``tests/tournaments/test_rating_model.py`` checks it, to 1e-9).

**The arithmetic.** With the field sorted best first and ``e_i = exp(mu_i / c)``, entrant
i's update sums over the stages q of the ranking at or before their own place, each stage
the sum ``S_q`` of ``e`` over those who finished no better than q: a suffix sum of the
sorted field. Prefix sums of ``1/S_q`` and ``1/S_q²`` then give each entrant's sums in
O(1): the whole field in O(n) after the sort.

**A tie.** Entrants with an equal result are an equal outcome: the update of a tied entrant
is the average of their untied updates over the orders the tie could have been broken in
(each order as likely), the tie's own stages counted with the weight of the share of those
orders that still have the entrant in play. The tied rivals who leave the stages before
the entrant leave at the group's average strength (exact when the tied entrants' beliefs
are equal; an O(1) approximation otherwise, instead of the a! orders). With equal beliefs a
tie thus gets exactly the average of the places it spans, so a tied entrant never moves
less than someone who finished behind them (``test_rating_model.py``'s property test).
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

#: The model's parameters: openskill's defaults (a newcomer's belief mu 25, sigma 25/3).
MU = 25.0
SIGMA = 25.0 / 3.0
BETA = 25.0 / 6.0
KAPPA = 0.0001
TAU = 25.0 / 300.0


@dataclass(frozen=True)
class Prior:
    """An entrant's belief before the tournament."""

    mu: float
    sigma: float


@dataclass(frozen=True)
class Posterior:
    """An entrant's belief after the tournament."""

    mu: float
    sigma: float


def rate(field: Sequence[Prior], ranks: Sequence[int]) -> list[Posterior]:
    """Every entrant's belief after one tournament whose outcome is ``ranks`` (lower is
    better, equal is a tie), in the order of ``field``."""
    n = len(field)
    if n != len(ranks):
        raise ValueError("one rank per entrant")
    if n < 2:
        raise ValueError("a tournament is rated with two entrants or more")
    tau_squared = TAU * TAU
    # sigma with tau added (openskill's "Correct Sigma With Tau").
    sigmas = [math.sqrt(p.sigma * p.sigma + tau_squared) for p in field]
    c = math.sqrt(sum(s * s + BETA * BETA for s in sigmas))
    order = sorted(range(n), key=lambda i: ranks[i])
    e = [math.exp(field[i].mu / c) for i in order]

    # The tie groups of the sorted field: [start, end) in ``order``.
    groups: list[tuple[int, int]] = []
    start = 0
    for k in range(1, n + 1):
        if k == n or ranks[order[k]] != ranks[order[start]]:
            groups.append((start, k))
            start = k

    # The stages, one per place: S at a place without a tie; a tie of a at places
    # start..end-1 has the stages below + (a - t) times the group's mean, t = 0..a-1.
    below = [0.0] * (len(groups) + 1)
    for g in range(len(groups) - 1, -1, -1):
        s, t = groups[g]
        below[g] = below[g + 1] + math.fsum(e[s:t])
    # prefix1[k], prefix2[k]: the sums of 1/V and 1/V² over the stages before place k.
    stage: list[float] = [0.0] * n
    for g, (s, t) in enumerate(groups):
        a = t - s
        if a == 1:
            stage[s] = below[g]
        else:
            mean = (below[g] - below[g + 1]) / a
            for j in range(a):
                stage[s + j] = below[g + 1] + (a - j) * mean
    prefix1 = [0.0] * (n + 1)
    prefix2 = [0.0] * (n + 1)
    for k in range(n):
        inv = 1.0 / stage[k]
        prefix1[k + 1] = prefix1[k] + inv
        prefix2[k + 1] = prefix2[k] + inv * inv

    out: list[Posterior | None] = [None] * n
    for s, t in groups:
        a = t - s
        if a == 1:
            omega_parts = None
        else:
            # Within the tie: stage j weighs (a - j) / a; weighted prefix sums over j.
            w0 = [0.0] * (a + 1)
            w1 = [0.0] * (a + 1)
            w2 = [0.0] * (a + 1)
            for j in range(a):
                inv = 1.0 / stage[s + j]
                w0[j + 1] = w0[j] + (a - j)
                w1[j + 1] = w1[j] + (a - j) * inv
                w2[j + 1] = w2[j] + (a - j) * inv * inv
            # The tie's stages ascending, for the bisection below.
            rising = [stage[s + a - 1 - j] for j in range(a)]
            omega_parts = (w0, w1, w2, rising)
        for k in range(s, t):
            i = order[k]
            ei = e[k]
            sigma = sigmas[i]
            if omega_parts is None:
                p1 = prefix1[k + 1]
                omega = 1.0 - ei * p1
                delta = ei * p1 - ei * ei * prefix2[k + 1]
            else:
                w0, w1, w2, rising = omega_parts
                p1 = prefix1[s]
                omega = 1.0 - ei * p1
                delta = ei * p1 - ei * ei * prefix2[s]
                # Stages of the tie smaller than e_i (possible only at the bottom of the
                # field, for one stronger than the group's mean) count as a certain last
                # place (p = 1): they are the last ones in order.
                small = bisect_right(rising, ei)
                kept = a - small
                omega -= (ei * w1[kept] + (w0[a] - w0[kept])) / a
                delta += (ei * w1[kept] - ei * ei * w2[kept]) / a
            variance = sigma * sigma
            mu = field[i].mu + variance / c * omega
            gamma = sigma / c
            delta *= variance / (c * c) * gamma
            out[i] = Posterior(mu=mu, sigma=sigma * math.sqrt(max(1.0 - delta, KAPPA)))
    return [p for p in out if p is not None]
