"""Throttles on log-in and sign-up (django-ratelimit counters in the shared cache).

Log-in: failed attempts are counted per client IP and per account name (the username
typed, case-folded); once either count reaches its limit in the current window, every
log-in POST from that IP or for that account gets the 429 page, even one with the right
password, until the window ends. Sign-up: every POST is counted per client IP.

The client IP is ``REMOTE_ADDR``, unless that address is one of ``TRUSTED_PROXIES``
(nginx in front, deploy/): then it is the right-most address in ``X-Forwarded-For`` that
is not a trusted proxy (the one nginx saw; the left part is whatever the client sent).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import wraps
from ipaddress import IPv4Address, IPv6Address, ip_address
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django_ratelimit.core import get_usage

View = Callable[..., HttpResponseBase]


def _parse(address: str) -> IPv4Address | IPv6Address | None:
    try:
        return ip_address(address.strip())
    except ValueError:
        return None


def _trusted(address: IPv4Address | IPv6Address | None) -> bool:
    return address is not None and any(address in net for net in settings.TRUSTED_PROXIES)


def client_ip(request: HttpRequest) -> str:
    """The client's address (django-ratelimit's ``RATELIMIT_IP_META_KEY``)."""
    remote = str(request.META.get("REMOTE_ADDR", ""))
    if not _trusted(_parse(remote)):
        return remote
    hops = str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")
    for hop in reversed(hops):
        address = _parse(hop)
        if address is None:
            # Not written by a trusted proxy: count the request against the nearest one.
            return remote
        if not _trusted(address):
            return str(address)
    return remote


def _account(group: str, request: HttpRequest) -> str:
    """The account a log-in POST is for: the name or address as typed (``login`` on the
    site's log-in page, ``username`` on the admin's), case-folded."""
    typed = request.POST.get("login") or request.POST.get("username", "")
    return str(typed).strip().casefold()


def _login_limits() -> list[tuple[str, str | Callable[[str, HttpRequest], str], str]]:
    limits: list[tuple[str, str | Callable[[str, HttpRequest], str], str]] = [
        ("login-ip", "ip", settings.LOGIN_RATE_LIMIT_IP),
        ("login-account", _account, settings.LOGIN_RATE_LIMIT_ACCOUNT),
    ]
    return [limit for limit in limits if limit[2]]


def _usage(request: HttpRequest, group: str, key: Any, rate: str, *, count: bool) -> Any:
    return get_usage(request, group=group, key=key, rate=rate, method="POST", increment=count)


def login_wait(request: HttpRequest) -> int | None:
    """Seconds until a log-in POST like this one may be tried again; None: it may now."""
    waits = []
    for group, key, rate in _login_limits():
        usage = _usage(request, group, key, rate, count=False)
        if usage is not None and usage["count"] >= usage["limit"]:
            waits.append(int(usage["time_left"]))
    return max(1, *waits) if waits else None


def login_failed(request: HttpRequest) -> None:
    """Count one failed log-in against the client IP and the account."""
    for group, key, rate in _login_limits():
        _usage(request, group, key, rate, count=True)


def signup_wait(request: HttpRequest) -> int | None:
    """Count this sign-up POST against the client IP; seconds to wait if it is one too
    many, else None."""
    rate = settings.SIGNUP_RATE_LIMIT
    if not rate:
        return None
    usage = _usage(request, "signup-ip", "ip", rate, count=True)
    if usage is None or not usage["should_limit"]:
        return None
    return max(1, int(usage["time_left"]))


def too_many(request: HttpRequest, *, wait: int, message: str) -> HttpResponse:
    """The 429 page: what happened and how long to wait (also in ``Retry-After``)."""
    minutes = max(1, math.ceil(wait / 60))
    response = render(
        request,
        "registration/throttled.html",
        {
            "message": message,
            "wait": ngettext(
                "Try again in %(minutes)d minute.", "Try again in %(minutes)d minutes.", minutes
            )
            % {"minutes": minutes},
        },
        status=429,
    )
    response["Retry-After"] = str(wait)
    return response


def throttle_login(view: View) -> View:
    """A log-in view (the site's or the admin's) with the log-in throttle in front of it."""

    @wraps(view)
    def throttled(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        wait = login_wait(request)
        if wait is not None:
            return too_many(
                request,
                wait=wait,
                message=_(
                    "Too many failed log-ins from your address or for this account. "
                    "For your safety log-in is paused for a while."
                ),
            )
        response = view(request, *args, **kwargs)
        # Both log-in views answer a POST that logged in with a redirect, and any other
        # (wrong password, unknown or inactive account, empty form) with the form again.
        if not 300 <= response.status_code < 400:
            login_failed(request)
        return response

    return throttled
