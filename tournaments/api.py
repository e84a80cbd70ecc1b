"""The JSON play API (docs/api.md). Views only translate HTTP to services and back.

Every answer of ``/api/`` that is not a success has the error body of docs/api.md,
``{"error": {"code", "nl", "en", "message"}}``: also a 404, a 405, a CSRF failure and a
body that cannot be read (``read_json_object``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.csrf import csrf_failure as django_csrf_failure
from django.views.decorators.cache import cache_control
from django.views.decorators.vary import vary_on_cookie
from django.views.defaults import bad_request as django_bad_request
from django_ratelimit.core import is_ratelimited

from common import auth
from tournaments import analysis, json_input, permissions, views_access
from tournaments.errors import ClaimNotHeld, ServiceError, StaleMove
from tournaments.games import PLAYER_SEAT, module_of
from tournaments.models import Game
from tournaments.numbers import figure_json
from tournaments.presentation.words import seat_names
from tournaments.selectors import fairplay as fairplay_selectors
from tournaments.selectors import live as live_selectors
from tournaments.selectors import ratings as rating_selectors
from tournaments.selectors import replay as replay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.selectors import table
from tournaments.series import bot_user_ids
from tournaments.services import play as play_services
from tournaments.services import table as table_services

#: The largest request body the API reads (a move is well under 1 KiB).
MAX_BODY_BYTES = 16 * 1024


def _fail(message: Any, code: str, status: int, **params: Any) -> ServiceError:
    err = ServiceError.of(message, **params)
    err.code = code
    err.status = status
    return err


def error_response(exc: ServiceError, **extra: Any) -> JsonResponse:
    return JsonResponse({"error": exc.to_json(), **extra}, status=exc.status)


def forbidden_response() -> JsonResponse:
    return error_response(_fail(_("Log in to play."), "not_logged_in", 403))


def _not_found() -> JsonResponse:
    return error_response(
        _fail(_("Not found: no such game or tournament, or not yours."), "not_found", 404)
    )


def not_found(request: HttpRequest) -> JsonResponse:
    """Every ``/api/`` address that no view serves (also one without its final slash)."""
    return _not_found()


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: a body Django cannot parse before any view runs (a broken multipart
    body that the CSRF check reads, too many form fields) is 400 ``malformed_request``
    with the error body under ``/api/``, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return error_response(_malformed_request())
    return django_bad_request(request, exception)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: the error body under ``/api/``, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        return error_response(
            _fail(
                _("The security check failed (CSRF): reload the page and try again."),
                "csrf_failed",
                403,
            )
        )
    return django_csrf_failure(request, reason=reason)


def api_view(*methods: str) -> Callable[[Callable[..., JsonResponse]], Callable[..., JsonResponse]]:
    """An API view that answers only ``methods`` (else 405 with ``Allow`` and the error
    body) and whose ``Http404`` (no such object, not yours) is the error body too."""

    def decorate(view: Callable[..., JsonResponse]) -> Callable[..., JsonResponse]:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
            if request.method not in methods:
                allowed = ", ".join(methods)
                response = error_response(
                    _fail(
                        _("This method is not allowed here; use %(allowed)s."),
                        "method_not_allowed",
                        405,
                        allowed=allowed,
                    )
                )
                response["Allow"] = allowed
                return response
            try:
                return view(request, *args, **kwargs)
            except Http404:
                return _not_found()

        return wrapped

    return decorate


def _malformed_request() -> ServiceError:
    return _fail(
        _('The request must be JSON with "seq" (a number) and "action" (an object).'),
        "malformed_request",
        400,
    )


def read_json_object(request: HttpRequest) -> dict[str, Any]:
    """The request's body as a JSON object, or ``ServiceError``: 415
    ``unsupported_media_type`` (not ``Content-Type: application/json``), 413
    ``request_too_large`` (over ``MAX_BODY_BYTES``), 400 ``malformed_request`` (not
    readable: invalid JSON, ``NaN``, nested deeper than ``json_input.MAX_DEPTH``, not an
    object). Never anything else, whatever the body."""
    if request.content_type != "application/json":
        raise _fail(
            _("Send the request as JSON (Content-Type: application/json)."),
            "unsupported_media_type",
            415,
        )
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > MAX_BODY_BYTES:
        raise _too_large()
    try:
        raw = request.body
    except RequestDataTooBig as exc:
        raise _too_large() from exc
    except RawPostDataException as exc:
        raise _malformed_request() from exc
    if len(raw) > MAX_BODY_BYTES:
        raise _too_large()
    try:
        body = json_input.loads(raw)
    except json_input.UnreadableJSON as exc:
        raise _malformed_request() from exc
    if not isinstance(body, dict):
        raise _malformed_request()
    return body


def _too_large() -> ServiceError:
    return _fail(
        _("The request is too large (at most %(max)s bytes)."),
        "request_too_large",
        413,
        max=MAX_BODY_BYTES,
    )


def game_payload(game: Game, *, log: bool = True) -> dict[str, Any]:
    """The GET shape: the player's view of their game (never another hand or the stock);
    ``log=False``: its observation without the round's public log (a move's answer, whose
    events carry the log's growth)."""
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    state = game.current_state()
    tournament = game.tournament
    result = None
    if game.is_finished:
        total, average, res = standing_selectors.game_result(game)
        result = {
            "total": total,
            "opponents_average": average,
            "result": res,
            "rank": standing_selectors.player_rank(game=game),
        }
    language = translation.get_language() or settings.LANGUAGE_CODE
    # A live evening's round before its slot opens: no card of it (docs/rules.md §7).
    shown = permissions.may_see_round_cards(game=game)
    return {
        "id": game.pk,
        "game": game.game,
        "variant": game.variant,
        "variant_name": game.preset,
        "tournament": {"id": tournament.pk, "name": tournament.name} if tournament else None,
        "round": game.round_index,
        # the copy of the round being played (a deal pool: docs/rules.md §5; else 0)
        "copy": game.copy_of(game.round_index),
        "rounds": game.rounds,
        "what_if_round": replay_selectors.what_if_round(game=game),
        "seq": game.seq,
        "status": game.status,
        "bot_finished": game.bot_finished,
        "seat": PLAYER_SEAT,
        "seat_names": seat_names(language, variant.num_players),
        "totals": list(game.totals),
        "round_scores": [list(r) for r in game.round_scores],
        "round_results": list(game.round_results),
        "observation": state.observation(PLAYER_SEAT, log=log) if shown else None,
        "your_turn": shown
        and (not game.is_finished)
        and state.current_player == PLAYER_SEAT
        and (
            tournament is None
            or (tournament.window_open() and tournament.live_round_open(game.round_index))
        ),
        "result": result,
        **({"live_wait": _live_wait(game)} if not shown else {}),
    }


def _live_wait(game: Game) -> dict[str, Any]:
    """A live evening's game whose round has not opened: which round, when it opens, and
    the lobby that counts down to it."""
    t = game.tournament
    assert t is not None
    opens = t.live_slot(game.round_index)[0] if game.round_index < len(t.live_slots) else None
    return {
        "round": game.round_index,
        "opens_at": opens.isoformat() if opens is not None else None,
        "url": reverse("tournament_live", args=[t.pk]),
    }


def live_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A move's events up to the last round's end: what the next round's bots did before
    it opens stays unseen until it does (a live evening, ``_live_wait``)."""
    ends = [i for i, event in enumerate(events) if event.get("type") == "round_over"]
    return events[: ends[-1] + 1] if ends else []


def _own_game(request: HttpRequest, game_id: int) -> Game:
    """The request's user's game (``permissions.may_view_game``), else 404."""
    game = get_object_or_404(Game.objects.select_related("entry__tournament"), pk=game_id)
    if not permissions.may_view_game(user=request.user, game=game):
        raise Http404
    return game


@api_view("GET")
def game_detail(request: HttpRequest, game_id: int) -> JsonResponse:
    if not permissions.is_logged_in(request.user):
        return forbidden_response()
    return JsonResponse(game_payload(_own_game(request, game_id)))


def _event_in(event: dict[str, Any], *, english: bool) -> dict[str, Any]:
    """A move event with one ``text``, in the request's language, for its two."""
    if "text_nl" not in event:
        return event
    out = {k: v for k, v in event.items() if k not in ("text_nl", "text_en")}
    out["text"] = event["text_en"] if english else event["text_nl"]
    return out


def _refused_move(request: HttpRequest, exc: ServiceError) -> JsonResponse:
    """A move refused before its read: 403 first when the session does not hold (reading
    ``request.user`` decides it, as on every other request), else ``exc``."""
    return error_response(exc) if request.user.is_authenticated else forbidden_response()


@api_view("POST")
def game_move(request: HttpRequest, game_id: int) -> JsonResponse:
    """POST {"seq": n, "action": {...}}: the move, then the bots; see docs/api.md.

    A session's log-in is checked with the move's read (``common.auth.session_claim``,
    ``ClaimNotHeld``): the user's row is not read on its own first. Every answer
    other than the move's is given as before, after ``request.user`` is read (403 first
    for a session that does not hold)."""
    claim = auth.session_claim(request)
    player: User | auth.SessionClaim
    if claim is not None:
        player = claim
    elif request.user.is_authenticated:
        player = request.user
    else:
        return forbidden_response()
    rate = settings.MOVE_RATE_LIMIT
    # Keyed on the user's id as ``key="user"`` (the claimed id before the user is read).
    user_key = str(claim.user_id if claim is not None else request.user.pk)
    if rate and is_ratelimited(
        request,
        group="game_move",
        key=lambda _group, _request: user_key,
        rate=rate,
        method="POST",
        increment=True,
    ):
        return _refused_move(
            request, _fail(_("Too many moves in a short time; wait a moment."), "rate_limited", 429)
        )
    try:
        body = read_json_object(request)
    except ServiceError as exc:
        return _refused_move(request, exc)
    seq, action = body.get("seq"), body.get("action")
    if not isinstance(seq, int) or isinstance(seq, bool) or not isinstance(action, dict):
        return _refused_move(request, _malformed_request())
    try:
        try:
            outcome = play_services.game_play_move(
                game_id=game_id, user=player, seq=seq, action=action
            )
        except ClaimNotHeld:
            if not request.user.is_authenticated:
                return forbidden_response()
            outcome = play_services.game_play_move(
                game_id=game_id, user=request.user, seq=seq, action=action
            )
        else:
            if claim is not None:
                request.user = outcome.game.user
    except Game.DoesNotExist:
        return _not_found()
    except StaleMove as exc:
        return error_response(exc, seq=exc.seq)
    except ServiceError as exc:
        return error_response(exc)
    # The events carry only what each action changed, and its text in the request's
    # language; the final observation comes once, in the payload (the game as stored),
    # without the public log: the events' splices carry its growth (the whole log of a
    # long Jokeren 13 round was about half of a response). A new round that no event
    # followed (the player opens it) comes with its log: the events left the last one's.
    english = (translation.get_language() or settings.LANGUAGE_CODE).startswith("en")
    events = [_event_in(event, english=english) for event in outcome.events]
    payload = game_payload(outcome.game, log=not outcome.log_in_events)
    if "live_wait" in payload:
        events = live_events(events)
    return JsonResponse(
        {**payload, "events": events},
        json_dumps_params={"separators": (",", ":")},
    )


def _english() -> bool:
    return (translation.get_language() or settings.LANGUAGE_CODE).startswith("en")


@api_view("GET")
def game_hint(request: HttpRequest, game_id: int) -> JsonResponse:
    """The strong bot's choice in the player's position, in words: practice games only
    (a tournament's game is 403 ``practice_only``); see docs/api.md."""
    if not permissions.is_logged_in(request.user):
        return forbidden_response()
    game = _own_game(request, game_id)
    rate = settings.MOVE_RATE_LIMIT
    if rate and is_ratelimited(
        request, group="game_hint", key="user", rate=rate, method="GET", increment=True
    ):
        return error_response(
            _fail(_("Too many requests in a short time; wait a moment."), "rate_limited", 429)
        )
    try:
        hint = analysis.game_hint(game=game)
    except ServiceError as exc:
        return error_response(exc)
    return JsonResponse(
        {
            "seq": hint.seq,
            "action": hint.action,
            "text": hint.text_en if _english() else hint.text_nl,
            "text_nl": hint.text_nl,
            "text_en": hint.text_en,
        }
    )


#: The most card ids a meld-readings question names (a meld holds at most 13 cards).
MAX_READING_CARDS = 20


@api_view("GET")
def game_meld_readings(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET ?cards=1,2,53: every way these cards of your hand read as one new meld (what
    each joker stands for), the engine's own choice first; see docs/api.md. A game
    without melds is 404."""
    if not permissions.is_logged_in(request.user):
        return forbidden_response()
    game = _own_game(request, game_id)
    text = request.GET.get("cards", "")
    parts = text.split(",")
    if not text or len(parts) > MAX_READING_CARDS or not all(p.isdigit() for p in parts):
        return error_response(
            _fail(
                _("cards must be card ids separated by commas (at most %(max)s)."),
                "invalid_parameter",
                400,
                max=MAX_READING_CARDS,
            )
        )
    cards = [int(p) for p in parts]
    try:
        readings = table.game_meld_readings(game=game, cards=cards)
    except ServiceError as exc:
        return error_response(exc)
    if readings is None:
        raise Http404
    return JsonResponse({"cards": cards, "readings": readings})


@api_view("POST")
def game_undo(request: HttpRequest, game_id: int) -> JsonResponse:
    """POST {"seq": n}: take back your last action of the round (and the bots' replies)
    in a practice game; the answer is the game as GET gives it. See docs/api.md."""
    if not permissions.is_logged_in(request.user):
        return forbidden_response()
    try:
        body = read_json_object(request)
    except ServiceError as exc:
        return error_response(exc)
    seq = body.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool):
        return error_response(
            _fail(_('The request must be JSON with "seq" (a number).'), "malformed_request", 400)
        )
    try:
        game = play_services.game_undo(game_id=game_id, user=request.user, seq=seq)
    except Game.DoesNotExist:
        return _not_found()
    except StaleMove as exc:
        return error_response(exc, seq=exc.seq)
    except ServiceError as exc:
        return error_response(exc)
    return JsonResponse(game_payload(game))


@api_view("POST")
def account_pace(request: HttpRequest) -> JsonResponse:
    """POST {"pace": "slow" | "normal" | "fast" | "instant"}: the bots' pace at your card
    tables, kept on your account; the answer is {"pace": ...}. See docs/api.md."""
    if not permissions.is_logged_in(request.user):
        return forbidden_response()
    try:
        body = read_json_object(request)
    except ServiceError as exc:
        return error_response(exc)
    pace = body.get("pace")
    if not isinstance(pace, str):
        return error_response(
            _fail(_('The request must be JSON with "pace" (a text).'), "malformed_request", 400)
        )
    try:
        account = table_services.account_pace_set(user=request.user, pace=pace)
    except ServiceError as exc:
        return error_response(exc)
    return JsonResponse({"pace": account.pace})


@api_view("GET")
@cache_control(private=True)
@vary_on_cookie
def tournament_standings(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """The live leaderboard of a tournament, as the requester may see it (public; during
    the window scores only of the rounds the requester has finished, docs/api.md)."""
    tournament = views_access.tournament_or_404(request, tournament_id)
    params = {}
    for name in ("page", "page_size"):
        value = request.GET.get(name)
        if value is None:
            continue
        if not value.isdigit() or int(value) < 1:
            err = ServiceError.of(_("%(name)s must be a whole number of at least 1."), name=name)
            err.code = "invalid_parameter"
            return error_response(err)
        params[name] = int(value)
    board = standing_selectors.standings_page(
        tournament=tournament,
        user=request.user,
        page=params.get("page"),
        page_size=params.get("page_size", standing_selectors.PAGE_SIZE),
        q=request.GET.get("q", "")[:150],
    )
    extras = analysis.board_extras_for(tournament=tournament, board=board)
    shown = [*board.rows, *([board.me] if board.me is not None else [])]
    bots = bot_user_ids([s.user_id for s in shown])
    ratings = (
        rating_selectors.board_ratings(tournament=tournament, user_ids=[s.user_id for s in shown])
        if request.GET.get("ratings") == "1"
        else None
    )
    reasons = fairplay_selectors.review_reasons(
        entry_ids=[s.entry_id for s in shown if s.under_review],
        full=permissions.may_review_fair_play(user=request.user, tournament=tournament),
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
            "me": (
                _standing_json(board.me, extras, bots, ratings, reasons)
                if board.me is not None
                else None
            ),
            "standings": [_standing_json(s, extras, bots, ratings, reasons) for s in board.rows],
        }
    )


def _standing_json(
    s: standing_selectors.Standing,
    extras: dict[int, analysis.BoardExtra],
    bots: set[int],
    ratings: dict[int, rating_selectors.BoardRating] | None = None,
    reasons: dict[int, list[dict[str, str]]] | None = None,
) -> dict[str, Any]:
    """A leaderboard row; with ``ratings`` (``?ratings=1``) also the player's rating in
    the game now and what this tournament changed of it; ``reasons``: why each entry
    under review is (``selectors.fairplay.review_reasons``)."""
    rated: dict[str, Any] = {}
    if ratings is not None:
        r = ratings[s.user_id]
        rated = {"rating": r.rating, "rating_change": r.change}
    return {
        **rated,
        "rank": s.rank,
        "player": s.username,
        "bot_account": s.user_id in bots,
        "result": figure_json(s.result),
        "total": s.total,
        "opponents_average": figure_json(s.opponents_average),
        "rounds_played": s.rounds_played,
        "rounds_counted": s.rounds_counted,
        "bot_rounds": list(s.bot_rounds),
        "finished": s.finished,
        "bot_finished": s.bot_finished,
        "under_review": s.under_review,
        "review_reasons": (reasons or {}).get(s.entry_id, []) if s.under_review else [],
        "provisional": s.provisional,
        "parts": [figure_json(p) for p in s.parts],
        "percentage": figure_json(extras[s.game_id].percentage),
        "vs_par": figure_json(extras[s.game_id].vs_par),
    }


@api_view("GET")
def tournament_live(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """Where a live evening is now (``selectors.live.live_status``), answered from the
    cache: its pages poll it every few seconds (docs/api.md). A public evening needs no
    query; any other is read as its pages are (404 where it may not be seen)."""
    state = live_selectors.live_state(tournament_id=tournament_id)
    if state is None:
        return _not_found()
    if not live_selectors.public(state):
        tournament = views_access.tournament_or_404(request, tournament_id)
        if not permissions.may_see_live_board(tournament=tournament):
            return _not_found()
    response = JsonResponse(live_selectors.live_status(state))
    response["Cache-Control"] = "no-store"
    return response
