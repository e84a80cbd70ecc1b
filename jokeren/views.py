"""Site pages: home (the tournaments), the admin's log-in (throttled: jokeren/throttle.py),
the language switch; sign-up and log-in are the accounts app's."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import timezone, translation
from django.utils.decorators import method_decorator
from django.views import i18n
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from accounts import views as account_views
from jokeren import throttle
from tournaments import api, permissions
from tournaments.api import api_view
from tournaments.models import Tournament
from tournaments.selectors import standings as standing_selectors

admin_login_view = throttle.throttle_login(admin.site.login)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """``handler400``: the API's (``tournaments.api.bad_request``), for a request refused
    before ``AuthenticationMiddleware`` gave it a user too (a host not in
    ``ALLOWED_HOSTS``): its page is then rendered for an anonymous visitor, not a 500."""
    if not hasattr(request, "user"):
        request.user = AnonymousUser()
    return api.bad_request(request, exception)


@require_safe
def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """/favicon.ico, which browsers ask for on their own: the site's icon (static/favicon.svg,
    linked from every page)."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


@api_view("GET")
def ping(request: HttpRequest) -> JsonResponse:
    """A trivial JSON answer: the yardstick of the load benchmark (benchmarks/load.py) and
    a liveness check for a load balancer."""
    return JsonResponse({"ok": True})


def home(request: HttpRequest) -> HttpResponse:
    """The open (and upcoming), running and finished tournaments the viewer may see (a
    private one only to its club's members and its entrants: ``permissions``)."""
    now = timezone.now()
    groups: dict[str, list[tuple[Tournament, int]]] = {
        "upcoming": [],
        "open": [],
        "running": [],
        "finished": [],
    }
    listed = permissions.visible_tournaments(request.user).select_related("club")
    for t in listed.annotate(entrants=Count("entries")).order_by("closes_at"):
        groups[t.status(now, entrants=t.entrants)].append((t, t.entrants))
    groups["finished"].sort(key=lambda te: te[0].closed_at or now, reverse=True)
    mine = standing_selectors.entered_games(
        user=request.user, tournament_ids=[t.pk for group in groups.values() for t, _n in group]
    )
    # Each card: the tournament, its entrants and the viewer's game in it (or None).
    cards = {name: [(t, n, mine.get(t.pk)) for t, n in group] for name, group in groups.items()}
    return render(request, "home.html", {"groups": cards, "now": now})


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch (``django.views.i18n.set_language``: the cookie, back to
    ``next``), remembered on the account of a logged-in user for their mail."""
    response = i18n.set_language(request)
    if request.method == "POST":
        account_views.remember_language(request, request.POST.get("language"))
    return response


#: How long a browser keeps the scripts' translation catalogue without asking again.
JS_CATALOG_MAX_AGE = 3600


@method_decorator(cache_control(max_age=JS_CATALOG_MAX_AGE), name="get")
class JavaScriptCatalog(i18n.JavaScriptCatalog):
    """Django's catalogue of the scripts' translations in the language its address names
    (``?lang=nl``: base.html links the page's language), whatever the request's cookie or
    Accept-Language say, so a browser may keep it: a page in the other language links
    another address."""

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        lang = request.GET.get("lang", "")
        if lang not in dict(settings.LANGUAGES):
            return super().get(request, *args, **kwargs)
        with translation.override(lang):
            return super().get(request, *args, **kwargs)
