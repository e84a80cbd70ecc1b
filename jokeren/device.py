"""The device identifier (docs/rules.md, "Fair play"): every browser gets a long-lived
signed random cookie on its first visit; it survives log-out (the session's flush does
not touch it). The request carries it as ``request.device`` (``common.device.Device``)
with the network prefix of the client's address and its user agent."""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.conf import settings
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

from common.device import USER_AGENT_CHARS, Device, network_prefix
from jokeren.throttle import client_ip

#: The cookie's name, its salt and its life (ten years: as long as the browser keeps it).
COOKIE = "jokeren_device"
SALT = "jokeren.device"
MAX_AGE = 10 * 365 * 24 * 3600


def _read(request: HttpRequest) -> str | None:
    raw = request.COOKIES.get(COOKIE)
    if not raw:
        return None
    try:
        value = request.get_signed_cookie(COOKIE, salt=SALT)
    except (signing.BadSignature, KeyError):
        return None
    return value if isinstance(value, str) and len(value) == 32 else None


class DeviceMiddleware:
    """Read the device cookie, or make one and set it on the answer."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        known = _read(request)
        device_id = known or secrets.token_hex(16)
        request.device = Device(  # type: ignore[attr-defined]
            id=device_id,
            known=known is not None,
            network=network_prefix(client_ip(request)),
            user_agent=str(request.META.get("HTTP_USER_AGENT", ""))[:USER_AGENT_CHARS],
        )
        response = self.get_response(request)
        if known is None:
            # An answer that hands out a device identifier is this browser's alone: a
            # shared cache must never give the same one to other browsers (it would link
            # their accounts).
            patch_cache_control(response, private=True)
            response.set_signed_cookie(
                COOKIE,
                device_id,
                salt=SALT,
                max_age=MAX_AGE,
                secure=settings.SESSION_COOKIE_SECURE,
                httponly=True,
                samesite="Lax",
            )
        return response
