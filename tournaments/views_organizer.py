"""HTML pages of the organizer: create and change a tournament, its entries, an entry's
audit, the close. Each is a tournament of a club the organizer runs, or staff's
(``permissions``: another club's tournament is a 404, anyone else a 403). Views only
translate HTTP to services and back."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from common.forms import CONTROL_IN_TEXT, checks_control_characters, form_status
from tournaments import permissions, views_access
from tournaments.errors import ServiceError, TournamentClosed
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Game, Tournament
from tournaments.permissions import AuthenticatedHttpRequest, is_organizer
from tournaments.selectors import fairplay as fairplay_selectors
from tournaments.selectors import standings as standing_selectors
from tournaments.services import audit as audit_services
from tournaments.services import closing as closing_services
from tournaments.services import fairplay as fairplay_services
from tournaments.services import tournaments as tournament_services


def organizer_required(request: HttpRequest) -> None:
    """403 for anyone who is not an organizer (``permissions.is_organizer``)."""
    if not is_organizer(request.user):
        raise PermissionDenied


def tournament_managed(request: HttpRequest, pk: int, rule: Callable[..., bool]) -> Tournament:
    """The tournament of an organizer's page: 403 for a non-organizer, 404 when there is no
    such tournament or ``rule`` (a ``permissions`` predicate of the ownership rule: the
    club's organizers and owner, or staff) refuses it: another club's tournament stays
    hidden."""
    organizer_required(request)
    tournament = get_object_or_404(Tournament.objects.select_related("club"), pk=pk)
    if not rule(user=request.user, tournament=tournament):
        raise Http404
    return tournament


#: Entrants a page of the organizer's entries list (as the leaderboard's pages).
ENTRIES_PAGE_SIZE = 50


# --- Organizer --------------------------------------------------------------------------


def _tournament_form_view(
    request: AuthenticatedHttpRequest, tournament: Tournament | None
) -> HttpResponse:
    if tournament is None and not permissions.may_create_tournament(request.user):
        raise PermissionDenied
    if request.method == "POST" and "load_preset" in request.POST:
        # Switch the variant fields to another preset's defaults, keep the rest.
        data = request.POST.copy()
        preset: str | None = data.get("preset", "")
        form = TournamentForm(
            tournament=tournament, preset=preset, initial=keep_fields(data), user=request.user
        )
    elif request.method == "POST":
        form = TournamentForm(request.POST, tournament=tournament, user=request.user)
        if form.is_valid():
            kwargs = form.service_kwargs()
            club = form.chosen_club()
            try:
                if tournament is None:
                    if club is None or not permissions.may_create_in_club(
                        user=request.user, club=club
                    ):
                        raise PermissionDenied
                    tournament = tournament_services.tournament_create(
                        created_by=request.user, club=club, **kwargs
                    )
                else:
                    tournament = tournament_services.tournament_update(
                        tournament=tournament, **kwargs
                    )
            except ServiceError as exc:
                form.add_error(None, exc.message())
            else:
                return redirect(tournament)
    else:
        preset = request.GET.get("preset") or None
        form = TournamentForm(
            tournament=tournament,
            preset=preset,
            initial={"preset": preset} if preset else None,
            user=request.user,
        )
    return render(
        request,
        "tournaments/form.html",
        {
            "form": form,
            "tournament": tournament,
            "locked": tournament is not None and tournament.entries.exists(),
        },
        status=form_status(form),
    )


def keep_fields(data: Any) -> dict[str, Any]:
    """The general fields of a tournament's (or series') form kept when another preset's
    defaults are loaded (a value holding a control character is left out: the form then
    shows the field empty)."""
    keep: tuple[str, ...] = ("name", "rounds", "max_entrants", "bot_level", "opens_at")
    keep += ("closes_at", "preset", "hide_results", "show_round_hands", "club", "access")
    keep += ("live", "live_start", "live_slot_minutes", "live_pause_minutes")
    return {
        k: value for k in keep if (value := data.get(k)) and not CONTROL_IN_TEXT.search(str(value))
    }


@checks_control_characters
@login_required
@views_access.second_factor_required
def tournament_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _tournament_form_view(request, None)


@checks_control_characters
@login_required
@views_access.second_factor_required
def tournament_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_managed(request, pk, permissions.may_edit_tournament)
    if tournament.is_closed:
        messages.error(request, TournamentClosed.of(_("This tournament is closed.")).message())
        return redirect(tournament)
    return _tournament_form_view(request, tournament)


@login_required
@views_access.second_factor_required
def tournament_entries(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_managed(request, pk, permissions.may_see_entries)
    # The page's entries from the index of the order they joined (ids only), then their
    # games: no sort of the whole field.
    entry_ids = tournament.entries.order_by("joined_at", "id").values_list("id", flat=True)
    page = Paginator(entry_ids, ENTRIES_PAGE_SIZE).get_page(request.GET.get("page"))
    ids = list(page.object_list)
    games = Game.objects.filter(entry_id__in=ids).select_related("user", "entry__audit_resolved_by")
    by_entry = {g.entry_id: g for g in games}
    ranks = standing_selectors.entry_standings(
        tournament=tournament,
        visibility=permissions.entries_visibility(user=request.user, tournament=tournament),
        entry_ids=ids,
    )
    return render(
        request,
        "tournaments/entries.html",
        {
            "tournament": tournament,
            "rows": [(by_entry[i], ranks.get(by_entry[i].pk)) for i in ids if i in by_entry],
            "page": page,
            "now": timezone.now(),
            "reviews": fairplay_selectors.flagged_entries(
                tournament=tournament, language=get_language() or "nl"
            ),
            "may_see_account_flags": permissions.may_see_account_flags(request.user),
        },
    )


@login_required
@require_POST
@views_access.second_factor_required
def entry_audit(request: AuthenticatedHttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """An organizer's answer to an entry's audit: ``audit`` (replay it again, after a
    repair) or ``resolve`` (the stored scores stand: ranked again)."""
    tournament_managed(request, pk, permissions.may_audit)
    game = get_object_or_404(Game, entry_id=entry_id, entry__tournament_id=pk)
    action = request.POST.get("action")
    try:
        if action == "audit":
            audit = audit_services.game_audit(game_id=game.pk)
            if audit.ok:
                messages.success(request, _("The replay matches the stored game."))
            else:
                messages.error(request, _("The replay still differs from the stored game."))
        elif action == "resolve":
            audit_services.entry_audit_resolve(entry_id=entry_id, user=request.user)
        else:
            return HttpResponseBadRequest(str(_("Unknown audit action.")))
    except ServiceError as exc:
        messages.error(request, exc.message())
    return redirect("tournament_entries", pk)


@login_required
@require_POST
@views_access.second_factor_required
def entry_fair_play(request: AuthenticatedHttpRequest, pk: int, entry_id: int) -> HttpResponse:
    """An organizer's decision on an entry under fair-play review: ``clear`` (ranked
    again) or ``disqualify`` (out of the standings and the ratings, the entrant told)."""
    tournament_managed(request, pk, permissions.may_review_fair_play)
    entry = get_object_or_404(Entry, pk=entry_id, tournament_id=pk)
    action = request.POST.get("action")
    try:
        if action == "clear":
            fairplay_services.entry_review_clear(entry=entry, by=request.user)
            messages.success(request, _("The entry is cleared: it is ranked again."))
        elif action == "disqualify":
            fairplay_services.entry_review_disqualify(entry=entry, by=request.user)
            messages.success(request, _("The entry is disqualified; its entrant gets a mail."))
        else:
            return HttpResponseBadRequest(str(_("Unknown decision: choose clear or disqualify.")))
    except ServiceError as exc:
        messages.error(request, exc.message())
    return redirect("tournament_entries", pk)


@login_required
@require_POST
@views_access.second_factor_required
def tournament_close(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    tournament = tournament_managed(request, pk, permissions.may_close_tournament)
    try:
        closing_services.tournament_close_early(tournament=tournament)
    except ServiceError as exc:
        messages.error(request, exc.message())
    return redirect(tournament)
