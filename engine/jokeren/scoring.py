"""Jokeren scores (seed 000 "Puntentelling", seed 001, docs/rules.md §4).

- A round: the player who went out scores 0; every other player scores the penalty
  points of their hand (joker 25, ace 11, K/Q/J 10, 2-10 face value) or, in the classic
  variants, the number of cards in hand. With no winner everyone scores their hand.
- A game: the sum of the round scores per seat.
- A duplicate result: own total minus the average of the other seats' totals; lower is
  better, and equal results share a rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import CARD_POINTS
from engine.jokeren.variants import Scoring, Variant

#: Lower results are better in Jokeren.
LOWER_IS_BETTER = True
#: A result is a total minus the opponents' average (thirds, halves): one decimal.
RESULT_DECIMALS = 1


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


# --- The score sheet ("het formulier", seed 001) --------------------------------------------


@dataclass(frozen=True)
class SheetLine:
    """One line of a score sheet: a round (``kind`` "round": its number in the game from
    1, each seat's score, and the seat that went out, which the sheet marks "−"), or a
    subtotal of the part so far (``kind`` "subtotal": ``number`` is the last round it
    counts)."""

    kind: str
    number: int
    scores: tuple[int, ...]
    winner: int | None = None


@dataclass(frozen=True)
class SheetPart:
    """One part's sheet (seed 001: a "ronde" of 10 games on one form): its lines in order,
    the column totals, and per seat the number of "−" marks (the winner of a round), which
    the form counts as a check and puts at its top. ``complete``: every round of the part
    has been played."""

    number: int
    lines: tuple[SheetLine, ...]
    totals: tuple[int, ...]
    dashes: tuple[int, ...]
    rounds: int
    complete: bool


@dataclass(frozen=True)
class ScoreSheet:
    """The score sheet of a game: one ``SheetPart`` per part, and the game's totals and
    "−" counts over all parts."""

    parts: tuple[SheetPart, ...]
    totals: tuple[int, ...]
    dashes: tuple[int, ...]


def score_sheet(
    round_scores: Sequence[Sequence[int]],
    winners: Sequence[int | None],
    *,
    parts: Sequence[range],
    subtotal_after: int = 0,
) -> ScoreSheet:
    """The paper form of seed 001 ("Puntentelling"): "op het formulier wordt voor de
    winnaar een − gezet en voor de andere spelers het aantal kaarten dat is overgehouden.
    Na vijf beurten wordt een tussentotaal geteld. ... Ter controle worden de − en geteld".

    ``round_scores`` and ``winners`` (the seat that went out, ``None`` when a round ended
    without a winner) are those of the rounds played so far; ``parts`` the rounds (from 0)
    of each part of the game (``Variant.parts()``). Within a part a subtotal of the part so
    far follows every ``subtotal_after`` rounds, except at the part's end (its total).
    A part none of whose rounds has been played is left out.
    """
    if len(winners) != len(round_scores):
        raise ValueError("one winner (or None) per round")
    n = len(round_scores[0]) if round_scores else 0
    out: list[SheetPart] = []
    for number, part in enumerate(parts, start=1):
        played = [r for r in part if r < len(round_scores)]
        if not played:
            continue
        lines: list[SheetLine] = []
        running = [0] * n
        dashes = [0] * n
        for i, r in enumerate(played, start=1):
            scores = tuple(int(s) for s in round_scores[r])
            winner = winners[r]
            lines.append(SheetLine("round", r + 1, scores, winner))
            running = [a + b for a, b in zip(running, scores, strict=True)]
            if winner is not None:
                dashes[winner] += 1
            if subtotal_after and i % subtotal_after == 0 and i < len(part):
                lines.append(SheetLine("subtotal", r + 1, tuple(running)))
        out.append(
            SheetPart(
                number=number,
                lines=tuple(lines),
                totals=tuple(running),
                dashes=tuple(dashes),
                rounds=len(part),
                complete=len(played) == len(part),
            )
        )
    return ScoreSheet(
        parts=tuple(out),
        totals=tuple(sum(p.totals[s] for p in out) for s in range(n)),
        dashes=tuple(sum(p.dashes[s] for p in out) for s in range(n)),
    )


def game_parts(variant: Variant) -> list[range]:
    """The rounds (from 0) of each part of a game: seed 001's "2 ronden van 10" with
    ``part_rounds``, else the whole game as one part."""
    return variant.parts()


def score_sheet_of(
    variant: Variant,
    *,
    round_scores: Sequence[Sequence[int]],
    round_results: Sequence[Mapping[str, Any]],
) -> ScoreSheet | None:
    """The score sheet of a game's rounds so far for a card-count variant (seed 001's
    form counts the cards kept); ``None`` for a variant that scores points in hand. The
    "−" goes to the round's ``winner`` in ``round_results`` (the site's round outcomes)."""
    if variant.scoring != "cards":
        return None
    winners = [_winner(r) for r in round_results[: len(round_scores)]]
    winners += [None] * (len(round_scores) - len(winners))
    return score_sheet(
        round_scores, winners, parts=variant.parts(), subtotal_after=variant.subtotal_after
    )


def _winner(outcome: Mapping[str, Any]) -> int | None:
    winner = outcome.get("winner") if isinstance(outcome, Mapping) else None
    return winner if type(winner) is int else None
