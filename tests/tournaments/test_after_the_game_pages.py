"""Issue 35, item 7: the pages after the game. The review and split pages name the seats
beside the round's points; in the progress chart "Jij" is drawn last, with its points
marked, so it stays visible where it equals the median or par."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from tournaments.games import module_of
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

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


def _play_last_legal(game: Any, user: Any) -> None:
    """Play ``game`` to its end choosing South's last legal action each time (not the
    basic bot's choice: the game parts from one played like the bot)."""
    game.refresh_from_db()
    while game.status == "playing":
        module = module_of(game.game)
        state = module.state_from_json(game.state)
        action = dict(state.legal_actions()[-1].to_json())
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=action
        ).game


def test_the_split_shows_the_hand_as_card_faces_where_the_games_part(client: Client) -> None:
    t = factories.make_tournament(rounds=1)
    anna, bram = factories.make_user("anna"), factories.make_user("bram")
    mine = entry_services.entry_join(tournament_id=t.pk, user=anna).game
    theirs = entry_services.entry_join(tournament_id=t.pk, user=bram).game
    factories.play_to_end(mine, anna)
    _play_last_legal(theirs, bram)
    closing_services.tournament_close(tournament_id=t.pk)
    client.force_login(anna)
    url = reverse("game_split", args=[mine.pk]) + f"?round=0&with={theirs.pk}"
    html = client.get(url).content.decode()
    columns = html.split('data-testid="split-line"')[1:]
    assert len(columns) == 2
    hands = [re.search(r'data-testid="position-hand" data-codes="([^"]*)"', c) for c in columns]
    assert all(hands) and hands[0].group(1) == hands[1].group(1)  # type: ignore[union-attr]
    assert "Hand van anna" in columns[0] and "Hand van bram" in columns[1]
    # every card a face: its pip's suit beside the label (css/analysis.css)
    assert re.search(r'data-suit="[♣♦♥♠]" class="seen-card', columns[0])
