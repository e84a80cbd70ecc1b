"""Words a person reads at the table (issue 13): the Klaverjas log names the cards with
the suit's symbol and the rank in the page's language (Dutch ``♥B``, English ``J♥``),
never a code (``Jh``), and its sentences agree with every seat ("You passed", not "You
passes"). The log is built in the browser from the server's strings."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import join, log_in, settle
from tests.e2e.test_klaverjas import hand, make_tournament, secret_where_the_bots_pass
from tests.e2e.test_table import hand as jokeren_hand
from tests.e2e.test_table import make_tournament as jokeren_tournament
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CODE = re.compile(r"\b([2-9TJQKA][cdhs]|10[cdhs])\b")


def log_lines(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("[data-testid=log] li").all_inner_texts()]


def test_the_klaverjas_log_names_cards_in_words_in_both_languages(
    live_server: Any, page: Page
) -> None:
    tournament = make_tournament(secret=secret_where_the_bots_pass())
    user = factories.make_user("woorden")
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    log_in(page, live_server.url, "woorden")
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    page.click("[data-testid=bid-play]")
    settle(page)
    legal = [c for c in hand(page) if c["legal"] == "true"]
    page.click(f"[data-testid=hand-card][data-card='{legal[0]['card']}']")
    settle(page)

    dutch = log_lines(page)
    assert "West past." in dutch and "Jij gaat." in dutch
    mine = [line for line in dutch if line.startswith("Jij speelt ")]
    assert len(mine) == 1 and re.fullmatch(r"Jij speelt [♣♦♥♠](10|[2-9BVHA])\.", mine[0])
    assert not [line for line in dutch if CODE.search(line)]

    page.click("button[name=language][value=en]")
    page.wait_for_load_state()
    settle(page)
    english = log_lines(page)
    assert "West passed." in english and "You chose to play." in english
    mine = [line for line in english if line.startswith("You played ")]
    assert len(mine) == 1 and re.fullmatch(r"You played (10|[2-9JQKA])[♣♦♥♠]\.", mine[0])
    assert not [line for line in english if re.search(r"\bYou (passes|plays|chooses)\b", line)]
    assert not [line for line in english if CODE.search(line)]


@pytest.mark.parametrize(("language", "expected"), [("nl", "-20,0"), ("en", "-20.0")])
def test_the_live_leaderboard_writes_results_as_the_server_does(
    live_server: Any, page: Page, language: str, expected: str
) -> None:
    """One decimal and the page's decimal sign, on the server's page and after the live
    update (the refreshed rows come from views.tournament_leaderboard) alike."""
    t = factories.make_tournament(rounds=3)
    anna = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user("anna")).game
    bram = entry_services.entry_join(tournament_id=t.pk, user=factories.make_user("bram")).game
    factories.set_rounds(anna, [[10, 20, 30, 40]])
    factories.set_rounds(bram, [[4, 25, 25, 25]])
    result_services.standings_refresh(tournament=t)
    log_in(page, live_server.url, "bram")
    if language == "en":
        page.click("button[name=language][value=en]")
        page.wait_for_load_state()
    page.goto(f"{live_server.url}/tournaments/{t.pk}/")
    row = page.locator("#leaderboard tbody tr", has_text="anna")
    result = row.locator("td").nth(2)
    expect(result).to_have_text(expected)  # the server's page: 10 − average(20, 30, 40)
    # Anna plays on: the live update redraws her row (progress 2/3), her visible result
    # is still round 1's.
    factories.set_rounds(anna, [[10, 20, 30, 40], [7, 41, 43, 47]])
    result_services.standings_refresh(tournament=t)
    expect(row).to_contain_text("2/3")
    expect(result).to_have_text(expected)


def test_the_jokeren_log_names_the_discard_in_words(live_server: Any, page: Page) -> None:
    tournament = jokeren_tournament(rounds=2, south_plays=(0, 1))
    factories.make_user("woorden_jk")
    log_in(page, live_server.url, "woorden_jk")
    join(page, live_server.url, tournament.pk)
    page.click("[data-testid=stock]")
    settle(page)
    card, code = next((c, k) for c, k in jokeren_hand(page) if k != "**")
    page.click(f"[data-testid=hand-card][data-card='{card}']")
    page.click("[data-testid=btn-discard]")
    settle(page)
    lines = log_lines(page)
    assert "Jij pakt van de dichte stapel." in lines
    rank = {"T": "10", "J": "B", "Q": "V", "K": "H"}.get(code[0], code[0])
    suit = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[code[1]]
    assert f"Jij gooit {suit}{rank} weg." in lines
    assert not [line for line in lines if CODE.search(line)]
