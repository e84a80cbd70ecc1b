"""HTML pages of the ratings (docs/rules.md, "Ratings"): a game's rating list and a
player's page with their rating per game and what the latest tournaments did to it.
Views only translate HTTP to the selectors and back."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from engine.registry import GAMES
from tournaments import permissions
from tournaments.games import module_of
from tournaments.rating_scope import rating_scope
from tournaments.selectors import ratings as rating_selectors
from tournaments.variant_form import text_of


def game_titles() -> list[tuple[str, str]]:
    """Every game and its name in the page's language."""
    return [(game, text_of(module_of(game).TITLE)) for game in GAMES]


def _page_param(request: HttpRequest) -> int | None:
    value = request.GET.get("page", "")
    if not (value.isascii() and value.isdigit()):
        return None
    # Beyond any page: the last one (``page_bounds``).
    return int(value) if len(value) < 10 else 10**9


def rating_list(request: HttpRequest, game: str) -> HttpResponse:
    """A game's rating list, best first, a page at a time (``?page=n``); ``?club=<slug>``:
    the list of that club's members."""
    scope = rating_scope(request, game)
    club = scope.club
    page = rating_selectors.rating_list(
        game=game, page=_page_param(request), user_ids=scope.user_ids, tournaments=scope.tournaments
    )
    titles = dict(game_titles())
    return render(
        request,
        "tournaments/ratings.html",
        {
            "page": page,
            "game": game,
            "title": titles[game],
            "games": game_titles(),
            "club": club,
            "club_query": f"&club={club.slug}" if club is not None else "",
        },
    )


def player_profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's page: their rating in each game with its place on the rating list, what
    the latest tournaments did to it, and why a game they played a closed tournament of
    has no rating."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    visible = permissions.rating_tournaments(request.user)
    ratings = rating_selectors.player_ratings(user_id=player.pk, tournaments=visible)
    titles = dict(game_titles())
    # Why a game has no rating though the player played a closed tournament of it through
    # (docs/rules.md, "Ratings", rule 7).
    unrated = [
        (titles[game], uncounted)
        for game in GAMES
        if ratings.by_game[game] is None
        and (
            uncounted := rating_selectors.uncounted_tournaments(
                user_id=player.pk, game=game, tournaments=visible
            )
        )
    ]
    return render(
        request,
        "tournaments/player.html",
        {
            "player": player,
            "is_bot": permissions.is_bot(player),
            "games": [(game, titles[game], ratings.by_game[game]) for game in GAMES],
            "changes": ratings.changes,
            "titles": titles,
            "unrated": unrated,
        },
    )
