"""Fault test: PostgreSQL backends terminated under the site while players move and read.

The site runs in gunicorn (two workers, a new connection per request, as behind a
pooler) on the test database; its connections carry an ``application_name`` of their
own. Four players move through the API as fast as they can, each reading its game
between moves, while the test ends every backend of the site at once
(``pg_terminate_backend``) every ``KILL_EVERY`` seconds, as a failover or a pooler
restart would. Every terminated backend was serving a request (connections live no
longer than one). Then: no answer was a 5xx (jokeren/resilience.py runs a read or a move
once more on a new connection, from its view or, when the token's or the session's read
failed, from the middleware before them; a move that did commit answers 409 the second
time), and
no move was lost, doubled or half-applied: each game's last ``seq`` is the last one its
player was told, its stored actions replay to the stored scores (the audit), and the
standings row of each entry agrees with its game.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import factories
import psycopg
import pytest
from django.db import connection
from live_site import Site, database_url
from own_redis import OwnRedis

from tournaments import tokens
from tournaments.models import EntryResult, Game
from tournaments.services import audit as audit_services
from tournaments.services import entries as entry_services

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="terminates PostgreSQL backends"),
]

APP = "jokeren-under-test"
#: Seconds between two terminations of all the site's backends, and the run's length.
KILL_EVERY, RUN_SECONDS = 0.7, 12.0
#: Bound on playing a game on to its end after the terminations.
FINISH_SECONDS = 120.0
PLAYERS = 4


@pytest.fixture
def site(own_redis: OwnRedis, tmp_path: Path) -> Iterator[Site]:
    served = Site(
        own_redis.url(0),
        tmp_path / "gunicorn.log",
        workers=2,
        database=f"{database_url()}?application_name={APP}",
        env={"MOVE_RATE_LIMIT": "100000/m"},
    )
    yield served
    served.stop()


class Killer(threading.Thread):
    """Ends every backend of the site every ``KILL_EVERY`` seconds until ``stop``."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.stop = threading.Event()
        self.terminated = 0

    def run(self) -> None:
        with psycopg.connect(database_url(), autocommit=True) as conn:
            while not self.stop.wait(KILL_EVERY):
                rows = conn.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = %s AND pid <> pg_backend_pid()",
                    (APP,),
                ).fetchall()
                self.terminated += sum(1 for (ok,) in rows if ok)


class Player(threading.Thread):
    """Reads its game and plays South's first legal action, again and again."""

    def __init__(self, site: Site, game_id: int, key: str, until: float) -> None:
        super().__init__(daemon=True)
        self.site, self.game_id, self.until = site, game_id, until
        self.headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        self.statuses: list[tuple[str, int, bytes]] = []
        self.moves = 0
        self.last_seq = -1
        self.error: BaseException | None = None

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        raw = json.dumps(body).encode() if body is not None else None
        status, headers, answer = self.site.request(method, path, raw, self.headers)
        self.statuses.append((f"{method} {path}", status, answer[:300]))
        assert headers.get("content-type", "").startswith("application/json"), (
            status,
            headers,
            answer[:300],
        )
        return status, json.loads(answer)

    def run(self) -> None:
        try:
            self.play(until=self.until)
        except BaseException as exc:  # reported by the test
            self.error = exc

    def play(self, *, until: float) -> None:
        """Read and move until ``until`` or the game's end; then read it once more."""
        while time.monotonic() < until:
            status, game = self.call("GET", f"/api/games/{self.game_id}/")
            if status != 200:
                continue
            self.last_seq = game["seq"]
            if game["status"] != "playing":
                return
            legal = game["observation"].get("legal_actions") or []
            if not game["your_turn"] or not legal:
                continue
            move = {"seq": game["seq"], "action": legal[0]}
            status, answer = self.call("POST", f"/api/games/{self.game_id}/moves/", move)
            if status == 200:
                self.moves += 1
                self.last_seq = answer["seq"]
        status, game = self.call("GET", f"/api/games/{self.game_id}/")
        if status == 200:
            self.last_seq = game["seq"]


def test_backends_terminated_while_players_move_lose_nothing_and_answer_no_5xx(
    site: Site, organizer: Any
) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=8, south_plays=(0,))
    players = []
    until = time.monotonic() + RUN_SECONDS
    for i in range(PLAYERS):
        user = factories.make_user(f"speler{i}")
        game = entry_services.entry_join(tournament_id=t.pk, user=user).game
        key = tokens.token_create(user=user, name="bot").key
        players.append(Player(site, game.pk, key, until))
    killer = Killer()
    killer.start()
    for p in players:
        p.start()
    for p in players:
        p.join(timeout=RUN_SECONDS + 120)
        assert not p.is_alive()
    killer.stop.set()
    killer.join(timeout=30)

    for p in players:
        assert p.error is None, p.error
        failed = [s for s in p.statuses if s[1] >= 500]
        assert not failed, failed[:5]
        assert {s[1] for s in p.statuses} <= {200, 409}, p.statuses[-5:]
    assert killer.terminated >= 3  # backends were ended under requests
    assert sum(p.moves for p in players) >= 20

    for p in players:
        game = Game.objects.get(pk=p.game_id)
        assert game.seq == p.last_seq  # what the player was last told
    # Each game goes on to its end, the database left alone: a half-applied move would
    # stop it, or show in the replay audit of the finished game.
    for p in players:
        p.play(until=time.monotonic() + FINISH_SECONDS)
        game = Game.objects.get(pk=p.game_id)
        assert game.status == Game.Status.FINISHED, p.statuses[-3:]
        assert game.seq == p.last_seq
        # the stored actions replay to the stored rounds, the seq and the totals
        assert audit_services.audit_problems(game) == []
        row = EntryResult.objects.filter(entry=game.entry_id).order_by("-upto").first()
        if game.round_scores:
            assert row is not None and row.rounds_played == len(game.round_scores)
