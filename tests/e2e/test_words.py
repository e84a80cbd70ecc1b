"""Words a person reads at the table (issue 13): the Klaverjas log names the cards with
the suit's symbol and the rank in the page's language (Dutch ``♥B``, English ``J♥``),
never a code (``Jh``), and its sentences agree with every seat ("You passed", not "You
passes"). The log is built in the browser from the server's strings."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from playwright.sync_api import Page

from tests.e2e.helpers import log_in, settle
from tests.e2e.test_klaverjas import hand, make_tournament, secret_where_the_bots_pass
from tournaments import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

CODE = re.compile(r"\b([2-9TJQKA][cdhs]|10[cdhs])\b")


def log_lines(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("[data-testid=log] li").all_inner_texts()]


def test_the_klaverjas_log_names_cards_in_words_in_both_languages(
    live_server: Any, page: Page
) -> None:
    tournament = make_tournament(secret=secret_where_the_bots_pass())
    user = factories.make_user("woorden")
    game = services.entry_join(tournament_id=tournament.pk, user=user).game
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
