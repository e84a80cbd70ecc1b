"""The live list of moves at the Jokeren table (issue 23, item 2): through a whole
8-round game played by clicking, after every move the list the table built from the move
answers is the list a fresh load of the page shows. Players track the discards from it;
it went wrong from the first round South opened (round 4 of this deal): the last round's
moves stayed and new lines were spliced after them."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.helpers import dialog_open, log_in, settle, table
from tests.e2e.test_table import play_turn
from tournaments.models import Game
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: A deal in which South opens some rounds (round 3 first): the case that broke.
SECRET = bytes(range(32))


def moves_listed(page: Page) -> list[str]:
    return page.eval_on_selector_all("[data-testid=log] li", "els => els.map(e => e.textContent)")


def test_the_live_move_list_is_the_reloaded_one_after_every_move_of_a_whole_game(
    live_server: Any, page: Page, browser: Browser
) -> None:
    tournament = factories.make_tournament(preset="jokeren7", rounds=8, secret=SECRET)
    user = factories.make_user(username="speler_lijst")
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    log_in(page, live_server.url, "speler_lijst")
    url = f"{live_server.url}/games/{game.pk}/"
    page.goto(url)
    # The reloads in a context of their own: a second tab of the same one would put the
    # table's tab in the background, whose timers the browser slows down.
    other = browser.new_context(storage_state=page.context.storage_state(), locale="nl-NL")
    fresh = other.new_page()

    def reloaded() -> list[str]:
        fresh.goto(url)
        settle(fresh)
        return moves_listed(fresh)

    skip: set[frozenset[int]] = set()
    taken: list[int] = []
    rounds_seen: set[str] = set()
    opened_by_south: set[str] = set()
    compared = 0
    for _ in range(2000):
        settle(page)
        if dialog_open(page):
            page.click("[data-testid=continue]")
            continue
        if table(page, "status") == "finished":
            break
        round_index = table(page, "round")
        if round_index not in rounds_seen:
            rounds_seen.add(round_index)
            if not moves_listed(page):
                opened_by_south.add(round_index)
        assert moves_listed(page) == reloaded(), f"round {round_index}, seq {table(page, 'seq')}"
        compared += 1
        play_turn(page, skip, taken)
    else:
        pytest.fail("the game did not end")
    assert len(rounds_seen) == 8
    # The deal has rounds that South opens: a new round with no bot move before South's.
    assert opened_by_south - {"0"}
    assert compared > 8 * 3
    assert Game.objects.get(pk=game.pk).status == Game.Status.FINISHED
    other.close()
