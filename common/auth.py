"""The site's authentication backend: Django's ``ModelBackend``, with the session's user
read by a query written once (``SELECT <columns> FROM auth_user WHERE id = %s``) instead
of a queryset built and compiled on every request. Every logged-in request reads that row
(Django checks the session's hash against it); on the move POST the ORM's building of the
query cost about three times its round trip (profiled with ``benchmarks/move_cpu.py``).
What it returns is what ``ModelBackend.get_user`` returns: the user, or ``None`` when
there is no such user or it may not log in (``user_can_authenticate``).

A session names the backend that logged it in, and Django serves it only while that
backend is listed: ``settings.AUTHENTICATION_BACKENDS`` lists this one first (log-ins
store it) and Django's after it, for the sessions made before. Django's is never asked
to check a password: this backend's refusal is final (``PermissionDenied``, which ends
``authenticate``), so a wrong password is hashed once, not twice.

A move POST does not read the user on its own: ``session_claim`` takes the session's
log-in unchecked (no query), the move's one locked read brings the user's row with the
game's, and ``claim_holds`` checks it there as ``django.contrib.auth.get_user`` would (the
session's hash, ``is_active``; no row for a deleted account). Whatever does not hold is
answered by reading ``request.user`` as every other request does, so Django decides it
(and flushes a session that no longer holds)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import HttpRequest
from django.utils.crypto import constant_time_compare
from django.utils.functional import SimpleLazyObject, empty
from django.utils.module_loading import import_string

from common.rows import columns_of, instance_from_row


@functools.cache
def _user_sql() -> str:
    model = get_user_model()
    qn = connection.ops.quote_name
    pk = qn(str(model._meta.pk.column))
    return f"SELECT {columns_of(model)} FROM {qn(model._meta.db_table)} WHERE {pk} = %s"


class ModelBackend(DjangoModelBackend):
    """Django's model backend (log-in, permissions); the session's user read as above."""

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kw: Any
    ) -> Any:
        user = super().authenticate(request, username=username, password=password, **kw)
        if user is None and password is not None and "email" not in kw:
            # final: the backends after this one only serve sessions, and allauth's a
            # log-in by mail address (``email`` given, beside the same text as ``username``)
            raise PermissionDenied
        return user

    def get_user(self, user_id: Any) -> Any:
        with connection.cursor() as cursor:
            cursor.execute(_user_sql(), [user_id])
            row = cursor.fetchone()
        if row is None:
            return None
        user = instance_from_row(get_user_model(), row)
        return user if self.user_can_authenticate(user) else None


@functools.cache
def names_this_backend(path: str) -> bool:
    """Whether a backend path (as a session names it, as settings list it) is this
    backend: the project lists it under its own name (``jokeren.auth.ModelBackend``)."""
    try:
        return import_string(path) is ModelBackend
    except ImportError:
        return False


@dataclass(frozen=True)
class SessionClaim:
    """A session's log-in, not checked yet: the user's id and the session's hash of the
    account (``django.contrib.auth.get_user`` checks the hash against the user's row)."""

    user_id: Any
    session_hash: str


def session_claim(request: HttpRequest) -> SessionClaim | None:
    """The request's session log-in, read without a query, when nothing has read the
    request's user yet (``AuthenticationMiddleware``'s lazy user, not a token's) and the
    session was made by this backend with a hash; otherwise ``None`` (use ``request.user``).
    It says nothing on its own: only ``claim_holds`` with the user's row does."""
    user = getattr(request, "user", None)
    if not isinstance(user, SimpleLazyObject) or user._wrapped is not empty:
        return None
    session = request.session
    try:
        user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        backend_path = session[BACKEND_SESSION_KEY]
    except KeyError:
        return None
    session_hash = session.get(HASH_SESSION_KEY)
    if (
        backend_path not in settings.AUTHENTICATION_BACKENDS
        or not names_this_backend(backend_path)
        or not session_hash
    ):
        return None
    return SessionClaim(user_id=user_id, session_hash=session_hash)


def claim_holds(claim: SessionClaim, user: Any) -> bool:
    """Whether ``django.contrib.auth.get_user`` would log the claim's session in as
    ``user`` (the claimed id's row) unchanged: it may log in (``is_active``) and the
    session's hash is the account's. When it does not hold, Django may still log the
    session in (a hash of an older ``SECRET_KEY``, the session's key then cycled) or log it
    out (the session flushed): ``request.user`` decides those."""
    return (
        user is not None
        and user.pk == claim.user_id
        and ModelBackend().user_can_authenticate(user)
        and constant_time_compare(claim.session_hash, user.get_session_auth_hash())
    )
