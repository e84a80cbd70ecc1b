"""After the game in a real browser: the par row and the percentage once you have finished
a round (on a phone too), the split view after the close, and a what-if game started from
a replay position that gives the original game again when the same moves are made."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.e2e.helpers import ARTIFACTS, api_get, api_post, log_in, screenshot, settle
from tournaments.games import module_of
from tournaments.models import Game, Tournament
from tournaments.selectors import replay as replay_selectors
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import results as result_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _close(t: Tournament) -> None:
    Tournament.objects.filter(pk=t.pk).update(closes_at=timezone.now())
    closing_services.tournament_close(tournament_id=t.pk)


WIDE = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1
    && !e.closest('.table-scroll'))
  .map((e) => e.tagName + '.' + e.className)"""


def _no_sideways_scroll(page: Page) -> bool:
    wide = page.evaluate(WIDE)
    assert not wide, wide
    return bool(
        page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    )


def test_par_and_the_percentage_appear_once_you_have_finished_the_round(
    live_server: Any, page: Page
) -> None:
    # South gets a turn in round 1: nobody has finished it just by joining.
    t = factories.make_tournament(rounds=2, south_plays=(0,))
    anna = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user("anna")).game
    bram = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user("bram")).game
    factories.set_rounds(anna, [[10, 20, 20, 20]])
    result_services.standings_refresh(tournament=t)

    log_in(page, live_server.url, "bram")
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(page.locator("[data-testid=par-row]")).to_have_count(0)

    # Leave the page first: its live update reloads it once Bram's visible rounds change,
    # which would race the navigation below.
    page.goto("about:blank")
    # Bram finishes round 1 better than Anna: he beat the only other entrant (100%).
    factories.set_rounds(bram, [[0, 20, 20, 20]])
    result_services.standings_refresh(tournament=t)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    expect(page.locator("[data-testid=par-row]")).to_have_count(1)
    expect(page.locator("[data-testid=par-row]")).to_contain_text("Par")
    mine = page.locator("table.deal tr.me")
    expect(mine.locator("[data-testid=deal-percentage]")).to_have_text("100,0%")
    row = page.locator("#leaderboard tbody tr", has_text="anna")
    expect(row.locator("[data-testid=avg-percentage]")).to_have_text("0,0%")
    expect(page.locator("[data-testid=progress-chart] polyline")).to_have_count(3)
    # The vertical axis is labelled (highest, 0, lowest), in Dutch number style.
    y_ticks = page.locator("[data-testid=chart-y-tick]")
    expect(y_ticks.first).to_be_visible()
    assert "0,0" in y_ticks.all_text_contents()
    page.locator("[data-testid=progress-chart]").screenshot(
        path=str(ARTIFACTS / "analysis-chart.png")
    )

    # The same page on a phone: nothing makes the page scroll sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    expect(page.locator("[data-testid=par-row]")).to_be_visible()
    assert _no_sideways_scroll(page)
    screenshot(page, "analysis-phone.png")


def _south_actions(game: Game) -> list[dict[str, Any]]:
    return [
        dict(a.action) for a in replay_selectors.game_record(game=game).actions[0] if a.seat == 0
    ]


def test_split_view_and_a_what_if_game_from_a_replay_position(live_server: Any, page: Page) -> None:
    t = factories.make_tournament(rounds=1, south_plays=(0,))
    anna_user = factories.make_user("anna")
    anna, _ = factories.play_to_end(
        entry_services.entry_join(tournament_id=t.pk, user=anna_user).game, anna_user
    )
    bram_user = factories.make_user("bram")
    bram = entry_services.entry_join(tournament_id=t.pk, user=bram_user).game
    module = module_of(bram.game)
    state = module.state_from_json(bram.state)
    usual = module.bot_action(state, level="basic").to_json()
    other = next(a.to_json() for a in state.legal_actions() if a.to_json() != usual)
    bram = play_services.game_play_move(
        game_id=bram.pk, user=bram_user, seq=bram.seq, action=other
    ).game
    bram, _ = factories.play_to_end(bram, bram_user)
    _close(t)

    # Where the games split: Anna against Bram, from the tournament page's link.
    log_in(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    page.locator("table.deal a", has_text="vergelijk").first.click()
    expect(page.locator("[data-testid=split-line]")).to_have_count(2)
    expect(page.locator("[data-testid=split-summary]")).to_contain_text("splitsen")
    expect(page.locator("[data-testid=split-difference]")).to_be_visible()
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    expect(page.locator("[data-testid=split-line]").first).to_be_visible()
    assert _no_sideways_scroll(page)
    page.goto(f"{live_server.url}/games/{anna.pk}/review/")
    expect(page.locator("[data-testid=play-from-here]").first).to_be_visible()
    assert _no_sideways_scroll(page)
    screenshot(page, "analysis-review-phone.png")

    # What if: Anna's replay, two steps past her first move, "Speel vanaf hier".
    actions = replay_selectors.game_record(game=anna).actions[0]
    first_south = next(i for i, a in enumerate(actions) if a.seat == 0)
    start = first_south + 1
    page.goto(f"{live_server.url}/games/{anna.pk}/replay/")
    expect(page.locator("#analysis")).to_be_visible()
    assert _no_sideways_scroll(page)  # still 390 px wide
    for _ in range(start):
        page.click("#next")
    expect(page.locator("#position")).to_contain_text(f"{start} /")
    page.click("#what-if")
    page.wait_for_url("**/games/*/")
    settle(page)
    what_if_id = int(page.url.rstrip("/").split("/")[-1])
    assert what_if_id != anna.pk
    expect(page.locator("[data-testid=round-label]")).to_have_text(
        "Ronde 1, gespeeld vanaf een stand"
    )

    # The same moves give the same game: Anna's remaining South moves, in order.
    played = sum(1 for a in actions[:start] if a.seat == 0)
    for action in _south_actions(anna)[played:]:
        data = api_get(page, what_if_id)
        if data["status"] == "finished":
            break
        status, _body = api_post(page, what_if_id, {"seq": data["seq"], "action": action})
        assert status == 200
    what_if = Game.objects.get(pk=what_if_id)
    assert what_if.is_finished
    assert what_if.round_scores == anna.round_scores
    assert [a.action for a in replay_selectors.game_record(game=what_if).actions[0]] == [
        a.action for a in actions
    ]
