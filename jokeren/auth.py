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
``authenticate``), so a wrong password is hashed once, not twice."""

from __future__ import annotations

import functools
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.core.exceptions import PermissionDenied
from django.db import connection

from jokeren.rows import columns_of, instance_from_row


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
        if user is None and password is not None:
            raise PermissionDenied  # final: the backends after this one only serve sessions
        return user

    def get_user(self, user_id: Any) -> Any:
        with connection.cursor() as cursor:
            cursor.execute(_user_sql(), [user_id])
            row = cursor.fetchone()
        if row is None:
            return None
        user = instance_from_row(get_user_model(), row)
        return user if self.user_can_authenticate(user) else None
