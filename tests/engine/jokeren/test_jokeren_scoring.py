"""Scores (seed 000 "Puntentelling", seed 001) and duplicate results (docs/rules.md §4)."""

from __future__ import annotations

import pytest
from jokeren_helpers import ids

from engine.jokeren import LOWER_IS_BETTER, rank, results
from engine.jokeren.scoring import game_totals, round_scores


def test_round_scores_in_hand_points() -> None:
    hands = [[], ids("** As Kd"), ids("2c 3c"), ids("Qh Jh Th")]
    assert round_scores(hands) == [0, 25 + 11 + 10, 5, 30]


def test_round_scores_in_cards() -> None:
    hands = [[], ids("** As Kd"), ids("2c 3c"), ids("Qh Jh Th")]
    assert round_scores(hands, "cards") == [0, 3, 2, 3]


def test_game_totals_add_the_rounds() -> None:
    assert game_totals([[0, 10, 20, 30], [5, 0, 5, 5]]) == [5, 10, 25, 35]
    with pytest.raises(ValueError):
        game_totals([[0, 1], [1, 2, 3]])


def test_result_is_own_total_minus_the_average_of_the_opponents() -> None:
    # seed 000: jouw puntentotaal min het gemiddelde puntentotaal van je tegenstanders
    assert results([10, 20, 30, 40]) == [10 - 30, 20 - (10 + 30 + 40) / 3, 30 - 70 / 3, 40 - 20]
    assert results([6, 3, 9]) == [6 - 6, 3 - 7.5, 9 - 4.5]


def test_lower_results_are_better_and_equal_results_share_a_rank() -> None:
    assert LOWER_IS_BETTER is True
    assert rank([-20.0, 5.0, -20.0, 7.5]) == [1, 3, 1, 4]
    assert rank([1.0, 1.0, 1.0]) == [1, 1, 1]
    assert rank(results([10, 20, 30, 40])) == [1, 2, 3, 4]
