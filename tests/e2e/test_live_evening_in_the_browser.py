"""A live club evening end to end (issue 36 item 2), on the real stack: PostgreSQL, a REAL
Celery worker over Redis and Celery beat in a process of its own with the site's
schedule, the site served by the live test server. Twenty players play three rounds through the API
with their tokens, one more in the browser on a phone; one of the API players drops out
in the middle of round 2 (a draw, and gone). Nobody sees a round before it opens, a
player who finished waits, each slot's close has the bot finish what is left (the
dropout's rounds do not count for them), every round's board comes to everyone within
2 s of its slot's end, the last one's too, and then the evening closes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import factories
import pytest
from celery.contrib.testing.worker import start_worker
from playwright.sync_api import Browser, expect

from jokeren.celery import app
from tests.e2e.helpers import ARTIFACTS, log_in, settle, table
from tests.e2e.test_phone import _dialog_fits, _phone_page, _play_to_the_round_end
from tournaments import tokens
from tournaments.models import EntryResult, Game, GameRound, Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.celery_worker, pytest.mark.django_db(transaction=True)]

PLAYERS = 20
ROUNDS = 3
#: How often the lobby polls its status during the test (the page's: 2 s).
LIVE_MS = 250


class Api:
    """One simulated player: the play API over HTTP with the player's token."""

    def __init__(self, base: str, token: str) -> None:
        self.base, self.token = base, token

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())


def _candidates(game: dict[str, Any]) -> list[dict[str, Any]]:
    obs = game["observation"]
    if obs.get("phase") == "draw":
        return [{"type": "draw", "source": "stock"}, {"type": "draw", "source": "open"}]
    return [{"type": "discard", "card": card} for card in sorted(obs["hand"], reverse=True)]


def _play_round(api: Api, game_id: int, round_index: int, *, moves: int | None = None) -> int:
    """Play round ``round_index`` through the API until it ends (or ``moves`` moves were
    made: a player who leaves). The moves made."""
    status, game = api.call("GET", f"/api/games/{game_id}/")
    assert status == 200, game
    assert game["round"] == round_index and game["observation"] is not None, game
    made = 0
    while game["status"] == "playing" and game["round"] == round_index:
        if moves is not None and made >= moves:
            return made
        if "live_wait" in game:
            break
        assert game["your_turn"], game
        for action in _candidates(game):
            status, answer = api.call(
                "POST", f"/api/games/{game_id}/moves/", {"seq": game["seq"], "action": action}
            )
            if status == 200:
                made += 1
                game = answer
                break
        else:
            raise AssertionError(f"no move accepted in game {game_id}")
    # the round is over: its answer stops at the round's end, the next round is not shown
    if game["status"] == "playing":
        assert game["observation"] is None and game["live_wait"]["round"] == round_index + 1
    return made


def _wait(done: Callable[[], bool], what: str, timeout: float = 60) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if done():
            return time.monotonic() - start
        time.sleep(0.05)
    raise AssertionError(f"{what} did not happen in {timeout} s")


@pytest.fixture
def worker() -> Iterator[Any]:
    assert not app.conf.task_always_eager
    app.control.purge()
    with start_worker(app, perform_ping_check=False, shutdown_timeout=30) as w:
        yield w


@pytest.fixture
def beat(worker: Any, tmp_path: Path) -> Iterator[None]:
    """Celery beat itself, in a process of its own with the site's schedule
    (``CELERY_BEAT_SCHEDULE``: the live slots' task every second), sending its tasks
    through Redis to the real worker."""
    assert app.conf.beat_schedule["close-due-live-slots"]["task"] == (
        "tournaments.tasks.live_slots_close_due"
    )
    assert app.conf.beat_schedule["close-due-live-slots"]["schedule"] <= 1.0
    root = Path(__file__).resolve().parents[2]
    log = (tmp_path / "beat.log").open("w")
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "celery"),
            "-A",
            "jokeren",
            "beat",
            "--schedule",
            str(tmp_path / "beat-schedule"),
            "-l",
            "info",
        ],
        cwd=root,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"},
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        yield
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
    assert "live_slots_close_due" in (tmp_path / "beat.log").read_text()


def _board_after(t: Tournament, rounds: int, entries: int) -> bool:
    t.refresh_from_db()
    return (
        t.live_slots_closed == rounds
        and EntryResult.objects.filter(tournament=t, upto=rounds, rounds_played=rounds).count()
        == entries
    )


def test_a_live_evening_of_twenty_players_and_one_in_the_browser(
    live_server: Any, browser: Browser, beat: None
) -> None:
    t = factories.make_live_evening(rounds=ROUNDS, max_entrants=PLAYERS + 5)
    base = live_server.url
    players = []
    for i in range(PLAYERS):
        user = factories.make_user(f"clubspeler{i:02d}")
        api = Api(base, tokens.token_create(user=user, name="avond").key)
        status, joined = api.call("POST", f"/api/tournaments/{t.pk}/join/")
        assert status == 201, joined
        players.append((api, joined["game"]))
    dropout_api, dropout_game = players[-1]
    # nobody sees a round's cards before it opens, nor plays it
    status, game = players[0][0].call("GET", f"/api/games/{players[0][1]}/")
    assert game["observation"] is None and game["live_wait"]["round"] == 0
    status, refused = players[0][0].call(
        "POST", f"/api/games/{players[0][1]}/moves/", {"seq": game["seq"], "action": {}}
    )
    assert status == 400 and refused["error"]["code"] == "live_round_not_open"

    # the browser player joins from the lobby on a phone and waits there
    factories.make_user("telefoon")
    page = _phone_page(browser, {"width": 390, "height": 844}, mobile=True)
    page.context.add_init_script(f"window.JK_LIVE_MS = {LIVE_MS};")
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, base, "telefoon")
    page.goto(f"{base}/tournaments/{t.pk}/live/")
    page.click("[data-testid=live-join]")
    page.wait_for_url(f"**/tournaments/{t.pk}/live/")
    expect(page.locator("#live")).to_have_attribute("data-phase", "lobby")
    phone_game = Game.objects.get(entry__tournament=t, user__username="telefoon")
    entries = PLAYERS + 1

    seconds = []
    with ThreadPoolExecutor(max_workers=6) as pool:
        for r in range(ROUNDS):
            factories.live_clock_at(t, r)
            # the round opens for everyone at once: the lobby sends the phone to its table
            page.wait_for_url(f"**/games/{phone_game.pk}/", timeout=20_000)
            settle(page)
            assert table(page, "status") == "playing"
            if r == 1:
                # the dropout draws in round 2 and leaves in the middle of the turn
                assert _play_round(dropout_api, dropout_game, r, moves=1) == 1
                active = players[:-1]
            else:
                active = players if r == 0 else players[:-1]
            jobs = [pool.submit(_play_round, api, gid, r) for api, gid in active]
            _play_to_the_round_end(page)
            _dialog_fits(page)
            page.tap("[data-testid=continue]")
            if r < ROUNDS - 1:
                # finished early: back to the lobby, waiting for the next round
                page.wait_for_url(f"**/tournaments/{t.pk}/live/", timeout=20_000)
                expect(page.locator("#live")).to_have_attribute("data-phase", "playing")
            assert all(job.result(timeout=600) > 0 for job in jobs)
            # nobody sees the round's board before its slot ends, not even who finished
            status, board = players[0][0].call("GET", f"/api/tournaments/{t.pk}/standings/")
            assert board["visible_rounds"] == r
            factories.live_clock_at(t, r, moment="ended")
            seconds.append(_wait(lambda r=r: _board_after(t, r + 1, entries), "slot close"))
            if r < ROUNDS - 1:
                expect(page.locator("#live")).to_have_attribute(
                    "data-board-rounds", str(r + 1), timeout=10_000
                )
                expect(page.locator("#live-board [data-testid=vs-par]").first).to_be_visible()
                status, board = Api(base, "").call("GET", f"/api/tournaments/{t.pk}/standings/")
                assert board["visible_rounds"] == r + 1 and board["scores_visible"]
                page.screenshot(path=str(ARTIFACTS / f"live-evening-after-round-{r + 1}.png"))
    # the last slot's board came like the others; then beat's task queues the close
    _wait(lambda: Tournament.objects.get(pk=t.pk).closed_at is not None, "the close", 120)
    # a round's board within 2 s of its slot's end (beat's second included)
    assert max(seconds) < 2.0, seconds

    gone = Game.objects.get(pk=dropout_game)
    assert gone.status == Game.Status.FINISHED
    assert GameRound.objects.get(game=gone, round_index=1).bot_from == 1
    final = EntryResult.objects.get(entry=gone.entry, upto=ROUNDS)
    # round 1 they played; round 2 the bot finished at its slot's end, round 3 it played
    assert final.bot_rounds == [1, 2] and final.rounds_counted == 1
    for _api, gid in players[:-1]:
        row = EntryResult.objects.get(entry__game__pk=gid, upto=ROUNDS)
        assert row.bot_rounds == [] and row.rounds_counted == ROUNDS
    mine = EntryResult.objects.get(entry=phone_game.entry, upto=ROUNDS)
    assert mine.bot_rounds == [] and mine.rounds_counted == ROUNDS and mine.finished
    # the lobby says the evening is over
    page.goto(f"{base}/tournaments/{t.pk}/live/")
    expect(page.locator("#live")).to_have_attribute("data-phase", "over")
    page.context.close()
    assert not errors, errors
