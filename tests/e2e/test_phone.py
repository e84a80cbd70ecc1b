"""The site on a phone (issue 13, item 1): every page a visitor, a player or an organizer
can reach fits a 390 and a 360 px wide screen without sideways scrolling (wide tables
scroll inside their own box, long names wrap, forms fit), and the Jokeren table is played
by touch in portrait: the hand fits, every control is a finger-sized target on screen."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import time, timedelta
from typing import Any

import factories
import pytest
from django.contrib.auth.models import User
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import TABLE_DELAY_MS
from tests.e2e.helpers import ARTIFACTS, TABLE, dialog_open, log_in, settle, table
from tests.e2e.test_klaverjas import make_tournament as klaverjas_tournament
from tests.e2e.test_klaverjas import secret_where_the_bots_pass
from tournaments import analysis, services
from tournaments.models import Game, Tournament
from tournaments.series import series_create

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONES = [
    pytest.param({"width": 390, "height": 844}, id="390x844"),
    pytest.param({"width": 360, "height": 740}, id="360x740"),
]
#: Long names without a space: they must wrap, not widen the page.
PLAYER = "Wilhelmina_van_Oldenbarnevelt-Ravensteijn"
ORGANIZER = "Clubleider_Hendrik-Jan_Zuidervaart"
ENTRANTS = [
    "Anna",
    "Bartholomeus_Vanderbijlen-Achterberg",
    "Cor",
    "Dieuwertje_Kleinjan-Ostermeijer",
    "Evert",
]
LONG_TOURNAMENT = "Kampioenschap_Noord-Holland_Zuid-Holland_en_Utrecht_2026 open klasse"
#: Minimum size of a touch target, in CSS pixels (WCAG 2.5.8 asks 24, platforms 44-48).
TOUCH = 40

#: The document is not wider than the window; else the elements that stick out on the
#: right, outside any box that scrolls by itself, to say what is too wide.
FITS = """() => {
  const w = window.innerWidth;
  if (document.documentElement.scrollWidth <= w) return [];
  const clipped = (e) => {
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o !== 'visible' && p.getBoundingClientRect().right <= w + 0.5) return true;
    }
    return false;
  };
  return [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > w + 0.5 && !clipped(e))
    .slice(0, 6)
    .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)
    .concat([`scrollWidth ${document.documentElement.scrollWidth} > ${w}`]);
}"""


@dataclass
class Site:
    """The site's data and the pages each kind of visitor reaches."""

    visitor: list[str] = field(default_factory=list)
    player: list[str] = field(default_factory=list)
    organizer: list[str] = field(default_factory=list)
    tables: list[str] = field(default_factory=list)


def _close(t: Tournament) -> None:
    Tournament.objects.filter(pk=t.pk).update(closes_at=timezone.now())
    services.tournament_close(tournament_id=t.pk)


def _field(t: Tournament, names: list[str], *, scores: bool = True) -> list[Game]:
    """Entrants with these names in ``t``; with ``scores`` each has a finished round 1."""
    games = []
    for i, name in enumerate(names):
        user = User.objects.filter(username=name).first() or factories.make_user(name)
        game = services.entry_join(tournament_id=t.pk, user=user).game
        if scores:
            factories.set_rounds(game, [[5 * i, 20, 30 - i, 40]])
        games.append(game)
    services.standings_refresh(tournament=t)
    return games


def build_site() -> Site:
    organizer = factories.make_user(ORGANIZER, organizer=True)
    me = factories.make_user(PLAYER)
    site = Site()

    # An open Jokeren 7 tournament with a leaderboard of several entrants, me among them.
    open_t = factories.make_tournament(
        created_by=organizer, name=LONG_TOURNAMENT, preset="jokeren7", rounds=2
    )
    _field(open_t, ENTRANTS)
    jokeren7 = services.entry_join(tournament_id=open_t.pk, user=me).game
    # Jokeren 13 and Klaverjas tables.
    t13 = factories.make_tournament(created_by=organizer, name="Jokeren 13", preset="jokeren13")
    jokeren13 = services.entry_join(tournament_id=t13.pk, user=me).game
    tk = factories.make_tournament(
        created_by=organizer, name="Klaverjassen", game="klaverjas", preset="rotterdams"
    )
    _field(tk, ENTRANTS[:2], scores=False)
    klaverjas = services.entry_join(tournament_id=tk.pk, user=me).game
    # A closed tournament whose games were played to the end: replay, split, review.
    closed = factories.make_tournament(
        created_by=organizer, name=f"{LONG_TOURNAMENT} (gesloten)", rounds=1
    )
    others = [
        factories.play_to_end(g, g.user)[0] for g in _field(closed, ENTRANTS[:3], scores=False)
    ]
    mine, _ = factories.play_to_end(services.entry_join(tournament_id=closed.pk, user=me).game, me)
    _close(closed)
    closed_k = factories.make_tournament(
        created_by=organizer, name="Klaverjassen (gesloten)", game="klaverjas", preset="rotterdams"
    )
    mine_k, _ = factories.play_to_end(
        services.entry_join(tournament_id=closed_k.pk, user=me).game, me
    )
    _close(closed_k)
    # A score sheet (Klassiek has one), after a finished round.
    klassiek_t = factories.make_tournament(
        created_by=organizer, name="Klassiek", preset="klassiek", rounds=1
    )
    klassiek, _ = factories.play_to_end(
        services.entry_join(tournament_id=klassiek_t.pk, user=me).game, me
    )
    # What if: a practice game from a position of my finished game.
    what_if = analysis.game_what_if_start(user=me, source_id=mine.pk, round_index=0, start=2)
    # A practice game.
    practice = services.game_practice_start(
        user=me, game="jokeren", preset="jokeren13", bot_level="basic"
    )
    # A weekly series with an edition due now.
    now = timezone.localtime()
    series = series_create(
        created_by=organizer,
        name="Donderdagavond_Jokerclub_De_Vrolijke_Kaartschudders",
        game="jokeren",
        preset="jokeren7",
        rounds=2,
        kind="weekly",
        weekdays=[now.weekday()],
        time_of_day=time(0, 0),
        window_minutes=24 * 60 - 1,
        starts_on=now.date() - timedelta(days=7),
    )

    site.visitor = [
        "/",
        "/accounts/signup/",
        "/accounts/login/",
        f"/tournaments/{open_t.pk}/",
        f"/tournaments/{open_t.pk}/rules/",
        f"/tournaments/{open_t.pk}/verify/",
        f"/tournaments/{closed.pk}/",
        f"/tournaments/{closed.pk}/verify/",
        f"/tournaments/{closed_k.pk}/",
        f"/tournaments/{closed_k.pk}/verify/",
        "/rules/jokeren/jokeren13/",
        "/rules/jokeren/klassiek/",
        "/rules/klaverjas/rotterdams/",
        f"/games/{mine.pk}/replay/",
        f"/games/{mine_k.pk}/replay/",
        f"/games/{mine.pk}/split/?with=par",
        f"/games/{mine.pk}/split/?with={others[0].pk}",
        "/series/",
        f"/series/{series.pk}/",
        "/api/docs/",
    ]
    site.player = [
        "/",
        f"/tournaments/{open_t.pk}/",
        f"/tournaments/{closed.pk}/",
        "/my-games/",
        "/practice/",
        "/account/",
        f"/games/{mine.pk}/review/",
        f"/games/{mine_k.pk}/review/",
        f"/games/{klassiek.pk}/sheet/",
        f"/games/{mine.pk}/replay/",
    ]
    site.tables = [
        f"/games/{jokeren7.pk}/",
        f"/games/{jokeren13.pk}/",
        f"/games/{klaverjas.pk}/",
        f"/games/{what_if.pk}/",
        f"/games/{practice.pk}/",
        f"/games/{klassiek.pk}/",
    ]
    site.organizer = [
        "/",
        "/tournaments/new/",
        "/tournaments/new/?preset=jokeren:klassiek",
        "/tournaments/new/?preset=klaverjas:rotterdams",
        f"/tournaments/{open_t.pk}/",
        f"/tournaments/{open_t.pk}/edit/",
        f"/tournaments/{open_t.pk}/entries/",
        f"/tournaments/{closed.pk}/entries/",
        "/series/",
        "/series/new/",
        f"/series/{series.pk}/",
        "/account/",
    ]
    return site


def _phone_page(browser: Browser, viewport: dict[str, int]) -> Page:
    """A phone's browser: its screen size, touch events. Not Chromium's mobile emulation
    (``is_mobile``): that zooms a too wide page out to fit, and ``innerWidth`` grows."""
    context = browser.new_context(viewport=viewport, locale="nl-NL", has_touch=True)
    context.add_init_script(f"window.JK_TABLE_DELAY = {TABLE_DELAY_MS};")
    context.set_default_timeout(30_000)
    return context.new_page()


def _check(page: Page, base: str, path: str, problems: dict[str, list[str]], tag: str) -> None:
    response = page.goto(f"{base}{path}")
    assert response is not None and response.ok, f"{path}: {response and response.status}"
    if page.locator("[data-testid=table]").count():
        settle(page)
    page.wait_for_load_state("load")
    assert page.evaluate("() => window.innerWidth") == page.viewport_size["width"]
    wide = page.evaluate(FITS)
    if wide:
        problems[f"{tag} {path}"] = wide
        ARTIFACTS.mkdir(exist_ok=True)
        name = path.strip("/").replace("/", "_").replace("?", "_") or "home"
        page.screenshot(path=str(ARTIFACTS / f"phone-{tag}-{name}.png"), full_page=True)


@pytest.mark.parametrize("viewport", PHONES)
def test_every_page_fits_the_phone_without_sideways_scrolling(
    live_server: Any, browser: Browser, viewport: dict[str, int]
) -> None:
    site = build_site()
    tag = f"{viewport['width']}"
    problems: dict[str, list[str]] = {}
    errors: list[str] = []
    visited = 0
    for who, paths in (
        (None, site.visitor),
        (PLAYER, site.player + site.tables),
        (ORGANIZER, site.organizer),
    ):
        page = _phone_page(browser, viewport)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        if who is not None:
            log_in(page, live_server.url, who)
        for path in paths:
            _check(page, live_server.url, path, problems, f"{tag}-{who or 'visitor'}")
            visited += 1
        page.context.close()
    assert visited == len(site.visitor) + len(site.player) + len(site.tables) + len(site.organizer)
    if problems:
        (ARTIFACTS / f"phone-{tag}-problems.json").write_text(json.dumps(problems, indent=1))
    assert not problems, problems
    assert not errors, errors


# --- Playing by touch -------------------------------------------------------------------

#: Every visible control of the table with its box; a card in the hand counts only the
#: part that the next card does not cover (what a finger can hit).
TARGETS = """() => {
  const boxes = [];
  const hit = (e) => {
    const r = e.getBoundingClientRect();
    let w = r.width;
    const next = e.nextElementSibling;
    if (e.matches('[data-testid=hand-card]') && next) {
      const n = next.getBoundingClientRect();
      if (Math.abs(n.top - r.top) < 2 && n.left > r.left) w = Math.min(w, n.left - r.left);
    }
    return {w, h: r.height, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  const sel = '[data-testid=table] button, [data-testid=table] a, [data-testid=table] select';
  for (const e of document.querySelectorAll(sel)) {
    if (!e.offsetParent || e.disabled || e.closest('dialog, .jk-side, .kj-side')) continue;
    boxes.push({name: e.dataset.testid || e.textContent.trim().slice(0, 20), ...hit(e)});
  }
  return boxes;
}"""


def _targets_fit(page: Page) -> list[dict[str, Any]]:
    """The table's controls now on screen; asserts each is a finger-sized target inside
    the window's width."""
    width = page.evaluate("() => window.innerWidth")
    boxes: list[dict[str, Any]] = page.evaluate(TARGETS)
    small = [b for b in boxes if b["w"] < TOUCH - 0.5 or b["h"] < TOUCH - 0.5]
    outside = [b for b in boxes if b["left"] < -0.5 or b["right"] > width + 0.5]
    assert not small, [f"{b['name']} {b['w']:.0f}x{b['h']:.0f}" for b in small]
    assert not outside, [f"{b['name']} {b['left']:.0f}..{b['right']:.0f}" for b in outside]
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    return boxes


def _dialog_fits(page: Page) -> None:
    """The round-over dialog is open, inside the window's width, nothing in it wider than
    the dialog, and its "continue" button is a finger-sized target."""
    assert dialog_open(page)
    box = page.evaluate(
        """() => {
          const d = document.querySelector('[data-testid=dialog]');
          const r = d.getBoundingClientRect();
          return {left: r.left, right: r.right, scroll: d.scrollWidth, client: d.clientWidth};
        }"""
    )
    assert box["left"] >= 0 and box["right"] <= page.evaluate("() => window.innerWidth"), box
    assert box["scroll"] <= box["client"], box
    button = page.locator("[data-testid=continue]").bounding_box()
    assert button is not None and button["height"] >= TOUCH and button["width"] >= TOUCH


def _finger(page: Page, path: list[tuple[float, float]], *, hold_ms: int = 0) -> None:
    """A finger on the screen (Chromium's touch events, through the DevTools protocol):
    down at the path's first point, held ``hold_ms``, moved along the rest, lifted."""
    cdp = page.context.new_cdp_session(page)
    x, y = path[0]
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    if hold_ms:
        page.wait_for_timeout(hold_ms)
    for x, y in path[1:]:
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_finger_moves_a_card_to_another_row_of_a_wrapped_hand(
    live_server: Any, browser: Browser
) -> None:
    """Jokeren 13's hand wraps on a 360 px phone. A card held for a moment is lifted and
    follows the finger up to the first row; an upward swipe without the hold scrolls and
    moves no card."""
    t = factories.make_tournament(preset="jokeren13", rounds=1)
    me = factories.make_user(PLAYER)
    game = services.entry_join(tournament_id=t.pk, user=me).game
    page = _phone_page(browser, {"width": 360, "height": 740})
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    cards = page.locator("[data-testid=hand-card]")
    expect(cards).to_have_count(13)

    def order() -> list[str]:
        codes: list[str] = cards.evaluate_all("els => els.map((e) => e.dataset.card)")
        return codes

    def middle(i: int) -> tuple[float, float]:
        box = cards.nth(i).bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    cards.last.scroll_into_view_if_needed()
    tops = {round(middle(i)[1]) for i in range(13)}
    assert len(tops) >= 2, "the hand does not wrap at 360 px"
    before = order()
    (_x0, y0), (x1, y1) = middle(0), middle(12)
    assert y1 > y0 + 20  # the last card is on a lower row
    up = [(x1, y1 - (y1 - y0) * k / 10) for k in range(11)]
    # A swipe up without the hold: no card moves.
    _finger(page, up)
    page.wait_for_timeout(100)
    assert order() == before
    # Held, then moved straight up to the left half of the card above it: it goes before
    # that card (a finger moving up would scroll the page without the hold).
    cards.last.scroll_into_view_if_needed()  # the swipe scrolled the page
    x1, y1 = middle(12)
    top_row = min(round(middle(i)[1]) for i in range(13))
    above = min(
        (i for i in range(12) if round(middle(i)[1]) == top_row),
        key=lambda i: abs(middle(i)[0] - x1),
    )
    box = cards.nth(above).bounding_box()
    assert box is not None
    to = (box["x"] + box["width"] * 0.3, box["y"] + box["height"] / 2)
    assert abs(to[0] - x1) < abs(to[1] - y1)  # mostly upward
    path = [(x1 + (to[0] - x1) * k / 12, y1 + (to[1] - y1) * k / 12) for k in range(13)]
    _finger(page, path, hold_ms=450)
    expect(cards.nth(above)).to_have_attribute("data-card", before[12])
    assert order() == [*before[:above], before[12], *before[above:12]]
    # It was a drag, not a tap: nothing is selected.
    assert page.locator("[data-testid=hand-card][aria-pressed=true]").count() == 0
    page.context.close()


@pytest.mark.parametrize("viewport", PHONES)
def test_play_the_jokeren_table_by_touch_on_a_phone(
    live_server: Any, browser: Browser, viewport: dict[str, int]
) -> None:
    # Jokeren 13: the largest hand (13 cards, 14 after the draw).
    t = factories.make_tournament(preset="jokeren13", rounds=1)
    me = factories.make_user(PLAYER)
    game = services.entry_join(tournament_id=t.pk, user=me).game
    page = _phone_page(browser, viewport)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    cards = page.locator("[data-testid=hand-card]")
    naturals = page.locator("[data-testid=hand-card]:not([data-code='**'])")
    expect(cards).to_have_count(13)
    moves = 0
    for _turn in range(3):
        if table(page, "status") != "playing" or table(page, "phase") != "draw":
            break
        seq = int(table(page, "seq"))
        _targets_fit(page)
        page.tap("[data-testid=stock]")
        page.wait_for_function(f"() => +document.querySelector('{TABLE}').dataset.seq > {seq}")
        settle(page)
        assert table(page, "phase") == "play"
        expect(cards).to_have_count(14)
        names = {b["name"] for b in _targets_fit(page)}
        assert "hand-card" in names
        # The last card in the hand but a joker (never discarded): tap it, tap "discard".
        last = naturals.last
        last.scroll_into_view_if_needed()
        code = last.get_attribute("data-card")
        last.tap()
        expect(last).to_have_class(re.compile(r"\bis-selected\b"))
        discard = page.locator("[data-testid=btn-discard]")
        expect(discard).to_be_visible()
        _targets_fit(page)
        discard.tap()
        # The discard is taken, or a bot went out after it (a random deal): the round is over.
        page.wait_for_function(
            f"() => {{ const t = document.querySelector('{TABLE}');"
            f" return +t.dataset.seq > {seq + 1} || t.dataset.phase === 'over'; }}"
        )
        settle(page)
        moves += 2
        if table(page, "phase") == "over":
            break
        assert page.locator(f"[data-testid=hand-card][data-card='{code}']").count() == 0
    assert moves >= 2
    page.screenshot(path=str(ARTIFACTS / f"phone-touch-{viewport['width']}.png"), full_page=True)
    # On to the end of the round the same way (draw, discard the last card): the round-over
    # dialog with every hand fits the screen too.
    skip = 0
    for _step in range(200):
        if dialog_open(page):
            break
        if table(page, "phase") == "draw":
            stock = page.is_enabled("[data-testid=stock]")
            page.tap("[data-testid=stock]" if stock else "[data-testid=open-pile]")
            skip = 0
        else:
            card = naturals.nth(naturals.count() - 1 - skip)
            card.tap()
            page.tap("[data-testid=btn-discard]")
            settle(page)
            if page.is_visible("[data-testid=error]"):  # not this one: the next
                card.tap()
                skip += 1
        settle(page)
    _dialog_fits(page)
    page.screenshot(path=str(ARTIFACTS / f"phone-touch-dialog-{viewport['width']}.png"))
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("viewport", PHONES)
def test_bid_and_play_the_klaverjas_table_by_touch_on_a_phone(
    live_server: Any, browser: Browser, viewport: dict[str, int]
) -> None:
    t = klaverjas_tournament(secret=secret_where_the_bots_pass())
    me = factories.make_user(PLAYER)
    game = services.entry_join(tournament_id=t.pk, user=me).game
    page = _phone_page(browser, viewport)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    expect(page.locator("[data-testid=hand-card]")).to_have_count(8)
    assert table(page, "phase") == "bidding"
    names = {b["name"] for b in _targets_fit(page)}
    assert {"bid-play", "bid-pass"} <= names
    page.tap("[data-testid=bid-play]")
    settle(page)
    assert table(page, "phase") == "play"
    for _trick in range(3):
        settle(page)
        assert table(page, "your-turn") == "true"
        _targets_fit(page)
        legal = page.locator("[data-testid=hand-card][data-legal=true]")
        card = legal.last.get_attribute("data-card")
        before = int(table(page, "tricks"))
        legal.last.tap()
        settle(page)
        assert int(table(page, "tricks")) == before + 1
        assert page.locator(f"[data-testid=hand-card][data-card='{card}']").count() == 0
    page.screenshot(
        path=str(ARTIFACTS / f"phone-touch-klaverjas-{viewport['width']}.png"), full_page=True
    )
    # The other five tricks, then the round-over dialog fits the screen.
    for _trick in range(5):
        page.locator("[data-testid=hand-card][data-legal=true]").last.tap()
        settle(page)
    _dialog_fits(page)
    page.context.close()
    assert not errors, errors
