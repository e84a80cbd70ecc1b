"""Who the replay calls the entrant (issue 13, item 5): the entrant's own seat is
"Jij"/"You" for the entrant only; every other viewer (a visitor, another player) sees the
entrant's name there, in the seat labels, the move texts and the analysis."""

from __future__ import annotations

import json
import re
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def closed_game() -> Game:
    return factories.closed_game(username="anna")[1]


def _script(page: str, element_id: str) -> Any:
    match = re.search(rf'id="{element_id}"[^>]*>(.*?)</script>', page, re.S)
    assert match, element_id
    return json.loads(match.group(1))


def _replay(client: Client, game: Game) -> str:
    response = client.get(reverse("game_replay", args=[game.pk]) + "?round=0")
    assert response.status_code == 200
    return str(response.content.decode())


def _own_texts(page: str) -> list[str]:
    """The Dutch texts of the frames of seat 0's moves."""
    return [f["text_nl"] for f in _script(page, "replay-frames") if f["seat"] == 0]


def test_a_visitor_sees_the_entrants_name_never_you(client: Client, closed_game: Game) -> None:
    page = _replay(client, closed_game)
    assert _script(page, "replay-seat-names") == ["anna", "West", "Noord", "Oost"]
    texts = _own_texts(page)
    assert texts and all(t.startswith("anna ") for t in texts)
    # The page without JavaScript lists the same texts.
    noscript = page[page.index("<noscript>") :]
    assert "anna " in noscript and "Jij " not in noscript
    # The analysis names the entrant's column.
    assert "<th>anna</th>" in page and "<th>Jij</th>" not in page
    assert "De beslissingen van anna in deze ronde" in page and "Jouw beslissingen" not in page


def test_another_player_sees_the_entrants_name(
    client: Client, closed_game: Game, other_user: Any
) -> None:
    client.force_login(other_user)
    page = _replay(client, closed_game)
    assert _script(page, "replay-seat-names")[0] == "anna"
    assert all(t.startswith("anna ") for t in _own_texts(page))


def test_in_english_a_visitor_sees_the_name_too(client: Client, closed_game: Game) -> None:
    response = client.get(
        reverse("game_replay", args=[closed_game.pk]) + "?round=0", HTTP_ACCEPT_LANGUAGE="en"
    )
    page = response.content.decode()
    assert _script(page, "replay-seat-names") == ["anna", "West", "North", "East"]
    frames = [f for f in _script(page, "replay-frames") if f["seat"] == 0]
    assert frames and all(f["text_en"].startswith("anna ") for f in frames)


def test_the_entrant_is_you_in_their_own_replay(client: Client, closed_game: Game) -> None:
    client.force_login(closed_game.user)
    page = _replay(client, closed_game)
    assert _script(page, "replay-seat-names")[0] == "Jij"
    texts = _own_texts(page)
    assert texts and all(t.startswith("Jij ") for t in texts)
    assert "Jouw beslissingen" in page and "<th>Jij</th>" in page


def test_the_split_page_names_the_players_never_you(client: Client, closed_game: Game) -> None:
    client.force_login(closed_game.user)  # even for the player: two games side by side
    response = client.get(reverse("game_split", args=[closed_game.pk]) + "?round=0&with=par")
    assert response.status_code == 200
    split = response.context["split"]
    steps = [*split.common, *split.left.steps, *split.right.steps]
    own = [s for s in steps if s.seat == 0]
    assert own and not any(s.text_nl.startswith("Jij ") for s in own)
    assert all(s.text_nl.startswith("anna / Par (de bots) ") for s in split.common if s.seat == 0)
    assert all(s.text_nl.startswith("anna ") for s in split.left.steps if s.seat == 0)
    assert all(s.text_nl.startswith("Par (de bots) ") for s in split.right.steps if s.seat == 0)
    assert "<li>Jij " not in response.content.decode()
