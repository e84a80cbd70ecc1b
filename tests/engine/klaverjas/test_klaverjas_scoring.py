"""Scoring a round (docs/rules.md §6): card points, last trick, roem, pit and nat.

Tricks are given as records: who won them, their card points and their roem; the
expected numbers follow from the rule text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from engine.klaverjas import ROTTERDAMS, Trick, score_round

SOUTH, WEST, NORTH, EAST = range(4)


def tricks(rows: Sequence[tuple[int, int, int]]) -> list[Trick]:
    """(winner, points, roem) per trick; cards are irrelevant for the score."""
    return [Trick(leader=w, cards=(), winner=w, points=p, roem=r) for w, p, r in rows]


SPLIT = [  # 152 card points: South/North 92, West/East 60; East takes the last trick
    (SOUTH, 30, 0),
    (NORTH, 25, 20),
    (WEST, 20, 0),
    (SOUTH, 17, 0),
    (EAST, 15, 0),
    (NORTH, 20, 0),
    (WEST, 15, 0),
    (EAST, 10, 0),
]


def test_last_trick_is_worth_10() -> None:
    result = score_round(tricks(SPLIT), playing_team=0, variant=ROTTERDAMS)
    assert result.points == (92, 60 + 10)
    assert sum(result.points) == 162


def test_playing_team_scores_its_points_and_roem() -> None:
    result = score_round(tricks(SPLIT), playing_team=0, variant=ROTTERDAMS)
    assert not result.nat
    assert result.roem == (20, 0)
    assert result.scores == (92 + 20, 70)


def test_nat_other_team_gets_162_and_all_roem() -> None:
    # West/East play and take 70 against 92 + 20 roem: nat
    result = score_round(tricks(SPLIT), playing_team=1, variant=ROTTERDAMS)
    assert result.nat
    assert result.scores == (162 + 20, 0)


def test_roem_counts_against_nat() -> None:
    # West/East play with 70 card points and 50 roem against 92 + 20: 120 > 112, not nat
    rows = [*SPLIT[:-1], (EAST, 10, 50)]
    result = score_round(tricks(rows), playing_team=1, variant=ROTTERDAMS)
    assert not result.nat
    assert result.scores == (92 + 20, 70 + 50)


def test_nat_takes_the_playing_teams_roem_too() -> None:
    rows = [*SPLIT[:-1], (EAST, 10, 20)]  # West/East 70 + 20 = 90 < 92 + 20
    result = score_round(tricks(rows), playing_team=1, variant=ROTTERDAMS)
    assert result.nat
    assert result.scores == (162 + 40, 0)


TIE = [  # South/North 81, West/East 71 + 10 for the last trick = 81
    (SOUTH, 40, 0),
    (WEST, 40, 0),
    (NORTH, 41, 0),
    (EAST, 31, 0),
    (SOUTH, 0, 0),
    (WEST, 0, 0),
    (NORTH, 0, 0),
    (EAST, 0, 0),
]


def test_tie_is_nat() -> None:
    rows = TIE
    result = score_round(tricks(rows), playing_team=0, variant=ROTTERDAMS)
    assert result.points == (81, 81)
    assert result.nat
    assert result.scores == (0, 162)


def test_tie_is_not_nat_when_the_setting_is_off() -> None:
    rows = TIE
    variant = dataclasses.replace(ROTTERDAMS, tie_is_nat=False)
    result = score_round(tricks(rows), playing_team=0, variant=variant)
    assert not result.nat
    assert result.scores == (81, 81)


def test_pit_for_the_playing_team() -> None:
    rows = [(SOUTH if i % 2 else NORTH, 19, 20 if i == 3 else 0) for i in range(8)]
    result = score_round(tricks(rows), playing_team=0, variant=ROTTERDAMS)
    assert result.pit_team == 0 and not result.nat
    assert result.scores == (152 + 10 + 20 + 100, 0)


def test_pit_for_the_other_team() -> None:
    # seed 003: "het winnende team" gets the pit bonus, playing or not
    rows = [(WEST if i % 2 else EAST, 19, 0) for i in range(8)]
    result = score_round(tricks(rows), playing_team=0, variant=ROTTERDAMS)
    assert result.pit_team == 1 and result.nat
    assert result.scores == (0, 162 + 100)


def test_no_pit_with_seven_tricks() -> None:
    rows = [(SOUTH, 19, 0)] * 7 + [(WEST, 19, 0)]
    result = score_round(tricks(rows), playing_team=0, variant=ROTTERDAMS)
    assert result.pit_team is None
    assert result.scores == (133, 29)
