"""What a request may see of a tournament or a series, for the pages and the API: the
object, or 404 where ``permissions.may_see_tournament`` (``may_see_series``) hides it
(docs/rules.md, "Clubs: members, organizers, who may enter", rules 5 and 6).

An invite tournament's code comes with the request (``?code=`` in the invite link, or a
form field ``code``); a page remembers a valid one in the session, so the tournament's
other pages (the leaderboard's refresh, the rules, the join) open for that visitor too.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments import permissions
from tournaments.models import Access, Series, Tournament

#: The session's key of the invite codes a visitor brought: ``{tournament id: code}``.
SESSION_CODES = "tournament_codes"


def request_code(request: HttpRequest, tournament: Tournament) -> str:
    """The invite code the request brings for ``tournament``: ``code`` in the query or
    the form, else the one its session remembers ("" for none)."""
    given = request.POST.get("code") or request.GET.get("code") or ""
    if given:
        return str(given)[:64]
    session = getattr(request, "session", None)
    if session is None:
        return ""
    codes = session.get(SESSION_CODES) or {}
    return str(codes.get(str(tournament.pk), "")) if isinstance(codes, dict) else ""


def _remember(request: HttpRequest, tournament: Tournament, code: str) -> None:
    session = getattr(request, "session", None)
    if session is None or not code or tournament.access != Access.INVITE:
        return
    if not permissions.code_matches(given=code, expected=tournament.invite_code):
        return
    codes = session.get(SESSION_CODES)
    codes = dict(codes) if isinstance(codes, dict) else {}
    if codes.get(str(tournament.pk)) != code:
        codes[str(tournament.pk)] = code
        session[SESSION_CODES] = codes


def tournament_or_404(
    request: HttpRequest, pk: int, queryset: QuerySet[Tournament] | None = None
) -> Tournament:
    """The tournament ``pk`` as ``request``'s user may see it (with the code it brings),
    else 404: no such tournament, or a private one they may not see."""
    tournament = get_object_or_404(
        Tournament.objects.all() if queryset is None else queryset, pk=pk
    )
    code = request_code(request, tournament)
    if not permissions.may_see_tournament(user=request.user, tournament=tournament, code=code):
        raise Http404
    _remember(request, tournament, code)
    return tournament


def series_or_404(request: HttpRequest, pk: int) -> Series:
    """The series ``pk`` as ``request``'s user may see it, else 404."""
    series = get_object_or_404(Series.objects.select_related("club"), pk=pk)
    if not permissions.may_see_series(user=request.user, series=series):
        raise Http404
    return series


def listed(request: HttpRequest) -> QuerySet[Tournament]:
    """The tournaments a list shows ``request``'s user (``permissions.visible_tournaments``)."""
    return permissions.visible_tournaments(request.user)


def second_factor_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """An organizer's page (behind ``login_required``): staff and a club's owners and
    organizers without a second factor are sent to set one up first, and back here after
    (``permissions.needs_second_factor``; docs/rules.md, "Accounts", rule 6)."""

    @wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if permissions.needs_second_factor(request.user):
            messages.warning(
                request,
                _(
                    "Set up two-step verification first: club owners, organizers and "
                    "staff need it before they act on a tournament or a club."
                ),
            )
            back = request.get_full_path() if request.method == "GET" else reverse("account")
            return redirect(f"{reverse('mfa_activate_totp')}?{urlencode({'next': back})}")
        return view(request, *args, **kwargs)

    return checked
