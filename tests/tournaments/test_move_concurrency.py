"""Two POSTs of the same move at the same moment: exactly one wins, the other gets 409.

Real threads and real transactions (``transaction=True``): on PostgreSQL the game row
lock (SELECT ... FOR UPDATE) serializes them; on SQLite the write lock taken at the start
of every transaction (BEGIN IMMEDIATE) does.
"""

from __future__ import annotations

import json
import threading
from typing import Any

import factories
import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from tournaments import services


def _race(workers: list[Any]) -> list[Any]:
    barrier = threading.Barrier(len(workers))
    results: list[Any] = [None] * len(workers)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = workers[i]()
        except Exception as exc:  # the test inspects it
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_posts_of_the_same_move_one_wins() -> None:
    user = factories.make_user("gelijktijdig")
    tournament = factories.make_tournament()
    game = services.entry_join(tournament_id=tournament.pk, user=user).game
    body = json.dumps({"seq": game.seq, "action": factories.south_action(game)})
    url = reverse("api_game_move", args=[game.pk])

    def post() -> int:
        client = Client()
        client.force_login(user)
        return client.post(url, data=body, content_type="application/json").status_code

    statuses = _race([post, post])
    assert sorted(statuses) == [200, 409], statuses
    game.refresh_from_db()
    assert game.moves.count() == game.seq
    assert list(game.moves.values_list("seq", flat=True)) == list(range(game.seq))
    assert game.moves.filter(seat=0).count() == 1


@pytest.mark.django_db(transaction=True)
def test_concurrent_service_calls_store_one_move() -> None:
    user = factories.make_user("dubbel")
    tournament = factories.make_tournament()
    game = services.entry_join(tournament_id=tournament.pk, user=user).game
    seq, action = game.seq, factories.south_action(game)

    def play() -> Any:
        return services.game_play_move(game_id=game.pk, user=user, seq=seq, action=action)

    results = _race([play, play, play])
    wins = [r for r in results if isinstance(r, services.MoveOutcome)]
    stale = [r for r in results if isinstance(r, services.StaleMove)]
    assert len(wins) == 1 and len(stale) == 2, results
    game.refresh_from_db()
    assert game.seq == wins[0].game.seq and all(s.seq == game.seq for s in stale)


@pytest.mark.django_db(transaction=True)
def test_two_joins_for_the_last_place_one_wins() -> None:
    tournament = factories.make_tournament(max_entrants=1)
    users = [factories.make_user(), factories.make_user()]
    results = _race(
        [lambda u=u: services.entry_join(tournament_id=tournament.pk, user=u) for u in users]
    )
    full = [r for r in results if isinstance(r, services.TournamentFull)]
    assert len(full) == 1, results
    assert tournament.entries.count() == 1
