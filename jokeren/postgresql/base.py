"""Django's PostgreSQL backend with ``CONN_HEALTH_CHECKS`` that cost no round trip.

Django's health check (``CONN_HEALTH_CHECKS``) sends ``SELECT 1`` before the first query
of every request on a persistent connection (``CONN_MAX_AGE``), so that a connection the
server has ended (a restart, ``pg_terminate_backend``, an idle timeout) is replaced
instead of failing the request. On a move POST that round trip was one of six, about
0.2 ms of client CPU each.

A server that ends a session sends its last message (the ``FATAL`` error) and closes the
socket; between two requests an idle connection receives nothing else (the site does not
``LISTEN``). So the check here asks the socket without waiting (``poll`` with a zero
timeout): nothing to read and libpq's status good and idle is a live connection, as far
as ``SELECT 1`` could tell (a server that vanished without closing would let both wait
for TCP's timeout). Anything to read, an end of file, or a status that is not idle falls
back to Django's own check (``SELECT 1``), which closes the connection when it fails;
Django then opens a new one for the request, as before. A connection that fails during
a request is closed at its end as before (``close_if_unusable_or_obsolete`` keeps the
real ``SELECT 1``).
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq


def quietly_idle(raw: Any) -> bool:
    """Whether the psycopg connection ``raw`` is open, idle (no transaction, no query under
    way) and has had nothing from the server since its last answer."""
    pgconn = raw.pgconn
    if pgconn.status != pq.ConnStatus.OK:
        return False
    if pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return False
    try:
        poller = select.poll()
        poller.register(pgconn.socket, select.POLLIN | select.POLLPRI)
        return not poller.poll(0)
    except (OSError, ValueError, psycopg.OperationalError):  # no socket any more
        return False


class DatabaseWrapper(base.DatabaseWrapper):
    def close_if_health_check_failed(self) -> None:
        if (
            self.connection is not None
            and self.health_check_enabled  # type: ignore[attr-defined]
            and not self.health_check_done  # type: ignore[has-type]
            and not self.pool
            and quietly_idle(self.connection)
        ):
            self.health_check_done = True
            return
        super().close_if_health_check_failed()
