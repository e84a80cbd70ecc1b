"""Two POSTs of the same move at the same moment: exactly one wins, the other gets 409.
A move and the close at the same moment: the move lands before the closing time, or is
refused.

Real threads and real transactions (``transaction=True``): on PostgreSQL the game row
lock (SELECT ... FOR UPDATE) serializes two moves, and the tournament row (FOR SHARE by a
move, FOR UPDATE by the close) a move and the close; on SQLite the write lock taken at
the start of every transaction (BEGIN IMMEDIATE) does both.
"""

from __future__ import annotations

import json
import threading
import time
from datetime import timedelta
from typing import Any

import factories
import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import tasks
from tournaments.errors import StaleMove, TournamentClosed, TournamentFull
from tournaments.models import Game
from tournaments.selectors import replay as replay_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import tournaments as tournament_services


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
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    body = json.dumps({"seq": game.seq, "action": factories.south_action(game)})
    url = reverse("api_game_move", args=[game.pk])

    def post() -> int:
        client = Client()
        client.force_login(user)
        return client.post(url, data=body, content_type="application/json").status_code

    statuses = _race([post, post])
    assert sorted(statuses) == [200, 409], statuses
    game.refresh_from_db()
    moves = replay_selectors.game_moves(game=game)
    assert [m.seq for m in moves] == list(range(game.seq))
    assert [m.seat for m in moves].count(0) == 1
    assert json.loads(game.round_actions) == [m.action for m in moves]


@pytest.mark.django_db(transaction=True)
def test_concurrent_service_calls_store_one_move() -> None:
    user = factories.make_user("dubbel")
    tournament = factories.make_tournament()
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    seq, action = game.seq, factories.south_action(game)

    def play() -> Any:
        return play_services.game_play_move(game_id=game.pk, user=user, seq=seq, action=action)

    results = _race([play, play, play])
    wins = [r for r in results if isinstance(r, play_services.MoveOutcome)]
    stale = [r for r in results if isinstance(r, StaleMove)]
    assert len(wins) == 1 and len(stale) == 2, results
    game.refresh_from_db()
    assert game.seq == wins[0].game.seq and all(s.seq == game.seq for s in stale)


@pytest.mark.django_db(transaction=True)
def test_two_joins_for_the_last_place_one_wins() -> None:
    tournament = factories.make_tournament(max_entrants=1)
    users = [factories.make_user(), factories.make_user()]
    results = _race(
        [lambda u=u: entry_services.entry_join(tournament_id=tournament.pk, user=u) for u in users]
    )
    full = [r for r in results if isinstance(r, TournamentFull)]
    assert len(full) == 1, results
    assert tournament.entries.count() == 1


#: How long a transaction holds its locks in the tests below, while the other one asks.
HOLD_SECONDS = 0.5


def _stored_at(monkeypatch: pytest.MonkeyPatch) -> dict[int, list[Any]]:
    """When each game's moves were written (``runner.run_store``, as the move calls it:
    inside the move's transaction), per game id."""
    times: dict[int, list[Any]] = {}
    store = play_services.run_store

    def timed(run: Any) -> None:
        store(run)
        times.setdefault(run.game.pk, []).append(timezone.now())

    monkeypatch.setattr(play_services, "run_store", timed)
    return times


def _own_actions(game: Game) -> list[Any]:
    return [
        m.action for m in replay_selectors.game_moves(game=game) if m.seat == 0 and not m.by_bot
    ]


def _once(hook: Any, signal: threading.Event, hold: float = HOLD_SECONDS) -> Any:
    """``hook`` that, the first time only, runs and then signals ``signal`` and holds the
    transaction it runs in (and its locks) for ``hold`` seconds."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        result = hook(*args, **kwargs)
        if not signal.is_set():
            signal.set()
            time.sleep(hold)
        return result

    return wrapped


@pytest.mark.django_db(transaction=True)
def test_a_move_in_progress_is_stored_before_close_now_ends_the_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The close waits for a move that holds the tournament: the move lands, and the new
    closing time (read once the close has the tournament) comes after it."""
    user = factories.make_user("laatste-zet")
    tournament = factories.make_tournament()
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    seq, action = game.seq, factories.south_action(game)
    moving = threading.Event()
    # The bots' turns of the move: the move holds its locks here, before storing anything.
    monkeypatch.setattr(play_services, "run_advance", _once(play_services.run_advance, moving))
    stored_at = _stored_at(monkeypatch)

    def play() -> Any:
        return play_services.game_play_move(game_id=game.pk, user=user, seq=seq, action=action)

    def close() -> Any:
        assert moving.wait(timeout=10)
        return closing_services.tournament_close_early(tournament=tournament)

    move, closed = _race([play, close])
    assert isinstance(move, play_services.MoveOutcome), move
    assert not isinstance(closed, Exception), closed
    tournament.refresh_from_db()
    assert tournament.closed_at is not None
    game.refresh_from_db()
    played = replay_selectors.game_moves(game=game)[seq]
    assert (played.seat, played.by_bot, played.action) == (0, False, action)
    last = stored_at[game.pk][0]
    assert last < tournament.closes_at <= tournament.closed_at, (last, tournament.closes_at)


@pytest.mark.django_db(transaction=True)
def test_a_move_while_close_now_holds_the_tournament_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A move that asks while the close is ending the window waits for it, then sees the
    new closing time: refused, nothing of the player's stored."""
    user = factories.make_user("te-laat")
    tournament = factories.make_tournament()
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    seq, action = game.seq, factories.south_action(game)
    before = _own_actions(game)
    closing = threading.Event()
    # close now: the window is ended (not committed yet) and the tournament held. The close
    # it queues is kept back: this test is about the window, not the bot finishing games.
    monkeypatch.setattr(closing_services, "end_window", _once(closing_services.end_window, closing))
    queued: list[int] = []
    monkeypatch.setattr(tasks.tournament_close, "delay_on_commit", queued.append)

    def close() -> Any:
        return closing_services.tournament_close_early(tournament=tournament)

    def play() -> Any:
        assert closing.wait(timeout=10)
        asked = timezone.now()
        try:
            return play_services.game_play_move(game_id=game.pk, user=user, seq=seq, action=action)
        finally:
            assert timezone.now() - asked >= timedelta(seconds=HOLD_SECONDS / 2)

    closed, move = _race([close, play])
    assert not isinstance(closed, Exception), closed
    assert isinstance(move, TournamentClosed), move
    game.refresh_from_db()
    assert _own_actions(game) == before
    game.refresh_from_db()
    assert game.seq == seq
    tournament.refresh_from_db()
    assert tournament.closes_at <= timezone.now() and queued == [tournament.pk]


@pytest.mark.django_db(transaction=True)
def test_a_move_asked_before_the_closing_time_lands_and_the_close_waits_for_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """docs/rules.md §7 (tournaments 5): a move counts from the moment it holds the
    tournament. One that got it before the closing time is played even though it commits
    after; the close that starts at the closing time waits for it."""
    user = factories.make_user("op-de-bel")
    tournament = factories.make_tournament()
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    seq, action = game.seq, factories.south_action(game)
    tournament_services.tournament_update(
        tournament=tournament, closes_at=timezone.now() + timedelta(seconds=0.5)
    )
    moving = threading.Event()
    monkeypatch.setattr(
        play_services, "run_advance", _once(play_services.run_advance, moving, hold=1.0)
    )
    stored_at = _stored_at(monkeypatch)

    def play() -> Any:
        return play_services.game_play_move(game_id=game.pk, user=user, seq=seq, action=action)

    def close_when_due() -> Any:
        assert moving.wait(timeout=10)
        time.sleep(max(0.0, (tournament.closes_at - timezone.now()).total_seconds()))
        assert closing_services.tournaments_due() == [tournament.pk]
        return closing_services.tournament_close(tournament_id=tournament.pk)

    move, closed = _race([play, close_when_due])
    assert isinstance(move, play_services.MoveOutcome), move
    assert not isinstance(closed, Exception), closed
    game.refresh_from_db()
    stored = replay_selectors.game_moves(game=game)[seq]
    assert not stored.by_bot and stored.action == action
    tournament.refresh_from_db()
    assert tournament.closes_at < stored_at[game.pk][0] < tournament.closed_at
