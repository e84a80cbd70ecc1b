"""The JSON play API (docs/api.md). Views only translate HTTP to services and back."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, JsonResponse
from django.shortcuts import get_object_or_404
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_cookie
from django_ratelimit.core import is_ratelimited

from tournaments import services
from tournaments.models import Game, Tournament


def _forbidden() -> JsonResponse:
    err = services.ServiceError.of(_("Log in to play."))
    err.code = "not_logged_in"
    return JsonResponse({"error": err.to_json()}, status=403)


def game_payload(game: Game) -> dict[str, Any]:
    """The GET shape: the player's view of their game (never another hand or the stock)."""
    module = services.module_of(game.game)
    variant = module.variant_from_json(game.variant)
    state = module.state_from_json(game.state)
    tournament = game.tournament
    result = None
    if game.is_finished:
        total, average, res = services.game_result(game)
        result = {
            "total": total,
            "opponents_average": average,
            "result": res,
            "rank": services.player_rank(game=game),
        }
    language = translation.get_language() or settings.LANGUAGE_CODE
    return {
        "id": game.pk,
        "game": game.game,
        "variant": game.variant,
        "variant_name": game.preset,
        "tournament": {"id": tournament.pk, "name": tournament.name} if tournament else None,
        "round": game.round_index,
        "rounds": game.rounds,
        "seq": game.seq,
        "status": game.status,
        "bot_finished": game.bot_finished,
        "seat": services.PLAYER_SEAT,
        "seat_names": services.seat_names(language, variant.num_players),
        "totals": list(game.totals),
        "round_scores": [list(r) for r in game.round_scores],
        "round_results": list(game.round_results),
        "observation": state.observation(services.PLAYER_SEAT),
        "your_turn": (not game.is_finished)
        and state.current_player == services.PLAYER_SEAT
        and (tournament is None or tournament.window_open()),
        "result": result,
    }


def _own_game(request: HttpRequest, game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("entry__tournament"), pk=game_id, user=request.user
    )


@require_GET
def game_detail(request: HttpRequest, game_id: int) -> JsonResponse:
    if not request.user.is_authenticated:
        return _forbidden()
    return JsonResponse(game_payload(_own_game(request, game_id)))


def _error(exc: services.ServiceError, **extra: Any) -> JsonResponse:
    return JsonResponse({"error": exc.to_json(), **extra}, status=exc.status)


@require_POST
def game_move(request: HttpRequest, game_id: int) -> JsonResponse:
    """POST {"seq": n, "action": {...}}: the move, then the bots; see docs/api.md."""
    if not request.user.is_authenticated:
        return _forbidden()
    rate = settings.MOVE_RATE_LIMIT
    if rate and is_ratelimited(
        request, group="game_move", key="user", rate=rate, method="POST", increment=True
    ):
        err = services.ServiceError.of(_("Too many moves in a short time; wait a moment."))
        err.code = "rate_limited"
        err.status = 429
        return _error(err)
    try:
        body = json.loads(request.body or b"{}")
        seq = body["seq"]
        action = body["action"]
        if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(action, dict):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        err = services.ServiceError.of(
            _('The request must be JSON with "seq" (a number) and "action" (an object).')
        )
        err.code = "malformed_request"
        return _error(err)
    try:
        outcome = services.game_play_move(
            game_id=game_id, user=request.user, seq=seq, action=action
        )
    except Game.DoesNotExist as exc:
        raise Http404 from exc
    except services.StaleMove as exc:
        return _error(exc, seq=exc.seq)
    except services.ServiceError as exc:
        return _error(exc)
    game = Game.objects.select_related("entry__tournament").get(pk=outcome.game.pk)
    return JsonResponse({**game_payload(game), "events": outcome.events})


@require_GET
@cache_control(private=True)
@vary_on_cookie
def tournament_standings(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """The live leaderboard of a tournament, as the requester may see it (public; during
    the window scores only of the rounds the requester has finished, docs/api.md)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    params = {}
    for name in ("page", "page_size"):
        value = request.GET.get(name)
        if value is None:
            continue
        if not value.isdigit() or int(value) < 1:
            err = services.ServiceError.of(
                _("%(name)s must be a whole number of at least 1."), name=name
            )
            err.code = "invalid_parameter"
            return _error(err)
        params[name] = int(value)
    board = services.standings_page(
        tournament=tournament,
        user=request.user,
        page=params.get("page"),
        page_size=params.get("page_size", services.PAGE_SIZE),
        q=request.GET.get("q", "")[:150],
    )
    return JsonResponse(
        {
            "tournament": tournament.pk,
            "closed": tournament.is_closed,
            "scores_visible": board.visibility.scores,
            "visible_rounds": board.visibility.rounds,
            "count": board.count,
            "page": board.page,
            "pages": board.pages,
            "page_size": board.page_size,
            "q": board.q,
            "me": _standing_json(board.me) if board.me is not None else None,
            "standings": [_standing_json(s) for s in board.rows],
        }
    )


def _standing_json(s: services.Standing) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "player": s.username,
        "result": s.result,
        "total": s.total,
        "opponents_average": s.opponents_average,
        "rounds_played": s.rounds_played,
        "rounds_counted": s.rounds_counted,
        "bot_rounds": list(s.bot_rounds),
        "finished": s.finished,
        "bot_finished": s.bot_finished,
        "under_review": s.under_review,
        "parts": list(s.parts),
    }
