"""At the Jokeren table (issue 23, items 8 and 9), in a real browser: the discard pile of the
round, browsable by tap and by key (who threw what, what was taken and by whom), and in a
practice game a tip (the strong bot's choice) and undo of your last action."""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

import factories
import pytest
from playwright.sync_api import Browser, Page, expect

from engine.cards import card_code, card_rank, hand_value
from engine.match import bot_move
from tests.e2e.conftest import TABLE_DELAY_MS
from tests.e2e.helpers import api_get, dialog_open, log_in, screenshot, settle, table
from tests.e2e.test_accessibility import axe_violations, describe
from tournaments.games import module_of
from tournaments.models import Game
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PLAYER = "oefenaar"


@pytest.fixture(autouse=True)
def _fixed_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Practice games dealt from SHA-256("table-practice:0"), ... in turn: the same deals
    at every run."""
    factories.fixed_secrets(monkeypatch, "table-practice")


def _south(obs: dict[str, Any], *, take_open: bool = False) -> dict[str, Any]:
    """South's plain strategy: draw (the open card if ``take_open``, else from the stock),
    then discard the card worth the most points (never a copy of the card taken)."""
    if obs["phase"] == "draw":
        return {"type": "draw", "source": "open" if take_open else "stock"}
    taken = obs.get("taken_from_open")
    cards = [c for c in obs["hand"] if taken is None or card_code(c) != card_code(taken)]
    return {"type": "discard", "card": max(cards, key=lambda c: (hand_value(card_rank(c)), c))}


def _south_turns(game: Game) -> int:
    """How many turns South gets in the current round playing ``_south`` (the open card in
    the first turn), the bots as the site plays them."""
    module = module_of(game.game)
    state = game.current_state()
    turns = 0
    while not state.is_terminal:
        if state.current_player == 0:
            obs = state.observation(0)
            turns += obs["phase"] == "draw"
            action = module.action_from_json(_south(obs, take_open=turns == 1))
            state = state.apply(action)
        else:
            state = bot_move(module, state, level=game.bot_level, version=game.bot_version).state
    return turns


def _practice(south_turns: int = 1) -> Game:
    """The player's practice game of Jokeren 7, South to move in round 0 (a bot may go out
    before) and getting ``south_turns`` turns in it at least (else the next deal)."""
    user = factories.make_user(PLAYER)
    for _ in range(40):
        game = entry_services.game_practice_start(user=user, game="jokeren", preset="jokeren7")
        ready = game.round_index == 0 and game.current_state().current_player == 0
        if ready and _south_turns(game) >= south_turns:
            return game
    raise AssertionError("no deal fits")


def _hand(page: Page) -> list[int]:
    return [
        int(cid)
        for cid in page.eval_on_selector_all(
            "[data-testid=hand-card]", "els => els.map(e => e.dataset.card)"
        )
    ]


def _turn(page: Page, game_id: int, *, take_open: bool = False) -> None:
    """South's turn at the table as ``_south`` plays it; a round's end is closed with
    "Volgende ronde"."""
    settle(page)
    assert table(page, "phase") == "draw" and table(page, "your-turn") == "true"
    page.click("[data-testid=open-pile]" if take_open else "[data-testid=stock]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=table]').dataset.phase === 'play'"
    )
    settle(page)
    card = _south(api_get(page, game_id)["observation"])["card"]
    page.click(f"[data-testid=hand-card][data-card='{card}']")
    page.click("[data-testid=btn-discard]")
    settle(page)
    while dialog_open(page):
        page.click("[data-testid=continue]")
        settle(page)


def _expected_pile(log: list[dict[str, Any]], seats: int) -> list[list[tuple[int, int | None]]]:
    """Each seat's discards of the round in order, with the seat that took the card from the
    open pile (``None``: not taken), from the API's public log: the pile as a stack."""
    rows: list[list[list[Any]]] = [[] for _ in range(seats)]
    pile: list[list[Any]] = []
    for entry in log:
        action = entry.get("action", {})
        if entry["type"] == "action" and action.get("type") == "discard":
            item = [action["card"], None]
            rows[entry["seat"]].append(item)
            pile.append(item)
        elif entry["type"] == "action" and action == {"type": "draw", "source": "open"}:
            if pile and pile[-1][0] == entry["card"]:
                pile.pop()[1] = entry["seat"]
        elif entry["type"] == "complete" and entry["to"] == "open_pile":
            pile.extend([card, None] for card in entry["cards"])
        elif entry["type"] == "reshuffle":
            pile[:-1] = []
    return [[(card, by) for card, by in row] for row in rows]


def _shown_pile(page: Page, seats: int) -> list[list[tuple[int, int | None]]]:
    """What the open pile view shows per seat: (card, the seat that took it or None)."""
    shown = []
    for s in range(seats):
        items = page.eval_on_selector_all(
            f"[data-testid=pile-view] [data-testid=pile-seat-{s}] [data-testid=pile-card]",
            "els => els.map(e => [Number(e.dataset.card), e.dataset.takenBy ?? null])",
        )
        shown.append([(card, None if by is None else int(by)) for card, by in items])
    return shown


def _pile_open(page: Page) -> bool:
    return bool(page.eval_on_selector("[data-testid=pile-view]", "d => d.open"))


def test_the_discard_pile_by_key_lists_the_rounds_discards_per_player(
    live_server: Any, page: Page
) -> None:
    game = _practice(south_turns=3)
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    # South takes the open card (a bot's discard) once, then draws from the stock.
    _turn(page, game.pk, take_open=True)
    _turn(page, game.pk)
    settle(page)
    assert table(page, "round") == "0"
    page.keyboard.press("o")
    expect(page.locator("[data-testid=pile-view]")).to_be_visible()
    expect(page.locator("[data-testid=pile-view] h2")).to_contain_text("Weggegooid in deze ronde")
    log = api_get(page, game.pk)["observation"]["log"]
    expected = _expected_pile(log, 4)
    assert _shown_pile(page, 4) == expected
    # every seat threw a card each turn, and the card South took is struck through
    assert all(expected[s] for s in range(4))
    taken = [(card, by) for row in expected for card, by in row if by == 0]
    assert len(taken) == 1
    mine = page.locator(f"[data-testid=pile-card][data-card='{taken[0][0]}']")
    expect(mine.locator("del")).to_have_count(1)
    expect(mine).to_contain_text("door jou gepakt")
    screenshot(page, "pile-view.png")
    expect(page.locator("[data-testid=pile-view] h3")).to_have_text(
        ["Jij", "West", "Noord", "Oost"]
    )
    # The same key closes it; the table's keys are untouched (O is no key of the table).
    page.keyboard.press("o")
    expect(page.locator("[data-testid=pile-view]")).to_be_hidden()
    page.keyboard.press("o")
    expect(page.locator("[data-testid=pile-view]")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("[data-testid=pile-view]")).to_be_hidden()

    # Play on into the next round: the view holds that round's discards only.
    for _ in range(60):
        if table(page, "round") != "0" or table(page, "status") != "playing":
            break
        _turn(page, game.pk)
    assert table(page, "round") == "1"
    settle(page)
    page.keyboard.press("o")
    expect(page.locator("[data-testid=pile-view]")).to_be_visible()
    log = api_get(page, game.pk)["observation"]["log"]
    assert _shown_pile(page, 4) == _expected_pile(log, 4)
    discards = sum(1 for e in log if e.get("action", {}).get("type") == "discard")
    assert page.locator("[data-testid=pile-card]").count() == discards


def test_the_discard_pile_by_tap_and_empty_at_a_new_rounds_start(
    live_server: Any, browser: Browser
) -> None:
    game = _practice()
    user = game.user
    # Rounds 0 to 2 played through the services; round 3 is dealt by East: South begins.
    while game.round_index < 3:
        action = factories.south_action(game)
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=action
        ).game
    assert game.current_state().current_player == 0 and game.current_state().turn == 0
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="nl-NL", has_touch=True, is_mobile=True
    )
    context.add_init_script(f"window.JK_TABLE_DELAY = {TABLE_DELAY_MS};")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        log_in(page, live_server.url, PLAYER)
        page.goto(f"{live_server.url}/games/{game.pk}/")
        settle(page)
        assert api_get(page, game.pk)["observation"]["log"] == []
        page.tap("[data-testid=btn-discards]")
        expect(page.locator("[data-testid=pile-view]")).to_be_visible()
        assert page.locator("[data-testid=pile-card]").count() == 0
        for s in range(4):
            expect(page.locator(f"[data-testid=pile-seat-{s}]")).to_have_text(
                "Nog niets weggegooid."
            )
        page.tap("[data-testid=pile-close]")
        expect(page.locator("[data-testid=pile-view]")).to_be_hidden()
        # A turn of South's and the bots': tapped open again, it lists them.
        _turn(page, game.pk)
        page.tap("[data-testid=btn-discards]")
        screenshot(page, "pile-view-phone.png")
        log = api_get(page, game.pk)["observation"]["log"]
        assert table(page, "round") == "3"
        expected = _expected_pile(log, 4)
        assert _shown_pile(page, 4) == expected
        assert expected[0] and page.locator("[data-testid=pile-card]").count() >= 2
    finally:
        context.close()
    assert not errors


def _hint_api(page: Page, game_id: int) -> dict[str, Any]:
    response = page.request.get(urljoin(page.url, f"/api/games/{game_id}/hint/"))
    assert response.ok
    data: dict[str, Any] = response.json()
    return data


def test_tip_and_undo_in_a_practice_game(live_server: Any, page: Page) -> None:
    game = _practice()
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    # Nothing of South's to take back yet.
    expect(page.locator("[data-testid=btn-undo]")).to_be_disabled()
    page.click("[data-testid=btn-hint]")
    expect(page.locator("[data-testid=hint]")).to_have_text(_hint_api(page, game.pk)["text"])
    expect(page.locator("[data-testid=hint]")).to_contain_text("De sterke bot had ")
    start = api_get(page, game.pk)
    start_hand = sorted(_hand(page))

    page.click("[data-testid=stock]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=table]').dataset.phase === 'play'"
    )
    settle(page)
    expect(page.locator("[data-testid=hint]")).to_have_count(0)  # the tip was for the draw
    after_draw = api_get(page, game.pk)
    drawn_hand = sorted(_hand(page))
    page.click("[data-testid=btn-hint]")
    tip = _hint_api(page, game.pk)
    expect(page.locator("[data-testid=hint]")).to_have_text(tip["text"])
    screenshot(page, "practice-tip.png")
    # axe-core: nothing serious with the tip shown, nor with the pile view open.
    assert not axe_violations(page), describe(axe_violations(page))
    page.click("[data-testid=btn-discards]")
    expect(page.locator("[data-testid=pile-view]")).to_be_visible()
    assert not axe_violations(page), describe(axe_violations(page))
    page.click("[data-testid=pile-close]")
    # Follow the tip when it is a discard, else discard the first card.
    card = tip["action"]["card"] if tip["action"]["type"] == "discard" else drawn_hand[0]
    page.click(f"[data-testid=hand-card][data-card='{card}']")
    page.click("[data-testid=btn-discard]")
    settle(page)
    assert int(table(page, "seq")) > after_draw["seq"] + 1  # the bots answered

    page.click("[data-testid=btn-undo]")
    settle(page)
    assert api_get(page, game.pk) == after_draw
    assert table(page, "seq") == str(after_draw["seq"]) and table(page, "phase") == "play"
    assert sorted(_hand(page)) == drawn_hand
    expect(page.locator("[data-testid=btn-discard]")).to_have_count(0)
    page.click("[data-testid=btn-undo]")
    settle(page)
    assert api_get(page, game.pk) == start
    assert table(page, "seq") == str(start["seq"]) and table(page, "phase") == "draw"
    assert sorted(_hand(page)) == start_hand
    expect(page.locator("[data-testid=btn-undo]")).to_be_disabled()
    # The table plays on from there.
    _turn(page, game.pk)
    assert int(table(page, "seq")) > start["seq"]


def test_a_tournament_table_has_no_tip_and_no_undo(
    live_server: Any, page: Page, tournament: Any
) -> None:
    user = factories.make_user(PLAYER)
    game = entry_services.entry_join(tournament_id=tournament.pk, user=user).game
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    expect(page.locator("[data-testid=btn-discards]")).to_be_visible()
    assert page.locator("[data-testid=btn-hint], [data-testid=btn-undo]").count() == 0
    assert page.get_attribute("[data-testid=table]", "data-undo-url") is None


def _klaverjas_click(page: Page, action: dict[str, Any]) -> None:
    """Make ``action`` (a legal action of South's) with the Klaverjas table's own controls."""
    if action["type"] == "play":
        page.click(f"[data-testid=hand-card][data-card='{action['card']}']")
    elif action["type"] == "choose_trump":
        page.click(f"[data-testid=choose-{action['suit']}]")
    elif not action.get("play"):
        page.click("[data-testid=bid-pass]")
    else:
        page.click(f"[data-testid=bid-play{'-' + action['suit'] if action.get('suit') else ''}]")
    settle(page)


def test_tip_and_undo_at_the_klaverjas_practice_table(live_server: Any, page: Page) -> None:
    """The Klaverjas table offers the same tip and undo in a practice game: the tip is
    the server's (the strong bot's choice, in words), following it and undoing it gives
    back exactly the position before, and a tournament's Klaverjas table has neither."""
    user = factories.make_user(PLAYER)
    game = entry_services.game_practice_start(user=user, game="klaverjas", preset="rotterdams")
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    for _ in range(40):  # until it is South's turn (the bots before South have acted)
        if table(page, "your-turn") == "true":
            break
        settle(page)
    assert table(page, "your-turn") == "true"
    expect(page.locator("[data-testid=btn-undo]")).to_be_disabled()
    # Before a tip is asked for, the practice box holds its buttons only (it once showed
    # the word "null" where the tip goes).
    expect(page.locator("[data-testid=practice]")).not_to_contain_text("null")
    start = api_get(page, game.pk)
    page.click("[data-testid=btn-hint]")
    tip = _hint_api(page, game.pk)
    expect(page.locator("[data-testid=hint]")).to_have_text(tip["text"])
    assert tip["text"].startswith("De sterke bot had ")
    assert not axe_violations(page), describe(axe_violations(page))

    _klaverjas_click(page, tip["action"])
    assert int(table(page, "seq")) > start["seq"]
    expect(page.locator("[data-testid=hint]")).to_have_count(0)  # it was for that position
    page.click("[data-testid=btn-undo]")
    settle(page)
    assert api_get(page, game.pk) == start
    assert table(page, "seq") == str(start["seq"])
    expect(page.locator("[data-testid=btn-undo]")).to_be_disabled()


def test_a_klaverjas_tournament_table_has_no_tip_and_no_undo(live_server: Any, page: Page) -> None:
    user = factories.make_user(PLAYER)
    t = factories.make_tournament(game="klaverjas", preset="rotterdams", south_plays=())
    game = entry_services.entry_join(tournament_id=t.pk, user=user).game
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    expect(page.locator("[data-testid=btn-last-trick]")).to_be_visible()
    assert page.locator("[data-testid=btn-hint], [data-testid=btn-undo]").count() == 0
    assert page.locator("[data-testid=practice]").is_hidden()
