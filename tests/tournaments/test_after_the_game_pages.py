"""Issue 35, item 7: the pages after the game. The review and split pages name the seats
beside the round's points; in the progress chart "Jij" is drawn last, with its points
marked, so it stays visible where it equals the median or par."""

from __future__ import annotations

import re

import factories
import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _scores(html: str) -> list[str]:
    return re.findall(r'data-testid="round-scores">([^<]*)<', html)


def test_the_review_and_split_name_the_seats_beside_the_points(client: Client) -> None:
    _tournament, game = factories.closed_game(username="anna")
    client.force_login(game.user)
    scores = game.round_scores[0]
    review = client.get(reverse("game_review", args=[game.pk]) + "?round=0").content.decode()
    assert _scores(review) == [
        f"Punten van deze ronde: Jij {scores[0]} · West {scores[1]} · Noord {scores[2]}"
        f" · Oost {scores[3]}"
    ]
    split = client.get(reverse("game_split", args=[game.pk]) + "?round=0&with=par").content.decode()
    left, _right = _scores(split)
    assert left == f"anna {scores[0]} · West {scores[1]} · Noord {scores[2]} · Oost {scores[3]}"


def test_you_are_drawn_on_top_of_the_median_and_par(client: Client) -> None:
    tournament, game = factories.closed_game(username="anna", rounds=2)
    client.force_login(game.user)
    html = client.get(tournament.get_absolute_url()).content.decode()
    chart = html[html.index('data-testid="progress-chart"') :]
    chart = chart[: chart.index("</svg>")]
    lines = re.findall(r'<polyline class="(\w+)"', chart)
    # alone in the field: the median is the player's own result, the line under theirs
    assert lines[-1] == "mine" and "median" in lines
    assert len(re.findall(r'<circle class="mine"', chart)) == 2
