"""Personal API tokens: create, revoke, and the ``Authorization: Bearer`` middleware.

A token is ``jk_`` and 43 random URL-safe characters, shown once when it is made; the
database keeps only its SHA-256 (``ApiToken.key_hash``). A request under ``/api/`` with
``Authorization: Bearer <token>`` is that token's user's request: the session cookie is
not used, and CSRF is not checked (a token is not sent by a browser on its own, so a
forged cross-site request cannot carry it). Every other request is unchanged. A header
with an unknown or revoked token gets ``401 invalid_token``. Rate limits key on the user
(``MOVE_RATE_LIMIT``), so token requests count like session requests.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.errors import InvalidSettings, ServiceError
from tournaments.models import ApiToken

TOKEN_PREFIX = "jk_"
API_PATH = "/api/"


class TokenNotFound(ServiceError):
    code = "token_not_found"
    status = 404


@dataclass(frozen=True)
class NewToken:
    token: ApiToken
    #: The token itself: shown once, never stored.
    key: str


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def token_create(*, user: User, name: str) -> NewToken:
    """A new token for ``user``; the key is in the result only (its hash is stored)."""
    name = name.strip()[:60]
    if not name:
        raise InvalidSettings.of(_("Give the token a name."))
    key = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, prefix=key[: len(TOKEN_PREFIX) + 6], key_hash=key_hash(key)
    )
    return NewToken(token=token, key=key)


def token_revoke(*, user: User, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens (for good); revoking it again changes nothing."""
    with transaction.atomic():
        token = ApiToken.objects.select_for_update().filter(pk=token_id, user=user).first()
        if token is None:
            raise TokenNotFound.of(_("No such token."))
        if token.revoked_at is None:
            token.revoked_at = timezone.now()
            token.save(update_fields=["revoked_at"])
    return token


def token_user(key: str) -> User | None:
    """The active user of a live token, or ``None``; notes when it was last used (at most
    once a minute)."""
    token = (
        ApiToken.objects.select_related("user")
        .filter(key_hash=key_hash(key), revoked_at__isnull=True)
        .first()
    )
    if token is None or not token.user.is_active:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > timedelta(minutes=1):
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
    return token.user


def _invalid() -> JsonResponse:
    err = ServiceError.of(_("The API token is unknown or revoked."))
    err.code = "invalid_token"
    response = JsonResponse({"error": err.to_json()}, status=401)
    response["WWW-Authenticate"] = 'Bearer realm="api", error="invalid_token"'
    return response


class BearerTokenMiddleware:
    """After Django's authentication: an ``/api/`` request with a Bearer token is the
    token's user's (see the module text)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        header = request.headers.get("Authorization", "")
        if request.path.startswith(API_PATH) and header[:7].lower() == "bearer ":
            user = token_user(header[7:].strip())
            if user is None:
                return _invalid()
            request.user = user
            # Checked by CsrfViewMiddleware.process_view, which runs after this.
            request._dont_enforce_csrf_checks = True  # type: ignore[attr-defined]
        return self.get_response(request)
