"""The JSON API of the ratings (docs/api.md, "Ratings"): a game's rating list and a
player's ratings, public as far as the requester may see the tournaments behind them
(docs/rules.md, "Ratings", rule 8). Views only translate
HTTP to the selectors and back."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.http import HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.api import api_view, error_response
from tournaments.errors import ServiceError
from tournaments.rating_scope import rating_scope
from tournaments.selectors import ratings as rating_selectors

#: A page number beyond this is read as this one (then the last page).
MAX_PAGE = 10**9


def rating_json(r: rating_selectors.RatingRow) -> dict[str, Any]:
    return {
        "rank": r.rank,
        "player": r.username,
        "rating": r.rating,
        "mu": r.mu,
        "sigma": r.sigma,
        "tournaments": r.tournaments,
        "updated_at": r.updated_at.isoformat(),
    }


@api_view("GET")
def rating_list(request: HttpRequest, game: str) -> JsonResponse:
    """A game's rating list, best first, ``PAGE_SIZE`` players a page (``?page=n``);
    ``?club=<slug>``: the list of that club's members."""
    scope = rating_scope(request, game)
    value = request.GET.get("page", "1")
    digits = value.lstrip("0") if value.isascii() and value.isdigit() else ""
    if not digits:
        err = ServiceError.of(_("%(name)s must be a whole number of at least 1."), name="page")
        err.code = "invalid_parameter"
        return error_response(err)
    number = int(digits) if len(digits) <= len(str(MAX_PAGE)) else MAX_PAGE
    page = rating_selectors.rating_list(
        game=game,
        page=min(number, MAX_PAGE),
        user_ids=scope.user_ids,
        tournaments=scope.tournaments,
    )
    return JsonResponse(
        {
            "game": game,
            "count": page.count,
            "page": page.page,
            "pages": page.pages,
            "page_size": page.page_size,
            "ratings": [rating_json(r) for r in page.rows],
        }
    )


@api_view("GET")
def player_detail(request: HttpRequest, username: str) -> JsonResponse:
    """A player: their rating in every game (``null``: not rated yet) and what the latest
    tournaments did to it, newest first."""
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    ratings = rating_selectors.player_ratings(
        user_id=player.pk, tournaments=permissions.rating_tournaments(request.user)
    )
    return JsonResponse(
        {
            "player": player.get_username(),
            "bot_account": permissions.is_bot(player),
            "ratings": {
                game: rating_json(r) if r is not None else None
                for game, r in ratings.by_game.items()
            },
            "changes": [
                {
                    "tournament": c.tournament_id,
                    "game": c.game,
                    "closed_at": c.closed_at.isoformat() if c.closed_at else None,
                    "rank": c.rank,
                    "before": c.before,
                    "after": c.after,
                    "change": c.change,
                }
                for c in ratings.changes
            ],
        }
    )
