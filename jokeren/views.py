"""Site pages: home (the tournaments), sign-up and log-in (both throttled: jokeren/throttle.py)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import AnonymousUser
from django.db.models import Count
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils import timezone, translation
from django.utils.decorators import method_decorator
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views import i18n
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from common.forms import RefusesControlCharacters, checks_control_characters, form_status
from jokeren import throttle
from tournaments import api, permissions
from tournaments.api import api_view
from tournaments.models import Tournament
from tournaments.selectors import standings as standing_selectors
from tournaments.services import mail as mail_services

#: Django's log-in page and the admin's, each behind the log-in throttle.


class SignupForm(RefusesControlCharacters, UserCreationForm):  # type: ignore[type-arg]
    """Django's sign-up form; a control character in a field is that field's error."""


class LoginForm(RefusesControlCharacters, AuthenticationForm):
    """Django's log-in form; a control character in a field is that field's error."""


class LoginView(auth_views.LoginView):
    """Django's log-in page with ``LoginForm``: a field refused for a control character
    answers 400 (``common.forms.form_status``)."""

    form_class = LoginForm

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_invalid(form)
        response.status_code = form_status(form)
        return response


login_view = checks_control_characters(throttle.throttle_login(LoginView.as_view()))
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


def _safe_next(request: HttpRequest) -> str:
    """The page to go back to (``next`` in the POST or the query), if it is on this site;
    else ``""``."""
    target = request.POST.get(REDIRECT_FIELD_NAME) or request.GET.get(REDIRECT_FIELD_NAME, "")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return ""


@checks_control_characters
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account, log in, confirm it and go back to where the visitor came from
    (``next``, a page of this site only), else home."""
    target = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(target or "home")
    if request.method == "POST" and (wait := throttle.signup_wait(request)) is not None:
        return throttle.too_many(
            request,
            wait=wait,
            message=_("Too many sign-ups from your address in a short time."),
        )
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
        # the language the visitor chose on the site is the one of their mail
        remember_language(request, translation.get_language())
        messages.success(
            request,
            _("Welcome, %(name)s: your account has been created and you are logged in.")
            % {"name": user.get_username()},
        )
        return redirect(target or "home")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": target},
        status=form_status(form),
    )


def remember_language(request: HttpRequest, language: str | None) -> None:
    """A logged-in user's choice of a language of the site is also the language of their
    mail (``Account.language``)."""
    if permissions.is_logged_in(request.user) and language in mail_services.LANGUAGES:
        mail_services.account_language_set(user=request.user, language=language)


def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch (``django.views.i18n.set_language``: the cookie, back to
    ``next``), remembered on the account of a logged-in user for their mail."""
    response = i18n.set_language(request)
    if request.method == "POST":
        remember_language(request, request.POST.get("language"))
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
