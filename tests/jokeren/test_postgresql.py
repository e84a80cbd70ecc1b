"""The site's PostgreSQL backend (jokeren/postgresql): Django's health check of a
persistent connection without a round trip, and a connection the server ended still
replaced before the request's first query."""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest
from django.db import connections

connection = connections["default"]  # the wrapper itself (its class is patched below)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL only"),
]


def _fresh_connection(db: Any = connection) -> None:
    """A new connection of ``db`` (an earlier test may have left its own in any state)."""
    db.close()
    db.ensure_connection()
    db.health_check_enabled = True


def _new_request() -> None:
    """What Django does between two requests on a persistent connection."""
    connection.close_if_unusable_or_obsolete()


def _counting_is_usable(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = type(connection).is_usable

    def counted(self: Any) -> bool:
        calls.append(1)
        return bool(real(self))

    monkeypatch.setattr(type(connection), "is_usable", counted)
    return calls


def _terminate(pid: int) -> None:
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])
        for _ in range(100):
            row = other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone()
            if row is None:
                break
            time.sleep(0.05)


def test_the_site_uses_its_own_backend() -> None:
    assert type(connection).__module__ == "jokeren.postgresql.base"
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True


def test_a_live_connection_is_checked_without_a_query(monkeypatch: pytest.MonkeyPatch) -> None:
    _fresh_connection()
    calls = _counting_is_usable(monkeypatch)
    raw = connection.connection
    for _ in range(3):
        _new_request()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 2")
            assert cursor.fetchone() == (2,)
    assert calls == []  # no SELECT 1
    assert connection.connection is raw  # the same connection, kept


def test_a_connection_the_server_ended_is_replaced_before_the_first_query(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _fresh_connection()
    old_pid = connection.connection.info.backend_pid
    _terminate(old_pid)
    calls = _counting_is_usable(monkeypatch)
    _new_request()
    with connection.cursor() as cursor:  # no OperationalError: a new connection
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    assert pid != old_pid
    assert calls == [1]  # the socket had the server's goodbye: Django's check decided


def test_a_connection_in_a_transaction_gets_djangos_check(monkeypatch: pytest.MonkeyPatch) -> None:
    from jokeren.postgresql.base import quietly_idle

    _fresh_connection()
    raw = connection.connection
    assert quietly_idle(raw)
    raw.autocommit = False
    raw.execute("SELECT 1")
    assert not quietly_idle(raw)  # in a transaction
    raw.rollback()
    raw.autocommit = True
    assert quietly_idle(raw)


def _prepared() -> list[str]:
    """The statements prepared in the server session of the connection the services use
    (``connections["default"]`` now: an earlier test, the browser tests' live server, may
    have put a new wrapper there since this module took ``connection``)."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_a_move_prepares_its_read_and_update_once_per_connection(user: Any) -> None:
    """The statements every move runs (the game's locked read, its update) are prepared on
    the server at their first use on a connection and reused by the next moves; only those
    are prepared. The moves' results are those of the plain path: the
    game goes on from the stored seq."""
    import factories

    from tournaments.models import Game
    from tournaments.services import entries as entry_services
    from tournaments.services import play as play_services

    _fresh_connection(connections["default"])
    assert _prepared() == []
    # A fixed deal on which none of the three moves ends a round (a round's end prepares
    # the round's-end statements too; a random deal did that now and then).
    t = factories.make_tournament(preset="jokeren7", rounds=2, secret=bytes(range(32)))
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    # joining deals and plays the bots' first turns: the game's update, not the move's read
    assert not [s for s in _prepared() if "FOR UPDATE OF g" in s]
    seqs, reads = [], []
    for _ in range(3):
        game.refresh_from_db()
        outcome = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        )
        seqs.append(outcome.game.seq)
        prepared = _prepared()
        assert any(s.startswith('UPDATE "tournaments_game" SET') for s in prepared), prepared
        assert all("$1" in s for s in prepared), prepared  # bound on the server
        reads.append([s for s in prepared if "FOR UPDATE OF g FOR SHARE OF t" in s])
        assert len(prepared) == 2, prepared  # Django's other queries are not prepared
    # one prepared read, made by the first move and reused by the next ones
    assert reads[0] == reads[1] == reads[2] and len(reads[0]) == 1, reads
    game.refresh_from_db()
    assert not game.round_scores  # the premise: no round ended
    assert game.seq == seqs[-1] and seqs == sorted(set(seqs))
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING
