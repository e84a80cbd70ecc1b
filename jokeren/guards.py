"""Guards in front of every view: hostile bytes, and guessing API tokens.

``ControlCharacterMiddleware``: a request whose path, query string (names and values,
percent-decoded), form fields (``application/x-www-form-urlencoded`` and multipart, names
and values; not uploaded files) or JSON body holds a C0 control character (U+0000 to
U+001F) is answered 400 before any view runs: ``malformed_request`` with the error body
of docs/api.md under ``/api/`` (the code the API gives any body it cannot take), the
site's "bad request" page elsewhere. A form POST to a view marked
``common.forms.checks_control_characters`` goes through: its forms give the field that
holds one its own error, with a 400 (``common.forms``). Tab, line feed
and carriage return are allowed in form fields and JSON strings (a text area sends them),
nowhere else. Under ``/api/`` only the JSON body is read (the API takes no form: it
answers 415 to one, unread). No database or template could take a NUL, and no name,
title or query of the site has any use for the others.

``TokenThrottleMiddleware``: ``/api/`` requests with ``Authorization: Bearer`` that were
answered 401 (an unknown or revoked token) are counted per client address
(``jokeren.throttle.client_ip``, django-ratelimit's counters in the shared cache); once
``TOKEN_FAIL_RATE_LIMIT`` is reached, every bearer request from that address gets 429
``rate_limited`` with ``Retry-After`` until the window ends, before its token is looked
up (a right token too: like the log-in throttle, the price of stopping guessing). With
the cache out of reach it limits no one (``RATELIMIT_FAIL_OPEN``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext_lazy as _
from django_ratelimit.core import get_usage

from common.forms import CONTROL, CONTROL_IN_TEXT, view_checks_control_characters
from jokeren import views
from tournaments.errors import ServiceError

Handler = Callable[[HttpRequest], HttpResponse]

API_PATH = "/api/"
#: A JSON escape of a control character other than tab, LF, CR (then the body is parsed
#: to see whether it is in a string: ``\\u0001`` is a backslash and text).
_ESCAPED_CONTROL = re.compile(rb"\\u00(?:0[0-8bBcCeEfF]|1[0-9a-fA-F])")
#: JSON bodies above this size are left to the API, which refuses them (413) unread.
MAX_JSON_BYTES = 16 * 1024


def api_error(message: Any, code: str, status: int) -> JsonResponse:
    """The error body of docs/api.md: ``{"error": {"code", "nl", "en", "message"}}``."""
    err = ServiceError.of(message)
    err.code = code
    err.status = status
    return JsonResponse({"error": err.to_json()}, status=status)


def _has_control(pairs: Iterable[tuple[str, list[str]]], *, text: bool) -> bool:
    pattern = CONTROL_IN_TEXT if text else CONTROL
    return any(
        CONTROL.search(name) or any(pattern.search(v) for v in values) for name, values in pairs
    )


def _json_strings(value: Any) -> Iterable[str]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def _json_has_control(raw: bytes) -> bool:
    """Whether a JSON string in ``raw`` holds a control character other than tab, LF, CR
    (JSON has them escaped only: a raw one is invalid JSON, which the API refuses itself)."""
    if not _ESCAPED_CONTROL.search(raw):
        return False
    try:
        body = json.loads(raw)
    except ValueError:
        return False  # not JSON: the API says so itself (400 malformed_request)
    return any(CONTROL_IN_TEXT.search(s) for s in _json_strings(body))


def _content_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def has_control_characters(request: HttpRequest) -> bool:
    """Whether the request's path, query or JSON body holds a control character where the
    module text says none may be (form fields: ``form_has_control_characters``)."""
    if CONTROL.search(request.path) or _has_control(request.GET.lists(), text=False):
        return True
    if request.content_type == "application/json" and (
        0 < _content_length(request) <= MAX_JSON_BYTES
    ):
        return _json_has_control(request.body)
    return False


def form_has_control_characters(request: HttpRequest) -> bool:
    """Whether a form POST outside the API holds a control character in a field's name or
    (other than tab, LF, CR) in its value."""
    if request.path.startswith(API_PATH) or request.method != "POST":
        return False
    if request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        return _has_control(request.POST.lists(), text=True)
    return False


def _refused(request: HttpRequest) -> HttpResponse:
    if request.path.startswith(API_PATH):
        return api_error(
            _("The request holds a control character (such as NUL): leave it out."),
            "malformed_request",
            400,
        )
    return views.bad_request(request, ValueError("control character"))


class ControlCharacterMiddleware:
    """400 for a request with control characters (see the module text)."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_control_characters(request):
            return _refused(request)
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponse],
        args: Any,
        kwargs: Any,
    ) -> HttpResponse | None:
        if view_checks_control_characters(view) or not form_has_control_characters(request):
            return None
        return _refused(request)


def _bearer(request: HttpRequest) -> bool:
    header = str(request.headers.get("Authorization", ""))
    return request.path.startswith(API_PATH) and header[:7].lower() == "bearer "


def _token_usage(request: HttpRequest, *, count: bool) -> dict[str, Any] | None:
    usage: dict[str, Any] | None = get_usage(
        request,
        group="api-token-failed",
        key="ip",
        rate=settings.TOKEN_FAIL_RATE_LIMIT,
        increment=count,
    )
    return usage


class TokenThrottleMiddleware:
    """429 for bearer requests from an address with too many failed tokens (see the
    module text); before ``tournaments.tokens.BearerTokenMiddleware``."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not settings.TOKEN_FAIL_RATE_LIMIT or not _bearer(request):
            return self.get_response(request)
        usage = _token_usage(request, count=False)
        if usage is not None and usage["count"] >= usage["limit"]:
            refused = api_error(
                _("Too many requests with an unknown API token from your address; wait a while."),
                "rate_limited",
                429,
            )
            refused["Retry-After"] = str(max(1, int(usage["time_left"])))
            return refused
        response = self.get_response(request)
        if response.status_code == 401:
            _token_usage(request, count=True)
        return response
