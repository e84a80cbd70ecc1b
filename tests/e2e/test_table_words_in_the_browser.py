"""The tables' words in the browser (issue 35, item 5): a trick South won is "Slag voor
jou", clubs are "klaveren" in the card names, a later round starts with "In deze ronde is
nog geen slag gespeeld", and a touch screen says "Tik" where a mouse "Klikt"."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import TABLE_DELAY_MS
from tests.e2e.helpers import api_get, join, log_in, settle, table
from tests.e2e.test_klaverjas import make_tournament, secret_where_the_bots_pass
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_trick_of_yours_and_clubs_are_named_as_a_card_player_says_them(
    live_server: Any, page: Page
) -> None:
    tournament = make_tournament(secret=secret_where_the_bots_pass())
    factories.make_user("woorden")
    log_in(page, live_server.url, "woorden")
    game_id = join(page, live_server.url, tournament.pk)
    codes = page.eval_on_selector_all(
        "[data-testid=hand-card]", "els => els.map(e => [e.dataset.code, e.ariaLabel])"
    )
    clubs = [name for code, name in codes if code.endswith("c")]
    assert clubs and all(name.startswith("klaveren ") for name in clubs), codes
    page.click("[data-testid=bid-play]")
    settle(page)
    # Four tricks, then each trick's line in the list of moves names its winner.
    for _trick in range(4):
        page.locator("[data-testid=hand-card][data-legal=true]").last.click()
        settle(page)
    tricks = api_get(page, game_id)["observation"]["tricks"]
    lines = page.eval_on_selector_all("[data-testid=log] li", "els => els.map(e => e.textContent)")
    said = [line for line in lines if line.startswith("Slag voor ")]
    assert len(said) == len(tricks) >= 4, lines
    names = {1: "West", 2: "Noord", 3: "Oost"}
    for trick, line in zip(tricks, said, strict=True):
        who = "jou" if trick["winner"] == 0 else names[trick["winner"]]
        assert line.startswith(f"Slag voor {who}: "), (trick["winner"], line)
    assert any(t["winner"] == 0 for t in tricks), "South won none of the first four tricks"
    assert not any("Jij" in line for line in said), said


def test_a_later_round_starts_with_no_trick_in_this_round(live_server: Any, page: Page) -> None:
    tournament = make_tournament(rounds=2)
    user = factories.make_user("tweede")
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    while game.round_index == 0:
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        ).game
    log_in(page, live_server.url, "tweede")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    assert table(page, "round") == "1"
    expect(page.locator("[data-testid=btn-last-trick]")).to_have_attribute(
        "title", "In deze ronde is nog geen slag gespeeld."
    )


def test_a_touch_screen_says_tik_where_a_mouse_says_klik(
    live_server: Any, browser: Browser, page: Page
) -> None:
    user = factories.make_user("tikker")
    game = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    while game.current_state().current_player != 0:
        game = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
    touch = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="nl-NL", has_touch=True, is_mobile=True
    )
    touch.add_init_script(f"window.JK_TABLE_DELAY = {TABLE_DELAY_MS};")
    phone = touch.new_page()
    for where, word in ((page, "Klik"), (phone, "Tik")):
        log_in(where, live_server.url, "tikker")
        where.goto(f"{live_server.url}/games/{game.pk}/")
        settle(where)
        if table(where, "phase") == "draw":
            where.click("[data-testid=stock]")
            settle(where)
        hint = where.locator("[data-testid=actions] .jk-hint")
        expect(hint).to_have_text(
            f"{word} op kaarten om ze te kiezen; dan verschijnen de knoppen om ze te spelen."
        )
    touch.close()
