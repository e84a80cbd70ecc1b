"""Sign-up and log-in (allauth's pages, throttled: jokeren/throttle.py) and the account
page: the mail address, the password and the second factor (allauth's pages, linked),
bot account, mail settings and personal API tokens."""

from __future__ import annotations

from functools import wraps
from typing import Any

from allauth.account import views as allauth_views
from allauth.mfa.models import Authenticator
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from accounts import services as account_services
from common.forms import checks_control_characters, form_status
from jokeren import throttle
from tournaments import permissions, tokens
from tournaments import series as series_services
from tournaments.errors import ServiceError
from tournaments.forms import MailSettingsForm
from tournaments.permissions import AuthenticatedHttpRequest, is_bot
from tournaments.services import mail as mail_services


class LoginView(allauth_views.LoginView):  # type: ignore[misc]
    """allauth's log-in page (the name or the mail address; then the second factor, if
    the account has one); a field refused for a control character answers 400. A player
    already logged in goes on to ``next`` (allauth's ``RedirectAuthenticatedUserMixin``)."""

    def form_invalid(self, form: Any) -> HttpResponse:
        response: HttpResponse = super().form_invalid(form)
        response.status_code = form_status(form)
        return response


class SignupView(allauth_views.SignupView):  # type: ignore[misc]
    """allauth's sign-up page: a name, a mail address (the site mails the link that
    verifies it) and a password; the new account is logged in and goes back to ``next``
    (a page of this site only), else home."""

    def form_invalid(self, form: Any) -> HttpResponse:
        response: HttpResponse = super().form_invalid(form)
        response.status_code = form_status(form)
        return response


def throttle_signup(view: Any) -> Any:
    """A sign-up view behind the sign-up throttle per client IP (jokeren/throttle.py)."""

    @wraps(view)
    def throttled(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
        if request.method == "POST" and not request.user.is_authenticated:
            wait = throttle.signup_wait(request)
            if wait is not None:
                return throttle.too_many(
                    request,
                    wait=wait,
                    message=_("Too many sign-ups from your address in a short time."),
                )
        return view(request, *args, **kwargs)

    return throttled


login_view = checks_control_characters(throttle.throttle_login(LoginView.as_view()))
signup = checks_control_characters(throttle_signup(SignupView.as_view()))


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
            "address_verified": permissions.has_verified_address(request.user),
            "has_second_factor": Authenticator.objects.filter(
                user=request.user, type=Authenticator.Type.TOTP
            ).exists(),
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
        mail_announcements=form.cleaned_data["mail_announcements"],
        mail_fairplay=form.cleaned_data["mail_fairplay"],
        mail_reminders=form.cleaned_data["mail_reminders"],
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


@login_required
def account_delete(request: AuthenticatedHttpRequest) -> HttpResponse:
    """ "Delete my account": a page that says what goes and what stays, and asks for the
    password; the POST deletes the account (``account_services.account_delete``) and
    logs out."""
    error = ""
    if request.method == "POST":
        if not request.user.check_password(request.POST.get("password", "")):
            error = _("That is not your password.")
        else:
            try:
                account_services.account_delete(user=request.user)
            except ServiceError as exc:
                error = exc.message()
            else:
                logout(request)
                messages.success(request, _("Your account has been deleted."))
                return redirect("home")
    return render(
        request,
        "accounts/delete.html",
        {"error": error},
        status=400 if error and request.method == "POST" else 200,
    )


@login_required
def account_export(request: AuthenticatedHttpRequest) -> HttpResponse:
    """ "Download my data": a zip of JSON files (``account_services.account_export``)."""
    response = HttpResponse(
        account_services.account_export(user=request.user), content_type="application/zip"
    )
    response["Content-Disposition"] = 'attachment; filename="mijn-gegevens.zip"'
    return response


def privacy(request: HttpRequest) -> HttpResponse:
    """What the site keeps of its players, why and how long (Dutch and English)."""
    return render(request, "accounts/privacy.html")
