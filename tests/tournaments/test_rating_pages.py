"""Where the ratings show (docs/rules.md, "Ratings"): a game's rating list, a player's
page, the leaderboard's optional column, and the API."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.models import Account, Rating, RatingChange, Tournament
from tournaments.selectors import ratings as rating_selectors
from tournaments.services import ratings as rating_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(organizer: Any) -> Tournament:
    """A closed field of five (veld0000 .. veld0004; the bot finished veld0004's game),
    its ratings applied."""
    t = factories.make_closed_field(organizer, 5)
    assert rating_services.ratings_apply_tournament(tournament_id=t.pk) == 4
    return t


def _best_first() -> list[str]:
    return list(
        Rating.objects.order_by("-ordinal", "user_id").values_list("user__username", flat=True)
    )


def test_the_rating_list_lists_the_rated_players_best_first(client: Client, rated: Any) -> None:
    response = client.get(reverse("rating_list", args=["jokeren"]))
    assert response.status_code == 200
    text = response.content.decode()
    order = _best_first()
    assert len(order) == 4 and "veld0004" not in text
    positions = [text.index(f">{name}<") for name in order]
    assert positions == sorted(positions)
    best = Rating.objects.get(user__username=order[0])
    assert f">{best.shown}<" in text
    assert client.get(reverse("rating_list", args=["klaverjas"])).status_code == 200
    assert client.get(reverse("rating_list", args=["schaken"])).status_code == 404
    # junk page numbers are the first or the last page
    for page in ("x", "0", "99999999999999999999"):
        url = reverse("rating_list", args=["jokeren"]) + f"?page={page}"
        assert client.get(url).status_code == 200


def test_the_rating_list_pages_and_shares_places(rated: Any) -> None:
    order = _best_first()
    first = rating_selectors.rating_list(game="jokeren", page=1, page_size=3)
    second = rating_selectors.rating_list(game="jokeren", page=2, page_size=3)
    assert [r.username for r in first.rows + second.rows] == order
    assert (first.count, first.pages, second.page) == (4, 2, 2)
    assert [r.rank for r in first.rows + second.rows] == [1, 2, 3, 4]
    # Equal ratings share a place, on a later page too.
    last = Rating.objects.get(user__username=order[3])
    Rating.objects.filter(user__username=order[2]).update(
        mu=last.mu, sigma=last.sigma, ordinal=last.ordinal
    )
    second = rating_selectors.rating_list(game="jokeren", page=2, page_size=3)
    assert [r.rank for r in second.rows] == [3]
    # Beyond the last page: the last page.
    assert rating_selectors.rating_list(game="jokeren", page=9, page_size=3).page == 2
    with pytest.raises(KeyError):
        rating_selectors.rating_list(game="schaken")


def test_the_rating_list_of_a_group_of_players(rated: Any) -> None:
    """A club's list later: the same selector with the club's member ids."""
    order = _best_first()
    some = Rating.objects.filter(user__username__in=order[1:3]).values("user_id")
    page = rating_selectors.rating_list(game="jokeren", user_ids=some)
    assert [r.username for r in page.rows] == order[1:3]
    assert [r.rank for r in page.rows] == [1, 2]
    ids = [r.user_id for r in page.rows]
    assert rating_selectors.rating_list(game="jokeren", user_ids=ids).count == 2
    assert rating_selectors.rating_list(game="jokeren", user_ids=[]).rows == []


def test_a_players_page_shows_the_ratings_and_what_each_tournament_did(
    client: Client, rated: Tournament
) -> None:
    name = _best_first()[0]
    rating = Rating.objects.get(user__username=name)
    change = RatingChange.objects.get(user__username=name)
    response = client.get(reverse("player_profile", args=[name]))
    assert response.status_code == 200
    text = response.content.decode()
    assert f">{rating.shown}<" in text
    assert rated.name in text and f"{change.shown_before} → {change.shown_after}" in text
    assert f"+{change.shown_after - change.shown_before}" in text
    assert text.count('data-testid="not-rated"') == 1  # Klaverjassen
    # The bot finished veld0004's game: not rated, and the page says so per game.
    unrated = client.get(reverse("player_profile", args=["veld0004"])).content.decode()
    assert 'data-testid="rating-change"' not in unrated
    assert client.get(reverse("player_profile", args=["niemand"])).status_code == 404


def test_a_bot_accounts_page_says_it_is_not_rated(client: Client) -> None:
    bot = factories.make_user("robot")
    Account.objects.create(user=bot, is_bot=True)
    text = client.get(reverse("player_profile", args=["robot"])).content.decode()
    assert "BOT" in text and 'id="bot-not-rated"' in text


def test_the_account_page_links_to_the_players_page(client: Client, user: Any) -> None:
    client.force_login(user)
    text = client.get(reverse("account")).content.decode()
    assert reverse("player_profile", args=[user.username]) in text


def test_the_leaderboard_shows_ratings_only_when_asked(client: Client, rated: Tournament) -> None:
    url = reverse("tournament_detail", args=[rated.pk])
    table = Rating._meta.db_table
    with CaptureQueriesContext(connection) as queries:
        plain = client.get(url).content.decode()
    assert 'data-testid="board-rating"' not in plain
    assert not any(table in q["sql"] for q in queries.captured_queries)
    assert "?ratings=1" in plain
    shown = client.get(url + "?ratings=1").content.decode()
    cells = shown.count('data-testid="board-rating"')
    assert cells == 5  # every row; the bot-finished entry's shows no rating
    name = _best_first()[0]
    rating = Rating.objects.get(user__username=name)
    change = RatingChange.objects.get(user__username=name)
    delta = change.shown_after - change.shown_before
    assert f'>{rating.shown}</a> <span class="muted">(+{delta})' in shown
    fragment = client.get(reverse("tournament_leaderboard", args=[rated.pk]) + "?ratings=1")
    assert fragment.content.decode().count('data-testid="board-rating"') == 5


def test_the_standings_api_gives_ratings_when_asked(client: Client, rated: Tournament) -> None:
    url = reverse("api_tournament_standings", args=[rated.pk])
    assert "rating" not in client.get(url).json()["standings"][0]
    rows = {r["player"]: r for r in client.get(url + "?ratings=1").json()["standings"]}
    name = _best_first()[0]
    rating = Rating.objects.get(user__username=name)
    change = RatingChange.objects.get(user__username=name)
    assert rows[name]["rating"] == rating.shown
    assert rows[name]["rating_change"] == change.shown_after - change.shown_before
    assert rows["veld0004"]["rating"] is None and rows["veld0004"]["rating_change"] is None


def test_the_rating_api(client: Client, rated: Tournament) -> None:
    listed = client.get(reverse("api_ratings", args=["jokeren"])).json()
    assert [r["player"] for r in listed["ratings"]] == _best_first()
    assert listed["ratings"][0]["rank"] == 1 and listed["count"] == 4
    top = Rating.objects.get(user__username=listed["ratings"][0]["player"])
    assert listed["ratings"][0]["rating"] == top.shown
    assert listed["ratings"][0]["mu"] == top.mu
    for junk in ("nul", "0", "-1", "٣"):
        bad = client.get(reverse("api_ratings", args=["jokeren"]), {"page": junk})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_parameter"
    for page in ("01", "1", "99999999999999999999999"):
        found = client.get(reverse("api_ratings", args=["jokeren"]), {"page": page}).json()
        assert found["page"] == 1 and found["count"] == 4
    assert client.get(reverse("api_ratings", args=["schaken"])).status_code == 404
    player = client.get(reverse("api_player", args=[top.user.username])).json()
    assert player["ratings"]["jokeren"]["rating"] == top.shown
    assert player["ratings"]["klaverjas"] is None
    assert [c["tournament"] for c in player["changes"]] == [rated.pk]


def test_the_admin_shows_the_ratings_read_only(client: Client, rated: Tournament) -> None:
    staff = factories.make_user("beheer", is_staff=True, is_superuser=True)
    client.force_login(staff)
    for model in ("rating", "ratingchange"):
        listed = client.get(reverse(f"admin:tournaments_{model}_changelist"))
        assert listed.status_code == 200 and "veld0000" in listed.content.decode()
        assert client.get(reverse(f"admin:tournaments_{model}_add")).status_code == 403
