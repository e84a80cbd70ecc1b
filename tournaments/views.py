"""HTML pages of tournaments and games. Views only translate HTTP to services and back."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string, select_template
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST
from django.views.decorators.vary import vary_on_cookie

from common.device import device_of
from common.forms import checks_control_characters, form_status
from tournaments import analysis, permissions, views_access
from tournaments.api import game_payload
from tournaments.errors import ServiceError
from tournaments.forms import PracticeForm
from tournaments.games import available_games, module_of
from tournaments.models import Game, Tournament
from tournaments.permissions import AuthenticatedHttpRequest
from tournaments.presentation.levels import level_figures
from tournaments.presentation.words import hand_text, player_name_for, seat_names
from tournaments.selectors import deals as deal_selectors
from tournaments.selectors import fairplay as fairplay_selectors
from tournaments.selectors import live as live_selectors
from tournaments.selectors import ratings as rating_selectors
from tournaments.selectors import replay as replay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.selectors import table as table_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import par as par_services
from tournaments.services import what_if as what_if_services
from tournaments.variant_form import split_preset

#: Rows of each per-deal table on the tournament page (the leaderboard shows
#: ``standing_selectors.PAGE_SIZE``).
DEAL_PAGE_SIZE = 10


def _page_param(request: HttpRequest, name: str) -> int | None:
    """A page number from the query string (``None`` when absent or not a number)."""
    value = request.GET.get(name, "")
    return int(value) if value.isdigit() else None


def tournament_detail(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = views_access.tournament_or_404(
        request, pk, Tournament.objects.select_related("created_by", "club")
    )
    if closing_services.tournament_close_if_due(tournament=tournament):
        tournament.refresh_from_db()
    entries = tournament.entries.count()
    my_game = None
    if request.user.is_authenticated:
        # Unordered: found by the entry's unique (tournament, user), not by a sort.
        my_game = (
            Game.objects.filter(entry__tournament=tournament, entry__user=request.user)
            .order_by()
            .first()
        )
    board = _board(request, tournament)
    my_result = None
    if my_game is not None and my_game.is_finished:
        total, average, result = standing_selectors.game_result(my_game)
        my_result = {
            "total": total,
            "opponents_average": average,
            "result": result,
            "rank": board.me.rank if board.me is not None else None,
        }
    par = par_services.tournament_pars(tournament=tournament) if board.visibility.scores else {}
    deal_pages = deal_selectors.deal_results(
        tournament=tournament,
        visibility=board.visibility,
        page_size=DEAL_PAGE_SIZE,
        user=request.user,
        pages={
            r: page
            for r in range(board.visibility.rounds)
            if (page := _page_param(request, f"deal{r}")) is not None
        },
        # a deal pool: the copy of each round shown (``?copy<r>=``, from 1; else the
        # viewer's own, else the first)
        copies={
            r: copy - 1
            for r in range(board.visibility.rounds)
            if (copy := _page_param(request, f"copy{r}")) is not None
        },
    )
    # The rounds of the board's page and of the viewer's own game (their extras, the
    # chart): never every row of every deal; the deals' pages take their percentages
    # from each deal's distribution (``field_pages``).
    shown = analysis.board_games(board)
    if my_game is not None:
        shown.add(my_game.pk)
    deals = analysis.field_deals(
        tournament=tournament, visibility=board.visibility, par=par, game_ids=shown
    )
    pages = analysis.field_pages(tournament=tournament, pages=deal_pages, par=par)
    context = {
        **_leaderboard_context(
            request,
            tournament=tournament,
            board=board,
            extras=analysis.board_extras(tournament=tournament, board=board, deals=deals, par=par),
        ),
        "status": tournament.status(entrants=entries),
        "entrants": entries,
        "can_join": request.user.is_authenticated
        and my_game is None
        and tournament.entries_open()
        and entries < tournament.max_entrants
        and permissions.may_enter_tournament(
            user=request.user,
            tournament=tournament,
            code=views_access.request_code(request, tournament),
        ),
        "join_code": views_access.request_code(request, tournament),
        "my_game": my_game,
        "my_result": my_result,
        "deals": [view.deal for view in pages],
        "field_deals": pages,
        "chart": analysis.progress_chart(
            game_id=my_game.pk, deals=deals, par=par, pooled=tournament.pooled
        )
        if my_game is not None
        else None,
        "may_manage": permissions.may_manage_tournament(user=request.user, tournament=tournament),
        "plays_unrated": permissions.plays_unrated(request.user),
    }
    return render(request, "tournaments/detail.html", context)


@cache_control(private=True)
@vary_on_cookie
def tournament_leaderboard(request: HttpRequest, pk: int) -> HttpResponse:
    """The leaderboard's page as the tournament page renders it (the same template, the
    same page and name search), for the page's live refresh: the rows are rendered in one
    place, never rebuilt by the script. Its wrapper says whether the tournament closed and
    how many rounds' scores the viewer may see, so the script reloads the whole page when
    either changes (the per-deal tables follow)."""
    tournament = views_access.tournament_or_404(request, pk)
    board = _board(request, tournament)
    context = _leaderboard_context(
        request,
        tournament=tournament,
        board=board,
        extras=analysis.board_extras_for(tournament=tournament, board=board),
    )
    return render(request, "tournaments/leaderboard_fragment.html", context)


def _board(request: HttpRequest, tournament: Tournament) -> standing_selectors.Board:
    """The leaderboard's page the request asks for (``?page=n&q=name``) as its viewer may
    see it: the tournament page's and its live refresh's."""
    return standing_selectors.standings_page(
        tournament=tournament,
        user=request.user,
        page=_page_param(request, "page"),
        q=request.GET.get("q", "")[:150],
    )


def _leaderboard_context(
    request: HttpRequest,
    *,
    tournament: Tournament,
    board: standing_selectors.Board,
    extras: dict[int, analysis.BoardExtra],
) -> dict[str, Any]:
    """What ``_leaderboard.html`` reads, for the tournament page and its live refresh.
    With ``?ratings=1`` the rows' players' ratings too (a column the page leaves out
    unless asked: docs/rules.md, "Ratings")."""
    show_ratings = request.GET.get("ratings") == "1"
    ratings = (
        rating_selectors.board_ratings(
            tournament=tournament, user_ids=[s.user_id for s in board.rows]
        )
        if show_ratings
        else {}
    )
    return {
        "show_ratings": show_ratings,
        "ratings": ratings,
        "tournament": tournament,
        "standings": board.rows,
        "board": board,
        "visibility": board.visibility,
        "under_review": _under_review(tournament),
        # a deeper play check after the close is pending for some row (docs/rules.md,
        # "Fair play"): the board says what "provisional" means
        "provisional": any(s.provisional for s in board.rows),
        "minutes": max(1, -(-settings.PLAY_CHECK_SECONDS // 60)),
        "parts": standing_selectors.tournament_parts(tournament=tournament),
        "has_sheet": replay_selectors.has_score_sheet(
            game=tournament.game, variant=tournament.variant
        ),
        "extras": extras,
        "lower_is_better": module_of(tournament.game).LOWER_IS_BETTER,
    }


@login_required
@require_POST
def tournament_join(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    tournament = views_access.tournament_or_404(request, pk)
    try:
        entry = entry_services.entry_join(
            tournament_id=tournament.pk,
            user=request.user,
            code=views_access.request_code(request, tournament),
            device=device_of(request),
        )
    except ServiceError as exc:
        messages.error(request, exc.message())
        return redirect(tournament)
    return redirect("play", entry.game.pk)


def _under_review(tournament: Tournament) -> list[tuple[standing_selectors.Standing, str]]:
    """The entries under review, each with why in a few words (the kinds of its reasons,
    never a flag's evidence: docs/rules.md, "Fair play", rule 5)."""
    rows = standing_selectors.standings_under_review(tournament=tournament)
    if not rows:
        return []
    reasons = fairplay_selectors.review_reasons(entry_ids=[s.entry_id for s in rows], full=False)
    return [(s, ", ".join(r["reason"] for r in reasons.get(s.entry_id, []))) for s in rows]


def _rules_context(game: str, preset: str, variant: dict[str, Any], rounds: int) -> dict[str, Any]:
    module = module_of(game)
    return {
        "game": game,
        "preset": preset,
        "variant": variant,
        "rounds": rounds,
        "lower_is_better": module.LOWER_IS_BETTER,
        "players": variant.get("num_players", 4),
        "levels": level_figures(module, preset),
    }


def _render_rules(request: HttpRequest, context: dict[str, Any]) -> HttpResponse:
    template = select_template(
        [f"tournaments/rules/{context['game']}.html", "tournaments/rules/generic.html"]
    )
    return HttpResponse(template.render(context, request))


def tournament_rules(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = views_access.tournament_or_404(request, pk)
    context = _rules_context(
        tournament.game, tournament.preset, tournament.variant, tournament.rounds
    )
    context["tournament"] = tournament
    return _render_rules(request, context)


def preset_rules(request: HttpRequest, game: str, preset: str) -> HttpResponse:
    modules = available_games()
    if game not in modules or preset not in modules[game].PRESETS:
        raise Http404
    variant = modules[game].PRESETS[preset]
    return _render_rules(
        request, _rules_context(game, preset, dict(variant.to_json()), variant.rounds)
    )


def tournament_verify(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = views_access.tournament_or_404(request, pk)
    verification = None
    deals = []
    if permissions.may_see_verification(tournament=tournament):
        verification = replay_selectors.tournament_verify(tournament=tournament)
        players = module_of(tournament.game).variant_from_json(tournament.variant)
        names = seat_names(request.LANGUAGE_CODE, players.num_players)
        for deal in verification.deals:
            hands = deal.get("hands") if isinstance(deal.get("hands"), list) else None
            trump = deal.get("trump") if isinstance(deal.get("trump"), str) else None
            texts = [
                hand_text(
                    game=tournament.game, codes=h, language=request.LANGUAGE_CODE, trump=trump
                )
                for h in hands or []
            ]
            deals.append(
                {
                    "round": deal["round"] + 1,
                    "copy": deal["copy"] + 1,
                    "hands": list(zip(names, texts, strict=False)) if hands else None,
                    "rest": [
                        (k, v) for k, v in deal.items() if k not in ("hands", "round", "copy")
                    ],
                }
            )
    return render(
        request,
        "tournaments/verify.html",
        {"tournament": tournament, "verification": verification, "deals": deals},
    )


def _may_replay(request: HttpRequest, game: Game) -> bool:
    """``permissions.may_replay`` for the request's user."""
    return permissions.may_replay(user=request.user, game=game)


def _round_param(request: HttpRequest, *, default: int) -> int:
    """The round a page asks for (``?round=R``); ``default`` when absent or not a number."""
    try:
        return int(request.GET.get("round", default))
    except ValueError:
        return default


def game_replay(request: HttpRequest, pk: int) -> HttpResponse:
    game = get_object_or_404(Game.objects.select_related("entry__tournament", "user"), pk=pk)
    if not _may_replay(request, game):
        raise Http404
    rounds = replay_selectors.replay_rounds(game=game)
    round_index = _round_param(request, default=rounds[0] if rounds else 0)
    if rounds and round_index not in rounds:
        raise Http404
    # The player's seat is "Jij"/"You" for the player only; their name for anyone else.
    player = player_name_for(game=game, viewer=request.user)
    frames = replay_selectors.game_replay(game=game, round_index=round_index, player=player)
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    played = rounds and round_index in rounds
    return render(
        request,
        "tournaments/replay.html",
        {
            "game": game,
            "round_index": round_index,
            "rounds": rounds,
            "frames": replay_selectors.replay_frames_json(game=game, frames=frames),
            "seat_names": seat_names(request.LANGUAGE_CODE, variant.num_players, player=player),
            "player": player,
            "table_css": module.TABLE_CSS,
            "scores": game.round_scores[rounds.index(round_index)] if played else None,
            "has_sheet": replay_selectors.has_score_sheet(game=game.game, variant=game.variant),
            "may_download": permissions.may_download_record(user=request.user, game=game),
            "may_what_if": played and permissions.may_start_what_if(user=request.user, game=game),
            "analysis": analysis.game_analysis(game=game, round_index=round_index, player=player)
            if played and game.is_finished
            else None,
        },
    )


def game_split(request: HttpRequest, pk: int) -> HttpResponse:
    """Two games of a closed tournament on the same deal (``?round=R&with=ID`` or
    ``with=par``): their shared moves, where they split, each continuation."""
    game = get_object_or_404(Game.objects.select_related("entry__tournament", "user"), pk=pk)
    tournament = game.tournament
    if tournament is None or not permissions.may_split(user=request.user, game=game):
        raise Http404
    round_index = _round_param(request, default=0)
    other_id = request.GET.get("with", "par")
    other = None
    if other_id != "par":
        if not other_id.isdigit():
            raise Http404
        other = get_object_or_404(
            Game.objects.select_related("entry__tournament", "user"),
            pk=int(other_id),
            entry__tournament=tournament,
        )
    try:
        split = analysis.games_split(
            game=game, other=other, round_index=round_index, par_label=str(_("Par (the bots)"))
        )
    except ServiceError as exc:
        raise Http404 from exc
    choices = (
        Game.objects.filter(entry__tournament=tournament)
        .exclude(pk=game.pk)
        .select_related("user")
        .only("pk", "user__username")
        .order_by("user__username")
    )
    return render(
        request,
        "tournaments/split.html",
        {
            "game": game,
            "tournament": tournament,
            "split": split,
            "choices": choices,
            "other_id": other_id,
            "rounds": range(min(len(game.round_scores), tournament.rounds)),
            "lower_is_better": module_of(game.game).LOWER_IS_BETTER,
        },
    )


@login_required
def game_review(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """A player's own finished game, round by round, before the close too: the log of each
    round as the table showed it (no hidden card), the strong bot's choice beside each of
    their decisions, and "speel vanaf hier" from any of them. Every seat's hand is shown
    only by the replay, once the tournament has closed."""
    game = get_object_or_404(Game.objects.select_related("entry__tournament", "user"), pk=pk)
    if not permissions.may_review(user=request.user, game=game):
        raise Http404
    rounds = replay_selectors.replay_rounds(game=game)
    round_index = _round_param(request, default=rounds[0] if rounds else 0)
    if round_index not in rounds:
        raise Http404
    return render(
        request,
        "tournaments/review.html",
        {
            "game": game,
            "round_index": round_index,
            "rounds": rounds,
            "review": analysis.game_review(game=game, round_index=round_index),
            "may_replay": _may_replay(request, game),
        },
    )


@login_required
@require_POST
def game_what_if(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """ "Speel vanaf hier": an unscored practice game from a position of a finished game."""
    try:
        round_index = int(request.POST.get("round", ""))
        start = int(request.POST.get("start", ""))
    except ValueError:
        return HttpResponseBadRequest(str(_("Choose a position in the replay.")))
    try:
        game = what_if_services.game_what_if_start(
            user=request.user, source_id=pk, round_index=round_index, start=start
        )
    except Game.DoesNotExist as exc:
        raise Http404 from exc
    except ServiceError as exc:
        return HttpResponseBadRequest(exc.message())
    return redirect("play", game.pk)


@login_required
@require_POST
def tournament_deal_again(
    request: AuthenticatedHttpRequest, pk: int, round_index: int
) -> HttpResponse:
    """ "Play this deal again": an unscored practice game from the start of a round of a
    closed tournament, with its bots (400 with the reason before the close)."""
    tournament = views_access.tournament_or_404(request, pk)
    try:
        copy = request.POST.get("copy", "")
        game = what_if_services.deal_again_start(
            user=request.user,
            tournament=tournament,
            round_index=round_index,
            # a deal pool: the copy of the table the button is in (from 0)
            copy=int(copy) if copy.isdigit() else None,
        )
    except ServiceError as exc:
        return HttpResponseBadRequest(exc.message())
    return redirect("play", game.pk)


def game_sheet(request: HttpRequest, pk: int) -> HttpResponse:
    """The score sheet of a game (seed 001's "formulier"), printable on A4; 404 where
    the viewer may not see it or the variant has none (it scores points in hand)."""
    game = get_object_or_404(Game.objects.select_related("entry__tournament", "user"), pk=pk)
    if not permissions.may_see_sheet(user=request.user, game=game):
        raise Http404
    sheet = replay_selectors.game_score_sheet(game=game)
    if sheet is None:
        raise Http404
    module = module_of(game.game)
    variant = module.variant_from_json(game.variant)
    return render(
        request,
        "tournaments/sheet.html",
        {
            "game": game,
            "sheet": sheet,
            "seat_names": seat_names(request.LANGUAGE_CODE, variant.num_players),
            "parts_count": len(module.game_parts(variant)),
            "may_replay": _may_replay(request, game) and bool(game.round_scores),
        },
    )


def game_record(request: HttpRequest, pk: int) -> HttpResponse:
    """The game record (docs/game-record.md) as a JSON download, when its replay may be
    seen; ``python -m engine verify-game`` checks it without the site."""
    game = get_object_or_404(Game.objects.select_related("entry__tournament", "user"), pk=pk)
    if not permissions.may_download_record(user=request.user, game=game):
        raise Http404
    response = JsonResponse(
        replay_selectors.game_record(game=game).to_json(), json_dumps_params={"indent": 1}
    )
    response["Content-Disposition"] = f'attachment; filename="game-{game.pk}.json"'
    return response


@login_required
def play(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The card table: ``tournaments/play_<game>.html`` where a game has its own table,
    else ``tournaments/play.html`` (both by the front-end engineers)."""
    game = get_object_or_404(Game.objects.select_related("entry__tournament"), pk=pk)
    if not permissions.may_view_game(user=request.user, game=game):
        raise Http404
    tournament = game.tournament
    if tournament is not None and not permissions.may_see_round_cards(game=game):
        # a live evening's round that has not opened: its lobby counts down to it
        return redirect("tournament_live", tournament.pk)
    return render(
        request,
        [f"tournaments/play_{game.game}.html", "tournaments/play.html"],
        {
            "game": game,
            "initial": game_payload(game),
            "api_url": reverse("api_game", args=[game.pk]),
            "moves_url": reverse("api_game_move", args=[game.pk]),
            "rules_url": reverse("tournament_rules", args=[tournament.pk])
            if tournament
            else reverse("preset_rules", args=[game.game, game.preset]),
            "back_url": tournament.get_absolute_url() if tournament else reverse("home"),
            "pace": table_selectors.account_pace(user=request.user),
            "pace_url": reverse("api_account_pace"),
            # a live club evening's round: its slot's countdown (static/js/live-table.js)
            **(
                {
                    "live_status_url": reverse("api_tournament_live", args=[tournament.pk]),
                    "live_lobby_url": reverse("tournament_live", args=[tournament.pk]),
                }
                if tournament is not None and tournament.live and not game.is_finished
                else {}
            ),
        },
    )


@checks_control_characters
@login_required
def practice(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PracticeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        game_name, preset = split_preset(form.cleaned_data["preset"])
        try:
            game = entry_services.game_practice_start(
                user=request.user,
                game=game_name,
                preset=preset,
                bot_level=form.cleaned_data["bot_level"],
            )
        except ServiceError as exc:
            form.add_error(None, exc.message())
        else:
            return redirect("play", game.pk)
    games = list(
        Game.objects.filter(user=request.user, entry__isnull=True)
        .select_related("what_if")
        .order_by("-created_at")[:20]
    )
    replayable = {g.pk for g in games if g.is_finished and _may_replay(request, g)}
    return render(
        request,
        "tournaments/practice.html",
        {"form": form, "games": games, "replayable": replayable},
        status=form_status(form),
    )


@login_required
def my_games(request: AuthenticatedHttpRequest) -> HttpResponse:
    entries = standing_selectors.my_entries(user=request.user)
    return render(request, "tournaments/my_games.html", {"entries": entries})


@cache_control(private=True, no_cache=True)
def tournament_live(request: HttpRequest, pk: int) -> HttpResponse:
    """A live evening's lobby (docs/rules.md §7, "Live club evening (clubavond)"): the
    schedule, a countdown to the next round's opening or to its slot's end, the viewer's
    own place in it (their table once their round is open) and the board of the rounds
    whose slot has closed; the page follows the evening by polling
    ``api_tournament_live`` and takes the board again when a slot closes."""
    tournament = views_access.tournament_or_404(
        request, pk, Tournament.objects.select_related("club")
    )
    if not permissions.may_see_live_board(tournament=tournament):
        raise Http404
    my_game = None
    if request.user.is_authenticated:
        my_game = (
            Game.objects.filter(entry__tournament=tournament, entry__user=request.user)
            .order_by()
            .first()
        )
    state = live_selectors.state_of(tournament)
    board = _board(request, tournament)
    context = {
        **_leaderboard_context(
            request,
            tournament=tournament,
            board=board,
            extras=analysis.board_extras_for(tournament=tournament, board=board),
        ),
        "tournament": tournament,
        "status": live_selectors.live_status(state),
        "slots": [
            {"round": r + 1, "opens": opens, "closes": closes}
            for r, (opens, closes) in enumerate(state.slots)
        ],
        "my_game": my_game,
        "my_round": (
            my_game.round_index if my_game is not None and not my_game.is_finished else None
        ),
        "may_enter": permissions.may_enter_tournament(user=request.user, tournament=tournament)
        and my_game is None
        and tournament.entries_open()
        and tournament.entries.count() < tournament.max_entrants,
    }
    return render(request, "tournaments/live.html", context)


#: How long a live evening's shared board is kept (its key changes with every results
#: write anyway: ``standing_selectors.stamped_key``).
LIVE_BOARD_SECONDS = 300


def tournament_live_board(request: HttpRequest, pk: int) -> HttpResponse:
    """A live evening's board as its lobby takes it when a slot has closed: the first
    page of the leaderboard as everyone sees it (in a live evening every viewer sees the
    same rounds, ``permissions.results_visibility``), rendered once per change of the
    results and language and kept in the cache, so that every lobby taking it at the
    same moment costs a cache read, not a render (benchmarks/live_evening.py)."""
    tournament = views_access.tournament_or_404(request, pk)
    if not permissions.may_see_live_board(tournament=tournament):
        raise Http404
    visibility = permissions.results_visibility(user=None, tournament=tournament)
    language = translation.get_language() or "nl"
    key = standing_selectors.stamped_key(
        tournament, f"live-board:{visibility.rounds}:{visibility.final}:{language}"
    )
    html = cache.get(key) if key is not None else None
    if not isinstance(html, str):
        board = standing_selectors.standings_page(tournament=tournament, user=None, page=1)
        context = _leaderboard_context(
            request,
            tournament=tournament,
            board=board,
            extras=analysis.board_extras_for(tournament=tournament, board=board),
        )
        # the same for everyone: no ratings column asked by one viewer, no "me" row
        context.update(show_ratings=False, ratings={})
        html = render_to_string("tournaments/leaderboard_fragment.html", context)
        if key is not None:
            cache.set(key, html, LIVE_BOARD_SECONDS)
    return HttpResponse(html)
