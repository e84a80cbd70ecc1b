"""Sign-up, log-in (both throttled: jokeren/throttle.py) and the account page: bot
account, mail settings and personal API tokens."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _

from common.forms import RefusesControlCharacters, checks_control_characters, form_status
from jokeren import throttle
from tournaments import permissions, tokens
from tournaments import series as series_services
from tournaments.errors import ServiceError
from tournaments.forms import MailSettingsForm
from tournaments.permissions import AuthenticatedHttpRequest, is_bot
from tournaments.services import mail as mail_services


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


@login_required
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Bot account, mail settings and personal API tokens. A new token is shown once, on
    this answer."""
    new_key = None
    mail_form = MailSettingsForm.of(mail_services.account_of(request.user))
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "mail_settings":
                mail_form = MailSettingsForm(request.POST)
                if mail_form.is_valid():
                    return mail_settings_save(request, mail_form)
            elif action == "create_token":
                new_key = tokens.token_create(
                    user=request.user, name=request.POST.get("name", "")
                ).key
            elif action == "revoke_token":
                tokens.token_revoke(
                    user=request.user, token_id=int(request.POST.get("token", "0") or 0)
                )
                messages.success(request, _("The token is revoked."))
                return redirect("account")
            elif action == "mark_bot":
                series_services.account_mark_bot(user=request.user)
                messages.success(request, _("This is a bot account now."))
                return redirect("account")
            else:
                return HttpResponse(status=400)
        except (ServiceError, ValueError) as exc:
            message = exc.message() if isinstance(exc, ServiceError) else _("No such token.")
            messages.error(request, message)
            return redirect("account")
    return render(
        request,
        "accounts/account.html",
        {
            "tokens": request.user.api_tokens.all(),
            "new_key": new_key,
            "is_bot": is_bot(request.user),
            "mail_form": mail_form,
        },
    )


def mail_settings_save(request: AuthenticatedHttpRequest, form: MailSettingsForm) -> HttpResponse:
    """Store the account page's mail settings; the site follows the mail's language."""
    account = mail_services.account_mail_settings_update(
        user=request.user,
        language=form.cleaned_data["language"],
        mail_results=form.cleaned_data["mail_results"],
        mail_series=form.cleaned_data["mail_series"],
        mail_invites=form.cleaned_data["mail_invites"],
    )
    translation.activate(account.language)
    messages.success(request, _("Your mail settings are saved."))
    response = redirect("account")
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        account.language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
