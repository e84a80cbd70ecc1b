"""Whose ratings a game's rating list shows, read from its request: the page
(``views_ratings``) and the API (``api_ratings``) answer the same question the same way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404

from engine.registry import GAMES
from tournaments import permissions
from tournaments.models import Club, Tournament
from tournaments.selectors import clubs as club_selectors


@dataclass(frozen=True)
class RatingScope:
    """A rating list's players: a club's members (``club``, ``user_ids``) or everyone's
    (both ``None``); ``tournaments``: the ones whose share of the ratings the viewer may
    see (``permissions.rating_tournaments``)."""

    club: Club | None
    user_ids: QuerySet[Any, int] | None
    tournaments: QuerySet[Tournament]


def rating_scope(request: HttpRequest, game: str) -> RatingScope:
    """The scope of ``game``'s rating list: with ``?club=<slug>`` that club's members,
    else every rated player. ``Http404`` for a game or a club that does not exist, and
    for a club's list the viewer may not see (``permissions.may_see_club_ratings``)."""
    if game not in GAMES:
        raise Http404
    tournaments = permissions.rating_tournaments(request.user)
    slug = request.GET.get("club", "")
    if not slug:
        return RatingScope(club=None, user_ids=None, tournaments=tournaments)
    club = get_object_or_404(Club, slug=slug[:60])
    if not permissions.may_see_club_ratings(user=request.user, club=club):
        raise Http404
    return RatingScope(
        club=club, user_ids=club_selectors.member_ids(club=club), tournaments=tournaments
    )
