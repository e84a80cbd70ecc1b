"""Issue 35, item 8: a player who played every round of a closed tournament but has no
rating is told why on their page (docs/rules.md, "Ratings", rules 3 and 7)."""

from __future__ import annotations

import factories
import pytest
from django.test import Client
from django.urls import reverse

from tournaments.selectors import ratings as rating_selectors
from tournaments.services import ratings as rating_services

pytestmark = pytest.mark.django_db


def test_a_tournament_with_one_rated_entrant_is_explained(client: Client) -> None:
    tournament, game = factories.closed_game(username="solo")
    rating_services.ratings_apply_tournament(tournament_id=tournament.pk)
    (why,) = rating_selectors.uncounted_tournaments(user_id=game.user_id, game="jokeren")
    assert (why.tournament_id, why.reason, why.rated) == (tournament.pk, "few", 1)
    html = client.get(reverse("player_profile", args=["solo"])).content.decode()
    assert 'data-reason="few"' in html
    assert "minstens twee" in html and tournament.name in html
    english = client.get(
        reverse("player_profile", args=["solo"]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "at least two of its entrants are rated, and it had 1" in english


def test_a_player_without_a_closed_tournament_gets_no_explanation(client: Client) -> None:
    factories.closed_game(username="solo")
    other = factories.make_user("tweede")
    assert rating_selectors.uncounted_tournaments(user_id=other.pk, game="jokeren") == []
    html = client.get(reverse("player_profile", args=["tweede"])).content.decode()
    assert "why-not-rated" not in html
