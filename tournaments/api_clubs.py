"""The JSON API of tournaments and series (lists, detail, joining, seasons) and the
OpenAPI description of the whole API (``tournaments/openapi.json``, docs/api.md). Views
only translate HTTP to services and back."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.views.decorators.http import require_GET

from common.device import device_of
from tournaments import permissions, views_access
from tournaments import series as series_services
from tournaments.api import api_view, error_response, forbidden_response
from tournaments.errors import ServiceError
from tournaments.models import Club, Series, Tournament
from tournaments.numbers import figure_json
from tournaments.selectors import clubs as club_selectors
from tournaments.services import entries as entry_services

OPENAPI_PATH = Path(__file__).with_name("openapi.json")
PAGE_SIZE = 50


@cache
def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 description of the API, kept next to it (tests validate every
    endpoint's real responses against it)."""
    data: dict[str, Any] = json.loads(OPENAPI_PATH.read_text(encoding="utf-8"))
    return data


@api_view("GET")
def openapi(request: HttpRequest) -> JsonResponse:
    return JsonResponse(openapi_document())


@require_GET
def api_docs(request: HttpRequest) -> HttpResponse:
    """The human-readable API reference: static/js/api-docs.js renders /api/openapi.json."""
    return render(request, "tournaments/api_docs.html")


def tournament_json(t: Tournament, *, entrants: int | None = None) -> dict[str, Any]:
    count = t.entries.count() if entrants is None else entrants
    return {
        "id": t.pk,
        "name": t.name,
        "game": t.game,
        "variant_name": t.preset,
        "rounds": t.rounds,
        "bot_level": t.bot_level,
        "max_entrants": t.max_entrants,
        "entrants": count,
        "status": t.status(entrants=count),
        "opens_at": t.opens_at.isoformat(),
        "closes_at": t.closes_at.isoformat(),
        "closed": t.is_closed,
        "admits_bots": t.admits_bots,
        "commitment": t.commitment,
        "series": t.series_id,
        "club": club_json(t.club),
        "access": t.access,
        "pool_copies": t.pool_copies,
        # a live club evening: each round's slot (docs/rules.md §5, "Live club evening")
        "live": (
            {
                "slots": [
                    {"opens_at": o.isoformat(), "closes_at": c.isoformat()}
                    for o, c in map(t.live_slot, range(len(t.live_slots)))
                ],
                "slots_closed": t.live_slots_closed,
            }
            if t.live
            else None
        ),
    }


def club_json(club: Club) -> dict[str, Any]:
    """A club as a tournament or series names it (its page is ``/clubs/<slug>/``)."""
    return {"slug": club.slug, "name": club.name}


@api_view("GET")
def club_list(request: HttpRequest) -> JsonResponse:
    """Every club, by name, with its number of members (docs/api.md, Clubs)."""
    return JsonResponse(
        {
            "clubs": [
                {
                    **club_json(c),
                    "description": c.description,
                    "members": c.members,  # type: ignore[attr-defined]  # an annotation
                }
                for c in club_selectors.clubs_with_counts()
            ]
        }
    )


@api_view("GET")
def club_detail(request: HttpRequest, slug: str) -> JsonResponse:
    """A club as its page shows it to the requester: its open and recent tournaments and
    its series that the requester may see (a private one only to whom it is not hidden),
    its number of members, the requester's role in it."""
    club = get_object_or_404(Club, slug=slug[:60])
    if not permissions.may_see_club(user=request.user, club=club):
        raise Http404
    page = club_selectors.club_page(
        club=club,
        tournaments=permissions.visible_tournaments(request.user).select_related("club"),
        series=permissions.visible_series(request.user).select_related("club"),
    )
    return JsonResponse(
        {
            **club_json(club),
            "description": club.description,
            "members": page.members,
            "role": permissions.club_role(user=request.user, club=club),
            "open": [tournament_json(t) for t in page.open],
            "recent": [tournament_json(t) for t in page.recent],
            "series": [series_json(s) for s in page.series],
        }
    )


def _page(request: HttpRequest) -> int:
    try:
        return max(1, int(request.GET.get("page", "1")))
    except ValueError:
        return 1


@api_view("GET")
def tournament_list(request: HttpRequest) -> JsonResponse:
    """Tournaments, newest opening first; ``?status=open`` only those one may join now."""
    qs = views_access.listed(request).select_related("club")
    if request.GET.get("status") == "open":
        now = timezone.now()
        qs = qs.filter(closed_at__isnull=True, opens_at__lte=now, closes_at__gt=now)
    paginator = Paginator(qs.order_by("-opens_at", "-id"), PAGE_SIZE)
    page = paginator.get_page(_page(request))
    return JsonResponse(
        {
            "count": paginator.count,
            "page": page.number,
            "pages": paginator.num_pages,
            "tournaments": [tournament_json(t) for t in page.object_list],
        }
    )


@api_view("GET")
def tournament_detail(request: HttpRequest, tournament_id: int) -> JsonResponse:
    t = views_access.tournament_or_404(request, tournament_id)
    data = tournament_json(t)
    data["my_game"] = None
    if request.user.is_authenticated:
        game = t.entries.filter(user=request.user).values_list("game", flat=True).first()
        data["my_game"] = game
    return JsonResponse(data)


@api_view("POST")
def tournament_join(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """Enter the tournament: ``201 {"game": id}``, the game to play (``/api/games/<id>/``)."""
    if not permissions.is_logged_in(request.user):
        return forbidden_response()
    tournament = views_access.tournament_or_404(request, tournament_id)
    try:
        entry = entry_services.entry_join(
            tournament_id=tournament_id,
            user=request.user,
            code=views_access.request_code(request, tournament),
            device=device_of(request),
        )
    except ServiceError as exc:
        return error_response(exc)
    return JsonResponse({"tournament": tournament_id, "game": entry.game.pk}, status=201)


def series_json(s: Series) -> dict[str, Any]:
    return {
        "id": s.pk,
        "name": s.name,
        "game": s.game,
        "variant_name": s.preset,
        "rounds": s.rounds,
        "bot_level": s.bot_level,
        "max_entrants": s.max_entrants,
        "admits_bots": s.admits_bots,
        "schedule": {
            "kind": s.kind,
            "weekdays": list(s.weekdays),
            "time": s.time_of_day.strftime("%H:%M"),
            "timezone": str(series_services.SERIES_TIMEZONE),
            "window_minutes": s.window_minutes,
            "starts_on": s.starts_on.isoformat(),
            "ends_on": s.ends_on.isoformat() if s.ends_on else None,
        },
        "best_k": s.best_k,
        "club": club_json(s.club),
        "access": s.access,
    }


@api_view("GET")
def series_detail(request: HttpRequest, series_id: int) -> JsonResponse:
    """A series: its settings, its editions so far and the next openings."""
    s = views_access.series_or_404(request, series_id)
    editions = s.editions.select_related("club").order_by("-opens_at")
    return JsonResponse(
        {
            **series_json(s),
            "editions": [tournament_json(t) for t in editions],
            "coming": [at.isoformat() for at in series_services.coming(s)],
        }
    )


@api_view("GET")
def series_season(request: HttpRequest, series_id: int) -> JsonResponse:
    """The season ranking (closed editions only: it is public)."""
    s = views_access.series_or_404(request, series_id)
    season = series_services.season_standings(series=s)
    return JsonResponse(
        {
            "series": s.pk,
            "best_k": s.best_k,
            "editions": [t.pk for t in season.editions],
            "standings": [
                {
                    "rank": r.rank,
                    "player": r.username,
                    "bot_account": r.is_bot,
                    "played": r.played,
                    "counted": r.counted,
                    "total": figure_json(r.total),
                    "best": list(r.best),
                    "poedel": r.poedel,
                    "editions": [
                        {
                            "tournament": e.tournament_id,
                            "result": figure_json(e.result),
                            "rank": e.rank,
                            "counts": e.counts,
                        }
                        for e in r.editions
                    ],
                }
                for r in season.rows
            ],
        }
    )
