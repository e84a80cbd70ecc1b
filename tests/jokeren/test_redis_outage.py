"""Fault test: the site in gunicorn on a Redis of the test's own (cache, sessions, rate
limits, Celery broker), Redis killed while players read and move, then started again.

With Redis down: every page and API read that does not need Redis answers 200 (0 × 5xx),
logged-in players are still logged in (sessions from the database), token players' moves
are applied (the move rate limit fails open), each exactly once (the game's ``seq`` is the
last answer's), the organizer's "close now" ends the window and answers its redirect (the
close task is not queued: logged and counted, beat closes it later), and ``/health/`` says
which parts failed with a 200. Once Redis is back everything is as before."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import factories
import pytest
from django.test import Client
from django.utils import timezone
from live_site import Site
from own_redis import OwnRedis

from tournaments import games, tokens
from tournaments.models import Game, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def site(own_redis: OwnRedis, tmp_path: Path) -> Iterator[Site]:
    served = Site(own_redis.url(0), tmp_path / "gunicorn.log")
    yield served
    served.stop()


def _session(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def _south_to_play(game: Game) -> bool:
    game.refresh_from_db()
    module = games.module_of(game.game)
    return bool(
        game.status == "playing"
        and module.state_from_json(game.state).current_player == games.PLAYER_SEAT
    )


def test_redis_killed_and_started_again(site: Site, own_redis: OwnRedis, organizer: Any) -> None:
    t = factories.make_tournament(created_by=organizer, rounds=3, south_plays=(0, 1, 2))
    player, reader = factories.make_user("speler"), factories.make_user("lezer")
    game = entry_services.entry_join(tournament_id=t.pk, user=player).game
    entry_services.entry_join(tournament_id=t.pk, user=reader)
    key = tokens.token_create(user=player, name="bot").key
    bearer = {"Authorization": f"Bearer {key}"}
    reader_cookie = {"Cookie": _session(reader)}
    player_cookie = {"Cookie": _session(player)}
    reads: list[tuple[str, dict[str, str]]] = [
        ("/", {}),
        (f"/tournaments/{t.pk}/", {}),
        (f"/tournaments/{t.pk}/leaderboard/", {}),
        (f"/api/tournaments/{t.pk}/standings/", {}),
        (f"/api/tournaments/{t.pk}/", {}),
        (f"/tournaments/{t.pk}/", reader_cookie),
        (f"/games/{game.pk}/", player_cookie),
        (f"/api/games/{game.pk}/", player_cookie),
        (f"/api/games/{game.pk}/", bearer),
    ]
    statuses: list[tuple[str, int]] = []

    def read_all() -> None:
        for path, headers in reads:
            status, _headers, body = site.request("GET", path, headers=headers)
            statuses.append((path, status))
            assert status == 200, (path, headers, status, body[:300])

    read_all()
    own_redis.stop()
    last_seq = None
    moves = 0
    for _round in range(3):
        read_all()
        if _south_to_play(game):
            body = json.dumps({"seq": game.seq, "action": factories.south_action(game)})
            status, _h, answer = site.request(
                "POST",
                f"/api/games/{game.pk}/moves/",
                body.encode(),
                {**bearer, "Content-Type": "application/json"},
            )
            assert status == 200, answer[:300]
            last_seq = json.loads(answer)["seq"]
            moves += 1
    assert moves >= 1
    game.refresh_from_db()
    assert game.seq == last_seq  # every move applied once: none lost, none doubled

    status, _h, body = site.request("GET", "/health/")
    health = json.loads(body)
    assert status == 200
    assert health["database"]["status"] == "ok"
    assert health["cache"]["status"] == "failed" and health["cache"]["errors"] > 0
    assert health["broker"]["status"] == "failed"

    # "close now" with the broker down: the window ends, the answer is its redirect
    organizer_cookie = _session(organizer)
    status, headers, body = site.request(
        "GET", f"/tournaments/{t.pk}/", headers={"Cookie": organizer_cookie}
    )
    assert status == 200
    csrf = re.search(r"csrftoken=([^;]+)", headers.get("set-cookie", ""))
    assert csrf, headers
    status, headers, body = site.request(
        "POST",
        f"/tournaments/{t.pk}/close/",
        urlencode({"csrfmiddlewaretoken": csrf.group(1)}).encode(),
        {
            "Cookie": f"{organizer_cookie}; csrftoken={csrf.group(1)}",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )
    assert status == 302, body[:500]
    t.refresh_from_db()
    assert t.closes_at <= timezone.now() and t.closed_at is None
    assert t.pk in closing_services.tournaments_due()  # beat's next run closes it
    status, _h, body = site.request("GET", "/health/")
    assert json.loads(body)["broker"]["not_queued"] >= 1

    assert not [s for s in statuses if s[1] >= 500]
    own_redis.start()
    time.sleep(1.5)  # CACHE_RETRY_SECONDS: the cache tries Redis again
    read_all()
    status, _h, body = site.request("GET", "/health/")
    health = json.loads(body)
    assert health["cache"]["status"] == "ok" and health["broker"]["status"] == "ok"
    assert Tournament.objects.get(pk=t.pk).closed_at is None
