"""Words a card player trips over, in a real browser (issue 23, item 6): the replay names
the cards as the table does in the page's language (Dutch "♦B", never "J♦") and a joker
laid in a meld with the card it stands for ("joker (♣8)"); the player's own meld on the
table is "van jou" / "yours", never "van Jij" / "by You"."""

from __future__ import annotations

import re
from typing import Any

import factories
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in, settle
from tests.e2e.test_table import arrange, click_cards, hand
from tests.e2e.test_table import make_tournament as jokeren_tournament
from tournaments.games import module_of
from tournaments.models import Game
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SUIT = "[♣♦♥♠]"
#: a card as the Dutch table names it (suit first, B V H A), a joker with what it stands for
NL_CARD = re.compile(rf"{SUIT}(10|[2-9BVHA])|joker( \({SUIT}(10|[2-9BVHA])\))?")
#: the same in English (rank first, J Q K A)
EN_CARD = re.compile(rf"(10|[2-9JQKA]){SUIT}|joker( \((10|[2-9JQKA]){SUIT}\))?")

#: Step the replay forward until a meld with a joker is on the table (or the last frame).
TO_JOKER_MELD = """() => {
  const view = document.getElementById("table-view");
  const next = document.getElementById("next");
  for (let i = 0; i < 1000 && !view.textContent.includes("joker ("); i += 1) next.click();
  return view.textContent.includes("joker (");
}"""


def _joker_meld_in_round_0(secret: bytes) -> bool:
    """Round 0 of Jokeren 7 dealt from ``secret`` and played by the basic bots in every
    seat (the game ``factories.closed_game`` plays) lays a joker in a meld."""
    module = module_of("jokeren")
    state = module.new_round(module.PRESETS["jokeren7"], secret=secret, round_index=0)
    while not state.is_terminal:
        state = state.apply(module.bot_action(state, level="basic"))
        if any(any(m.get("stands_for") or []) for m in state.observation(0)["table"]):
            return True
    return False


def _replay_with_a_joker_meld() -> Game:
    secret = factories.secret_where("replay-joker", _joker_meld_in_round_0)
    t = factories.make_tournament(name="Terugkijken", rounds=1, secret=secret)
    user = factories.make_user("anna")
    game, _events = factories.play_to_end(
        entry_services.entry_join(tournament_id=t.pk, user=user).game, user
    )
    closing_services.tournament_close(tournament_id=t.pk)
    return game


def _shown_cards(page: Page) -> list[str]:
    return page.locator("#table-view .cards > span").all_inner_texts()


def test_the_replay_names_cards_as_the_table_and_a_joker_with_its_card(
    live_server: Any, page: Page
) -> None:
    game = _replay_with_a_joker_meld()
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?round=0")
    assert page.evaluate(TO_JOKER_MELD)
    dutch = _shown_cards(page)
    assert dutch and all(NL_CARD.fullmatch(c) for c in dutch), dutch
    assert any(c.startswith("joker (") for c in dutch)
    assert "🃏" not in page.inner_text("#table-view")

    page.click("button[name=language][value=en]")
    page.wait_for_load_state()
    assert page.evaluate(TO_JOKER_MELD)
    english = _shown_cards(page)
    assert english and all(EN_CARD.fullmatch(c) for c in english), english
    assert any(c.startswith("joker (") for c in english)


def test_the_klaverjas_replay_writes_the_dutch_letters(live_server: Any, page: Page) -> None:
    _t, game = factories.closed_game("klaverjas", "rotterdams", username="bram")
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?round=0")
    page.click("#last")
    dutch = _shown_cards(page)
    # a whole round's tricks: all 32 cards, the jacks, queens, kings and aces among them
    assert len(dutch) >= 32 and all(NL_CARD.fullmatch(c) for c in dutch), dutch
    assert any(c.endswith("B") for c in dutch) and not any(c.startswith("J") for c in dutch)


def test_the_players_own_meld_is_yours_on_the_table(
    live_server: Any, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = jokeren_tournament()
    user = factories.make_user("speler_eigen")
    entry = entry_services.entry_join(tournament_id=tournament.pk, user=user)
    arrange(
        monkeypatch,
        entry.game,
        south="7h 8h 9h 5c 5d ** Qh",
        stock_top="Th",
        open_pile="2d",
        table=[("Qc Qd **", [None, None, "Qh"], 1)],
    )
    log_in(page, live_server.url, "speler_eigen")
    page.goto(f"{live_server.url}/games/{entry.game.pk}/")
    settle(page)
    page.click("[data-testid=stock]")
    settle(page)
    by_code = {code: cid for cid, code in hand(page)}
    click_cards(page, [by_code[c] for c in ("7h", "8h", "9h")])
    page.click("[data-testid=btn-stage]")
    click_cards(page, [by_code[c] for c in ("5c", "5d", "**")])
    page.click("[data-testid=btn-lay]")
    settle(page)
    melds = page.locator("[data-testid=meld]")
    expect(melds).to_have_count(3)
    owners = page.locator("[data-testid=meld] .jk-meld-owner")
    assert owners.all_inner_texts() == ["van West", "van jou", "van jou"]
    assert "van Jij" not in (melds.nth(1).get_attribute("aria-label") or "")

    page.click("button[name=language][value=en]")
    page.wait_for_load_state()
    settle(page)
    assert owners.all_inner_texts() == ["by West", "yours", "yours"]
    assert "by You" not in page.inner_text("[data-testid=melds]")
