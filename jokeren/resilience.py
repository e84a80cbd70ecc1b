"""A dropped database connection, and every other failure, answered cleanly.

``DatabaseRetryMiddleware``: a view that failed because the database connection broke
(``OperationalError`` or ``InterfaceError``: a failover, a pooler restart, a terminated
backend) is run once more on a new connection when the request is safe to repeat: a
``GET``/``HEAD``, or the move POST (``api_game_move``: its ``seq`` makes it idempotent, a
move that did commit answers 409 ``stale_move`` the second time). The view's transaction
was rolled back with the error, so nothing of the first run remains; the connection is
closed and the next query opens a new one (the move's statements are prepared again on
it: ``jokeren/postgresql``). Any other request, or a second failure, is answered 503
with ``Retry-After``.

``RequestRetryMiddleware`` (outside the session, the log-in and the bearer token's
middleware): a request that failed the same way before its view ran, or after it (the
session's read, the user's, the token's, the session's save), is run once more from that
middleware on, on a new connection, when it is safe to repeat (as above). Django turns
such a failure into a response inside the chain; ``got_request_exception`` tells this
middleware that it was the database's. A request whose view was already run again is
not run a third time.

``server_error`` (``handler500``): a failure nothing caught. A broken database is 503 with
``Retry-After`` here too (it may fail outside a view: the session's or the user's read);
anything else is Django's 500 page, and under ``/api/`` the error body of docs/api.md
(``server_error``), the 503 there ``unavailable``.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext_lazy as _
from django.views.defaults import server_error as django_server_error

from jokeren.guards import API_PATH, api_error

logger = logging.getLogger(__name__)

#: What a broken database connection raises.
CONNECTION_ERRORS = (OperationalError, InterfaceError)
#: URL names of the POSTs that are safe to repeat (besides every GET and HEAD).
REPEATABLE_POSTS = frozenset({"api_game_move"})
#: Seconds a client is asked to wait after a 503.
RETRY_AFTER = 5


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 with ``Retry-After``: the error body under ``/api/``, a short page elsewhere
    (no template: it would read the database for the page's user)."""
    if request.path.startswith(API_PATH):
        response: HttpResponse = api_error(
            _("The site cannot reach its database for a moment; try again in a few seconds."),
            "unavailable",
            503,
        )
    else:
        response = HttpResponse(
            "<!doctype html><title>503</title><p lang=nl>De site kan haar database even niet "
            "bereiken; probeer het over een paar seconden opnieuw.</p><p lang=en>The site "
            "cannot reach its database for a moment; try again in a few seconds.</p>",
            status=503,
        )
    response["Retry-After"] = str(RETRY_AFTER)
    return response


#: Attributes set on a request: its database connection broke (``got_request_exception``),
#: it was run again.
FAILED, RETRIED = "database_failed", "database_retried"


def repeatable(request: HttpRequest) -> bool:
    """Whether running the request's view twice does what running it once does."""
    if request.method in ("GET", "HEAD"):
        return True
    if request.method != "POST":
        return False
    match = request.resolver_match
    if match is None:
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return False
    return match.url_name in REPEATABLE_POSTS


def _mark_failed(sender: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
    """``got_request_exception``: note on the request that its database connection broke."""
    if request is not None and isinstance(sys.exc_info()[1], CONNECTION_ERRORS):
        setattr(request, FAILED, True)


got_request_exception.connect(_mark_failed, dispatch_uid="jokeren.resilience.mark_failed")


def _close_connections() -> bool:
    """Close every open database connection; False when one is still inside a
    transaction (then nothing may be run again)."""
    for conn in connections.all(initialized_only=True):
        if conn.in_atomic_block:
            return False
        conn.close()
    return True


class DatabaseRetryMiddleware:
    """See the module text."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> Any:
        if not isinstance(exception, CONNECTION_ERRORS):
            return None
        match = request.resolver_match
        if not _close_connections() or match is None or not repeatable(request):
            logger.warning("database error on %s %s: 503", request.method, request.path)
            return unavailable(request)
        logger.warning(
            "database error on %s %s (%s): running it again on a new connection",
            request.method,
            request.path,
            type(exception).__name__,
        )
        time.sleep(settings.DATABASE_RETRY_PAUSE)
        setattr(request, RETRIED, True)
        try:
            return match.func(request, *match.args, **match.kwargs)
        except CONNECTION_ERRORS:
            _close_connections()
            logger.warning("database error again on %s %s: 503", request.method, request.path)
            return unavailable(request)


class RequestRetryMiddleware:
    """See the module text."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not getattr(request, FAILED, False) or getattr(request, RETRIED, False):
            return response
        if not repeatable(request) or not _close_connections():
            return response
        logger.warning(
            "database error on %s %s outside its view: running it again on a new connection",
            request.method,
            request.path,
        )
        time.sleep(settings.DATABASE_RETRY_PAUSE)
        setattr(request, FAILED, False)
        setattr(request, RETRIED, True)
        return self.get_response(request)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500`` (see the module text)."""
    exception = sys.exc_info()[1]
    if isinstance(exception, CONNECTION_ERRORS):
        _close_connections()
        return unavailable(request)
    if request.path.startswith(API_PATH):
        return api_error(
            _("Something went wrong on the server; it has been logged. Try again later."),
            "server_error",
            500,
        )
    return django_server_error(request)
