"""Jokeren scores (seed 000 "Puntentelling", seed 001, RULES.md §4).

- A round: the player who went out scores 0; every other player scores the penalty
  points of their hand (joker 25, ace 11, K/Q/J 10, 2-10 face value) or, in the classic
  variants, the number of cards in hand. With no winner everyone scores their hand.
- A game: the sum of the round scores per seat.
- A duplicate result: own total minus the average of the other seats' totals; lower is
  better, and equal results share a rank.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import CARD_POINTS
from engine.jokeren.variants import Scoring

#: Lower results are better in Jokeren.
LOWER_IS_BETTER = True


def round_scores(hands: Sequence[Sequence[int]], scoring: Scoring = "points") -> list[int]:
    """Each seat's score for a round from the hands left (card ids)."""
    if scoring == "cards":
        return [len(h) for h in hands]
    return [sum(CARD_POINTS[c] for c in h) for h in hands]


def game_totals(rounds: Sequence[Sequence[int]]) -> list[int]:
    """Each seat's total over the rounds of a game (every round has one score per seat)."""
    if not rounds:
        return []
    n = len(rounds[0])
    totals = [0] * n
    for scores in rounds:
        if len(scores) != n:
            raise ValueError("every round needs one score per seat")
        for i, s in enumerate(scores):
            totals[i] += s
    return totals


def results(totals: Sequence[int]) -> list[float]:
    """Each seat's duplicate result: own total minus the average of the other seats'."""
    n = len(totals)
    if n < 2:
        raise ValueError("results need at least two seats")
    whole = sum(totals)
    return [t - (whole - t) / (n - 1) for t in totals]


def rank(results: Sequence[float]) -> list[int]:
    """Rank (1 = best) of each result, lower is better; equal results share a rank
    ("1, 2, 2, 4")."""
    keyed = [round(r, 9) for r in results]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]
