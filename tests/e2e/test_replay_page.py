"""The replay in a real browser (issue 13, item 5): a visitor sees the entrant's seat under
the entrant's name, never "Jij"; the entrant sees "Jij". Every seat's hand is shown as the
card table's faces, in the table's order (Jokeren: by suit spades, hearts, clubs,
diamonds, ace high, jokers last; Klaverjas: trump first, then alternating colours, each
suit from high to low in its own strength)."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in
from tournaments.models import Game
from tournaments.selectors import replay as replay_selectors

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: The Jokeren table's order by suit (static/js/table-cards.js sortHand, the rule of the
#: issue: black and red alternate), ranks with the ace high.
JK_SUITS = "shcd"
JK_RANKS = "23456789TJQKA"
#: Klaverjas ranks from high to low: in a plain suit A 10 K Q J 9 8 7; in trump
#: J 9 A 10 K Q 8 7 (docs/rules.md §6).
KJ_PLAIN = "ATKQJ987"
KJ_TRUMP = "J9ATKQ87"


def _closed(game: str, preset: str) -> Game:
    return factories.closed_game(game, preset, username="anna")[1]


def _seat_names(page: Page) -> list[str]:
    return page.locator("[data-testid=replay-seat-name]").all_inner_texts()


def _hands(page: Page) -> list[list[str]]:
    """The card codes of every seat's hand as shown, in order."""
    return [
        hand.locator("[data-code]").evaluate_all("cs => cs.map((c) => c.dataset.code)")
        for hand in page.locator(".replay-seat").all()
    ]


def _jokeren_key(code: str) -> tuple[int, int, int]:
    if code == "**":
        return (1, 0, 0)
    return (0, JK_SUITS.index(code[1]), JK_RANKS.index(code[0]))


def _klaverjas_order(codes: list[str], trump: str | None) -> list[str]:
    suits = ["s", "h", "c", "d"]
    if trump:
        red = {"d", "h"}
        opposite = [s for s in suits if s != trump and (s in red) != (trump in red)]
        same = [s for s in suits if s != trump and (s in red) == (trump in red)]
        suits = [trump, opposite[0], *same, *opposite[1:]]

    def key(code: str) -> tuple[int, int]:
        ranks = KJ_TRUMP if code[1] == trump else KJ_PLAIN
        return (suits.index(code[1]), ranks.index(code[0]))

    return sorted(codes, key=key)


def test_jokeren_replay_names_the_entrant_and_shows_sorted_card_faces(
    live_server: Any, page: Page
) -> None:
    game = _closed("jokeren", "jokeren7")
    url = f"{live_server.url}/games/{game.pk}/replay/?round=0"
    page.goto(url)
    expect(page.locator("[data-testid=replay-seat-name]").first).to_have_text("anna")
    assert _seat_names(page) == ["anna", "West", "Noord", "Oost"]
    frames = replay_selectors.replay_frames_json(
        game=game, frames=replay_selectors.game_replay(game=game, round_index=0)
    )
    hands = _hands(page)
    assert len(hands) == 4
    for shown, dealt in zip(hands, frames[0]["hands"], strict=True):
        assert shown == sorted(dealt, key=_jokeren_key)
    # Card faces of the table, with their names for a screen reader.
    expect(page.locator(".replay-seat .jk-card").first).to_have_attribute("role", "img")
    assert page.locator(".replay-seat .jk-card.jk-card-small").count() == sum(map(len, hands))
    assert "Jij" not in page.locator("#seats").inner_text()
    # The move texts name her too: step to her first move.
    first_own = next(i for i, f in enumerate(frames) if f["seat"] == 0)
    for _ in range(first_own):
        page.click("#next")
    expect(page.locator("#position")).to_have_text(f"{first_own} / {len(frames) - 1}")
    assert page.locator("#action-text strong").inner_text().startswith("anna ")

    # The entrant herself is "Jij".
    log_in(page, live_server.url, "anna")
    page.goto(url)
    expect(page.locator("[data-testid=replay-seat-name]").first).to_have_text("Jij")


def test_klaverjas_replay_hands_are_faces_with_trump_first(live_server: Any, page: Page) -> None:
    game = _closed("klaverjas", "rotterdams")
    page.goto(f"{live_server.url}/games/{game.pk}/replay/?round=0")
    expect(page.locator("[data-testid=replay-seat-name]").first).to_have_text("anna")
    frames = replay_selectors.replay_frames_json(
        game=game, frames=replay_selectors.game_replay(game=game, round_index=0)
    )
    # Step to the first frame with trump chosen: every hand sorted with trump first.
    i, trump = next(
        (i, f["set"]["trump"]) for i, f in enumerate(frames) if f.get("set", {}).get("trump")
    )
    for _ in range(i):
        page.click("#next")
    expect(page.locator("#position")).to_have_text(f"{i} / {len(frames) - 1}")
    hands = _hands(page)
    assert [len(h) for h in hands] == [len(h) for h in frames[i]["hands"]]
    for seat, shown in enumerate(hands):
        assert shown == _klaverjas_order(frames[i]["hands"][seat], trump)
    assert page.locator(".replay-seat .kj-card.kj-card-small").count() == sum(map(len, hands))
    assert page.locator(".replay-seat .kj-card.is-trump").count() == sum(
        c[1] == trump for h in hands for c in h
    )
