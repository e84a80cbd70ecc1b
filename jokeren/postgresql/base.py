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

It also gives the statements a move runs on every POST (the game's locked read and its
``UPDATE``) a cursor that binds their parameters on the server and prepares them on a
connection's first use (``prepared_cursor``): the server then neither parses nor plans
them again. Under load (benchmarks/README.md at 566f5bf, "Prepared statements alone") a move cost
PostgreSQL 0.86-0.90 ms of CPU with them unprepared and 0.48-0.54 ms prepared. Every
other query keeps Django's client-side binding, which never prepares.
Behind a connection pooler that cannot keep prepared statements (PgBouncer in
transaction mode before 1.21), set ``DATABASE_PREPARED_STATEMENTS=false``.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base, operations
from django.db.backends.postgresql.psycopg_any import register_tzloader
from django.utils.asyncio import async_unsafe
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


class DatabaseOperations(operations.DatabaseOperations):
    def last_executed_query(self, cursor: Any, sql: str, params: Any) -> str:
        """The query as logged (``DEBUG``, ``CaptureQueriesContext``): Django's reads the
        client-bound query's text, which a cursor of ``prepared_cursor`` does not have; its
        statement is logged with its parameters filled in, as Django does for server-side
        binding."""
        if not isinstance(cursor, psycopg.ClientCursor):
            try:
                return str(self.compose_sql(sql, params))
            except psycopg.errors.DataError:
                return sql
        return super().last_executed_query(cursor, sql, params)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

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

    @async_unsafe
    def prepared_cursor(self) -> Any:
        """A cursor (Django's wrapper, so queries are logged and errors wrapped as usual)
        whose statements are bound on the server and prepared at their first use on this
        connection when ``OPTIONS["prepare_threshold"]`` is 0 (settings.py sets it
        unless ``DATABASE_PREPARED_STATEMENTS`` is off; with ``None`` nothing is
        prepared). For the few statements of the hot path written once as SQL; the
        parameters' placeholders are ``%s`` as in any Django query."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            cursor = base.ServerBindingCursor(self.connection)  # type: ignore[call-arg]
            # As Django's create_cursor: the cursor's time zone where the connection's
            # differs.
            tzloader = self.connection.adapters.get_loader(base.TIMESTAMPTZ_OID, pq.Format.TEXT)
            if self.timezone != tzloader.timezone:
                register_tzloader(self.timezone, cursor)
            return self._prepare_cursor(cursor)  # type: ignore[attr-defined]
