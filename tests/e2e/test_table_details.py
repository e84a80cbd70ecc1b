"""Details of the Jokeren table a card player expects (issue 13, items 8 and 9), in a real
browser: "Aanleggen" and "Joker ruilen" only when they apply, the drawn card marked until
the turn ends, the hand arranged by dragging and kept after a reload, the round's end
showing your hand in the hand's order, play with the keyboard alone, the status changes
announced, the four-colour deck and the favicon."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

import factories
import pytest
from playwright.sync_api import Locator, Page, expect

from engine.cards import card_id_of, parse_code
from engine.jokeren.melds import check_meld, stands_for_from_json
from engine.jokeren.state import state_from_json
from tests.e2e.helpers import api_get, deal_position, dialog_open, join, log_in, settle, table
from tournaments.models import Game
from tournaments.services import entries as entry_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


# --- A known position ---------------------------------------------------------------------


def position(
    monkeypatch: Any,
    game: Game,
    *,
    south: str,
    west: str,
    stock_top: str,
    table: list[tuple[str, list[str | None], int]],
    open_top: str = "",
) -> None:
    """South to draw with a known hand, West's hand and the top of the stock known, these
    melds on the table (codes, what each card stands for, owner), the open pile's card
    (``open_top``, else an unnamed one); the other cards to North, East and the stock.
    Every seat but South has come out."""
    jokers = iter((52, 53))

    def ids(codes: str) -> list[int]:
        return [next(jokers) if c == "**" else card_id_of(*parse_code(c)) for c in codes.split()]

    south_ids, west_ids, top_ids, open_ids = ids(south), ids(west), ids(stock_top), ids(open_top)
    melds = [
        check_meld(ids(codes), [stands_for_from_json(x) for x in sf], owner=owner)
        for codes, sf, owner in table
    ]
    placed = {*south_ids, *west_ids, *top_ids, *open_ids, *(c for m in melds for c in m.cards)}
    rest = [c for c in range(54) if c not in placed]
    pile = open_ids or rest[12:13]
    state = game.state
    state.update(
        hands=[south_ids, west_ids, rest[0:6], rest[6:12]],
        stock=top_ids + [c for c in rest[12:] if c not in pile],
        open_pile=pile,
        table=[m.to_json() for m in melds],
        removed=[],
        out=[False, True, True, True],
        current_player=0,
        phase="draw",
        came_out_this_turn=False,
        taken_from_open=None,
        log=[],
        move_count=0,
    )
    state_from_json(state)  # a state the engine accepts
    deal_position(monkeypatch, game, state)


def shown(page: Page) -> list[str]:
    """The codes of the hand's cards in the order shown."""
    codes: list[str] = page.eval_on_selector_all(
        "[data-testid=hand-card]", "els => els.map((e) => e.dataset.code)"
    )
    return codes


def card(page: Page, code: str) -> Locator:
    return page.locator(f"[data-testid=hand-card][data-code='{code}']")


def drag_to(page: Page, source: Locator, target: Locator, *, after: bool) -> None:
    """Drag a card with the mouse (pointer events) next to another card."""
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    x = b["x"] + b["width"] * (0.85 if after else 0.15)
    y = b["y"] + b["height"] / 2
    page.mouse.move(x, y, steps=8)
    page.mouse.up()


def touch_drag(page: Page, source: Locator, target: Locator) -> None:
    """Drag a card with a finger (Chromium's touch events, through the DevTools protocol)
    to just before another card."""
    a = source.bounding_box()
    b = target.bounding_box()
    assert a and b
    cdp = page.context.new_cdp_session(page)
    x, y = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    to_x = b["x"] + b["width"] * 0.15

    def touch(kind: str, px: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": px, "y": y}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", x)
    for i in range(1, 11):
        touch("touchMove", x + (to_x - x) * i / 10)
    touch("touchEnd", to_x)
    cdp.detach()


def test_arrange_by_dragging_drawn_card_marked_four_colours_and_the_hand_at_the_end(
    live_server: Any, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    tournament = factories.make_tournament(rounds=1)
    user = factories.make_user("schikker")
    entry = entry_services.entry_join(tournament_id=tournament.pk, user=user)
    # West holds a run of four: after South's turn West draws 9d, lays the run and
    # discards the nine, and is out (docs/rules.md §4): the round ends with South's cards left.
    position(
        monkeypatch,
        entry.game,
        south="7h 8h 6c 6d Qh Qs **",
        west="2c 3c 4c 5c",
        stock_top="Th 9d",
        table=[("9s Ts Js", [None, None, None], 2)],
    )
    log_in(page, live_server.url, "schikker")
    page.goto(f"{live_server.url}/games/{entry.game.pk}/")
    settle(page)
    sorted_hand = shown(page)
    assert sorted_hand == ["Qs", "7h", "8h", "Qh", "6c", "6d", "**"]  # by suit, jokers last
    # Every card is named in words, in the page's language (docs/rules.md §1 names).
    assert card(page, "Qh").get_attribute("aria-label") == "harten vrouw"
    assert card(page, "**").get_attribute("aria-label") == "joker"

    # The queen of spades dragged behind the eight of hearts; the sort button says so.
    drag_to(page, card(page, "Qs"), card(page, "8h"), after=True)
    arranged = ["7h", "8h", "Qs", "Qh", "6c", "6d", "**"]
    assert shown(page) == arranged
    expect(page.locator("[data-testid=btn-sort]")).to_have_attribute("title", "Eigen volgorde")
    # A drag selects nothing.
    assert page.locator("[data-testid=hand-card][aria-pressed=true]").count() == 0
    # The order is kept for this game's round, also after a reload.
    page.reload()
    settle(page)
    assert shown(page) == arranged
    # A finger does the same (touch events become pointer events): the joker to the front.
    touch_drag(page, card(page, "**"), card(page, "7h"))
    arranged = ["**", "7h", "8h", "Qs", "Qh", "6c", "6d"]
    assert shown(page) == arranged
    assert page.locator("[data-testid=hand-card][aria-pressed=true]").count() == 0

    # The four-colour deck: clubs green, diamonds blue; kept after a reload.
    red = card(page, "6d").evaluate("(e) => getComputedStyle(e).color")
    page.click("[data-testid=btn-colours]")
    expect(page.locator("[data-testid=btn-colours]")).to_have_attribute("aria-pressed", "true")
    colours = {
        code: card(page, code).evaluate("(e) => getComputedStyle(e).color")
        for code in ("6c", "6d", "Qh", "Qs")
    }
    assert colours["6d"] != red
    assert len(set(colours.values())) == 4, colours
    page.reload()
    settle(page)
    expect(page.locator("[data-testid=table]")).to_have_class(re.compile("is-four-colour"))
    assert card(page, "6c").evaluate("(e) => getComputedStyle(e).color") == colours["6c"]

    # The drawn card comes in at the end of your own order and stays marked (also after
    # other clicks and a reload) until the turn ends.
    page.click("[data-testid=stock]")
    settle(page)
    assert shown(page) == [*arranged, "Th"]
    drawn = page.locator("[data-testid=hand-card][data-drawn=true]")
    expect(drawn).to_have_count(1)
    assert drawn.get_attribute("data-code") == "Th"
    assert drawn.get_attribute("aria-label") == "harten 10, net gepakt"
    card(page, "6c").click()
    expect(drawn).to_have_count(1)
    page.reload()
    settle(page)
    expect(drawn).to_have_count(1)
    assert drawn.get_attribute("data-code") == "Th"
    assert shown(page) == [*arranged, "Th"]

    # "Aanleggen" only for a card that fits a meld on the table: not the six of clubs,
    # the queen of spades does. No joker on the table: no "Joker ruilen".
    card(page, "6c").click()
    expect(page.locator("[data-testid=btn-discard]")).to_be_visible()
    expect(page.locator("[data-testid=btn-lay-off]")).to_have_count(0)
    card(page, "6c").click()
    card(page, "Qs").click()
    expect(page.locator("[data-testid=btn-lay-off]")).to_be_visible()
    expect(page.locator("[data-testid=btn-swap]")).to_have_count(0)
    page.click("[data-testid=btn-lay-off]")
    page.locator("[data-testid=meld]").nth(0).click()
    settle(page)
    assert page.locator("[data-testid=meld]").nth(0).get_attribute("data-codes") == "9s Ts Js Qs"
    # A joker onto the run 9-Q: the dialog offers both ends, the king first (docs/rules.md §2).
    card(page, "**").click()
    page.click("[data-testid=btn-lay-off]")
    page.locator("[data-testid=meld]").nth(0).click()
    options = page.locator("[data-testid=joker-option]")
    expect(options).to_have_count(2)
    assert options.nth(0).get_attribute("value") == "Ks"
    page.click("[data-testid=joker-cancel]")
    card(page, "**").click()

    # A refused move: its reason is on the error line and announced at once (urgent).
    for code in ("7h", "8h", "6c"):
        card(page, code).click()
    page.click("[data-testid=btn-lay]")
    settle(page)
    error = page.locator("[data-testid=error]")
    expect(error).to_be_visible()
    expect(page.locator("[data-testid=announcer-alert] p").last).to_have_text(error.inner_text())
    for code in ("7h", "8h", "6c"):
        card(page, code).click()

    # The turn ends with a discard; West goes out and the round's end shows your cards in
    # the order of your hand.
    left = [c for c in [*arranged, "Th"] if c not in ("Qs", "6d")]
    card(page, "6d").click()
    page.click("[data-testid=btn-discard]")
    settle(page)
    assert dialog_open(page)
    codes = page.eval_on_selector_all(
        "[data-testid=round-hand-0] [data-code]", "els => els.map((e) => e.dataset.code)"
    )
    assert codes == left


# --- The keyboard alone, and what is announced ----------------------------------------------

FOCUSED = "() => document.activeElement?.dataset.testid ?? ''"


def tab_to(page: Page, testid: str, *, limit: int = 60) -> None:
    """Press Tab until the control `testid` has the focus."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED) == testid:
            return
    pytest.fail(f"Tab never reached {testid}")


#: Collect in `window.said` every line the polite live region is given from now on.
LISTEN = """() => {
  window.said = [];
  const region = document.querySelector('[data-testid=announcer]');
  new MutationObserver((changes) => {
    for (const c of changes) for (const n of c.addedNodes) window.said.push(n.textContent);
  }).observe(region, { childList: true });
}"""


def focus_ring(page: Page) -> bool:
    """Whether the focused element shows a focus ring (an outline)."""
    style = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, s.outlineWidth]; }"
    )
    return bool(style[0] != "none" and style[1] != "0px")


def test_the_buttons_are_the_engines_legal_actions_and_a_jokers_choices_its_readings(
    live_server: Any, page: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table keeps no rule (issue 24 item 5): the card taken from the open pile is not
    offered as a discard (docs/rules.md §7 Jokeren 1), another card is; queen and king of
    spades with a joker read, as the engine reads them, Q-K-A (its own choice, proposed)
    or J-Q-K, and the meld is laid as chosen."""
    tournament = factories.make_tournament(rounds=1)
    user = factories.make_user("lezer")
    entry = entry_services.entry_join(tournament_id=tournament.pk, user=user)
    position(
        monkeypatch,
        entry.game,
        south="Qs Ks ** 5c 9d 2h",
        west="2d 7c Jh 4s",
        stock_top="Th",
        open_top="Kd",
        table=[],
    )
    log_in(page, live_server.url, "lezer")
    page.goto(f"{live_server.url}/games/{entry.game.pk}/")
    settle(page)
    page.click("[data-testid=open-pile]")
    settle(page)
    card(page, "Kd").click()
    expect(page.locator("[data-testid=btn-discard]")).to_have_count(0)
    card(page, "Kd").click()
    card(page, "5c").click()
    expect(page.locator("[data-testid=btn-discard]")).to_be_visible()
    card(page, "5c").click()

    for code in ("Qs", "Ks", "**"):
        card(page, code).click()
    options = page.locator("[data-testid=joker-choice] option")
    expect(options).to_have_count(2)
    assert options.nth(0).inner_text() == "rij: ♠V ♠H [♠A]"
    assert options.nth(1).inner_text() == "rij: [♠B] ♠V ♠H"
    page.locator("[data-testid=joker-choice]").select_option(index=1)
    page.click("[data-testid=btn-lay]")
    settle(page)
    meld = page.locator("[data-testid=meld]").nth(0)
    assert meld.get_attribute("data-codes") == "** Qs Ks"
    assert meld.get_attribute("data-stands") == "Js - -"


def test_keyboard_alone_plays_the_jokeren_table_and_changes_are_announced(
    live_server: Any, page: Page
) -> None:
    tournament = factories.make_tournament(rounds=2, south_plays=(0, 1))
    factories.make_user("toetsenbord")
    log_in(page, live_server.url, "toetsenbord")
    game_id = join(page, live_server.url, tournament.pk)
    # The page's icon is served (and /favicon.ico leads to it).
    icon = page.get_attribute("link[rel=icon]", "href")
    assert icon
    response = page.request.get(urljoin(page.url, icon))
    assert response.ok and "svg" in response.headers["content-type"]
    assert page.request.get(urljoin(page.url, "/favicon.ico")).ok
    # On arrival the status is announced: your turn.
    expect(page.locator("[data-testid=announcer] p").last).to_have_text(
        page.inner_text("[data-testid=status]")
    )

    # Draw from the closed stock with Tab and Enter; the focus ring shows where you are.
    tab_to(page, "stock")
    assert focus_ring(page)
    page.keyboard.press("Enter")
    settle(page)
    assert table(page, "phase") == "play"
    # The focus went on to the hand; the arrow keys move it along the cards.
    assert page.evaluate(FOCUSED) == "hand-card"
    page.keyboard.press("End")
    page.keyboard.press("ArrowLeft")
    codes = page.eval_on_selector_all(
        "[data-testid=hand-card]", "els => els.map((e) => e.dataset.card)"
    )
    focused = page.evaluate("() => document.activeElement.dataset.card")
    assert focused == codes[-2]
    assert focus_ring(page)
    # Space selects the card, and Tab reaches the button to discard it.
    page.keyboard.press("Space")
    expect(page.locator(f"[data-testid=hand-card][data-card='{focused}']")).to_have_attribute(
        "aria-pressed", "true"
    )
    seq = int(table(page, "seq"))
    moves_before = page.locator("[data-testid=log] li").count()
    tab_to(page, "btn-discard")
    # Everything the live region says from now on (it keeps only its last lines).
    page.evaluate(LISTEN)
    page.keyboard.press("Enter")
    settle(page)
    # A bot that went out opens the round's end before the table takes the answer's seq.
    went_out = dialog_open(page)
    if went_out:  # the round's end is announced, and Enter closes it
        # (in everything said since the discard: the live region keeps only its last
        # lines, and the bots' moves may be announced after it)
        page.wait_for_function(
            "() => window.said.some((line) => line.startsWith('Ronde 1 is afgelopen'))"
        )
        page.keyboard.press("Enter")
        settle(page)
    assert int(table(page, "seq")) > seq
    assert api_get(page, game_id)["seq"] == int(table(page, "seq"))
    if not went_out:
        assert focused not in page.eval_on_selector_all(
            "[data-testid=hand-card]", "els => els.map((e) => e.dataset.card)"
        )
        # Every move was announced as it was shown (yours, then the bots'), then whose
        # turn it is.
        said = page.evaluate("() => window.said")
        log = page.eval_on_selector_all(
            "[data-testid=log] li", "els => els.map((e) => e.textContent)"
        )
        moves = log[moves_before:]
        assert any(m.startswith("West") for m in moves)
        assert [line for line in said if line in moves] == moves
        assert said[-1] == page.inner_text("[data-testid=status]")
    assert table(page, "your-turn") == "true"
    # The focus stayed at the table: the next draw is a Tab or two away.
    tab_to(page, "stock")
    page.keyboard.press("Enter")
    settle(page)
    assert table(page, "phase") == "play"


def test_keyboard_alone_bids_and_plays_at_the_klaverjas_table_and_shows_the_last_trick(
    live_server: Any, page: Page
) -> None:
    from tests.e2e.test_klaverjas import make_tournament, secret_where_the_bots_pass

    tournament = make_tournament(secret=secret_where_the_bots_pass())
    factories.make_user("klaver")
    log_in(page, live_server.url, "klaver")
    game_id = join(page, live_server.url, tournament.pk)
    assert table(page, "phase") == "bidding"
    # No trick yet: the button says so and shows nothing.
    last = page.locator("[data-testid=btn-last-trick]")
    expect(last).to_have_attribute("aria-disabled", "true")

    # Bid with Tab and Enter: play with the proposed trump.
    tab_to(page, "bid-play")
    assert focus_ring(page)
    page.keyboard.press("Enter")
    settle(page)
    assert table(page, "phase") == "play"
    assert table(page, "your-turn") == "true"
    # The focus went on to the hand, on a card that may be played; Enter plays it.
    assert page.evaluate(FOCUSED) == "hand-card"
    assert page.evaluate("() => document.activeElement.dataset.legal") == "true"
    name = page.evaluate("() => document.activeElement.getAttribute('aria-label')")
    played = int(page.evaluate("() => document.activeElement.dataset.card"))
    page.evaluate(LISTEN)
    page.keyboard.press("Enter")
    settle(page)
    payload = api_get(page, game_id)
    server = payload["observation"]
    assert played not in server["hand"]
    assert any(line.startswith("Slag voor") for line in page.evaluate("() => window.said"))
    # The first trick is complete (South played last): "Laatste slag" shows it, with the
    # card South played by its name.
    first = server["tricks"][0]
    assert any(p["card"] == played for p in first["plays"])
    expect(last).to_have_attribute("aria-disabled", "false")
    tab_to(page, "btn-last-trick")
    page.keyboard.press("Enter")
    shown_trick = page.locator("[data-testid=last-trick]")
    expect(shown_trick).to_be_visible()
    trick = server["tricks"][-1]
    for p in trick["plays"]:
        expect(shown_trick.locator(f"[data-testid=last-trick-card-{p['seat']}]")).to_have_attribute(
            "data-card", str(p["card"])
        )
    if trick is first:
        expect(shown_trick.locator("[data-testid=last-trick-card-0]")).to_have_attribute(
            "aria-label", name
        )
    # South's own trick is "Slag voor jou" (never "voor Jij"), another's names the seat.
    winner = "Slag voor jou" if trick["winner"] == 0 else payload["seat_names"][trick["winner"]]
    expect(page.locator("[data-testid=last-trick-winner]")).to_contain_text(winner)
    page.keyboard.press("Escape")
    assert not dialog_open(page)
