"""The site on a phone (issue 13, item 1): every page a visitor, a player or an organizer
can reach fits a 390 and a 360 px wide screen without sideways scrolling (wide tables
scroll inside their own box, long names wrap, forms fit), and the Jokeren table is played
by touch in portrait: the hand fits, every control is a finger-sized target on screen.

Issue 23, items 3 and 7: with touch and mobile emulation at 360x740 and 390x844 the whole
Jokeren table (other seats, piles, melds, status line, hand and its buttons) is inside the
screen after every move of a round of Jokeren 13, also with 22 melds on the table; the
site's menu folds behind one button; the links and choices after the game are at least
44 px; the per-deal tables show every row's result and %.

Issue 35, item 2: at both sizes and in both games the round ("Ronde 2 van 2") and the
running totals are on the first screen while playing (Klaverjas: with this deal's tricks
and points and "Laatste slag"), the Jokeren round-over dialog shows the running totals, and
every card of the hand offers 44 px to tap."""

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
from playwright.sync_api import Browser, Locator, Page, expect

from engine.cards import card_id_of, is_joker, parse_code
from engine.jokeren.melds import check_meld
from engine.jokeren.state import state_from_json
from tests.e2e.conftest import TABLE_DELAY_MS
from tests.e2e.helpers import ARTIFACTS, TABLE, deal_position, dialog_open, log_in, settle, table
from tests.e2e.test_klaverjas import make_tournament as klaverjas_tournament
from tests.e2e.test_klaverjas import secret_where_the_bots_pass
from tournaments.models import Game, Tournament
from tournaments.series import series_create
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import play as play_services
from tournaments.services import results as result_services
from tournaments.services import what_if as what_if_services

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
#: What every card of the hand offers to tap, the part the next card leaves free (issue 35,
#: item 2: the platforms' 44 px).
CARD_TOUCH = 44

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
    closing_services.tournament_close(tournament_id=t.pk)


def _field(t: Tournament, names: list[str], *, scores: bool = True) -> list[Game]:
    """Entrants with these names in ``t``; with ``scores`` each has a finished round 1."""
    games = []
    for i, name in enumerate(names):
        user = User.objects.filter(username=name).first() or factories.make_user(name)
        game = entry_services.entry_join(tournament_id=t.pk, user=user).game
        if scores:
            factories.set_rounds(game, [[5 * i, 20, 30 - i, 40]])
        games.append(game)
    result_services.standings_refresh(tournament=t)
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
    jokeren7 = entry_services.entry_join(tournament_id=open_t.pk, user=me).game
    # Jokeren 13 and Klaverjas tables.
    t13 = factories.make_tournament(created_by=organizer, name="Jokeren 13", preset="jokeren13")
    jokeren13 = entry_services.entry_join(tournament_id=t13.pk, user=me).game
    tk = factories.make_tournament(
        created_by=organizer, name="Klaverjassen", game="klaverjas", preset="rotterdams"
    )
    _field(tk, ENTRANTS[:2], scores=False)
    klaverjas = entry_services.entry_join(tournament_id=tk.pk, user=me).game
    # A closed tournament whose games were played to the end: replay, split, review.
    closed = factories.make_tournament(
        created_by=organizer, name=f"{LONG_TOURNAMENT} (gesloten)", rounds=1
    )
    others = [
        factories.play_to_end(g, g.user)[0] for g in _field(closed, ENTRANTS[:3], scores=False)
    ]
    mine, _ = factories.play_to_end(
        entry_services.entry_join(tournament_id=closed.pk, user=me).game, me
    )
    _close(closed)
    closed_k = factories.make_tournament(
        created_by=organizer, name="Klaverjassen (gesloten)", game="klaverjas", preset="rotterdams"
    )
    mine_k, _ = factories.play_to_end(
        entry_services.entry_join(tournament_id=closed_k.pk, user=me).game, me
    )
    _close(closed_k)
    # A score sheet (Klassiek has one), after a finished round.
    klassiek_t = factories.make_tournament(
        created_by=organizer, name="Klassiek", preset="klassiek", rounds=1
    )
    klassiek, _ = factories.play_to_end(
        entry_services.entry_join(tournament_id=klassiek_t.pk, user=me).game, me
    )
    # What if: a practice game from a position of my finished game.
    what_if = what_if_services.game_what_if_start(
        user=me, source_id=mine.pk, round_index=0, start=2
    )
    # A practice game.
    practice = entry_services.game_practice_start(
        user=me, game="jokeren", preset="jokeren13", bot_level="basic"
    )
    # A weekly series with an edition due now.
    now = timezone.localtime()
    series = series_create(
        created_by=organizer,
        club=factories.default_club(),
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


def _phone_page(browser: Browser, viewport: dict[str, int], *, mobile: bool = False) -> Page:
    """A phone's browser: its screen size, touch events; with ``mobile`` Chromium's mobile
    emulation too (``is_mobile``, a phone's pixel density). Without it for the pages that
    must not be too wide: mobile emulation zooms a too wide page out to fit, and
    ``innerWidth`` grows (the tests that use it check ``innerWidth``)."""
    context = browser.new_context(
        viewport=viewport,
        locale="nl-NL",
        has_touch=True,
        is_mobile=mobile,
        device_scale_factor=2 if mobile else 1,
    )
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
    small += [b for b in boxes if b["name"] == "hand-card" and b["w"] < CARD_TOUCH - 0.5]
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


#: The parts of the Jokeren table a player needs at every turn (issue 23, item 3): the
#: round and the running totals (issue 35, item 2), the other seats, the piles, the melds'
#: box, the status line, every card of the hand and every button under it (and the staged
#: melds or an error when shown). Each that is not
#: wholly inside the window, with its box; and the melds that stick out of their box
#: sideways (the box scrolls up and down only).
ONE_SCREEN = """() => {
  const w = window.innerWidth, h = window.innerHeight;
  const all = (s) => [...document.querySelectorAll(s)];
  const one = (t) => [[t, document.querySelector(`[data-testid=${t}]`)]];
  const parts = [
    ...all('[data-testid^=seat-]').filter((e) => !e.hidden).map((e) => [e.dataset.testid, e]),
    ...one('glance'), ...one('glance-round'), ...one('glance-totals'),
    ...one('stock'), ...one('open-pile'), ...one('melds'), ...one('status'),
    ...all('[data-testid=hand-card]').map((e) => [`hand-card ${e.dataset.code}`, e]),
    ...all('[data-testid=actions] > :not(.visually-hidden)')
      .map((e) => [e.dataset.testid || e.className, e]),
    ...all('[data-testid=staged], [data-testid=error]').filter((e) => !e.hidden)
      .map((e) => [e.dataset.testid, e]),
  ];
  const out = [];
  const box = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  for (const [name, e] of parts) {
    const r = e && e.getBoundingClientRect();
    if (!r || r.width < 1 || r.height < 1) out.push(`${name}: not shown`);
    else if (r.left < -0.5 || r.top < -0.5 || r.right > w + 0.5 || r.bottom > h + 0.5)
      out.push(`${name}: ${box(r)} outside ${w}x${h}`);
  }
  const melds = document.querySelector('[data-testid=melds]').getBoundingClientRect();
  for (const m of all('[data-testid=meld]')) {
    const r = m.getBoundingClientRect();
    if (r.left < melds.left - 0.5 || r.right > melds.right + 0.5)
      out.push(`meld ${m.dataset.codes}: ${box(r)} outside its box ${box(melds)}`);
  }
  return out;
}"""
#: How high the site's header may be on a phone: one line (a finger-sized button in it).
HEADER_MAX = 56


def _one_screen(page: Page) -> None:
    """The page scrolled to its top, the whole Jokeren table is inside the window (the
    site's header one line, its menu folded), nothing wider than the window."""
    page.evaluate("() => window.scrollTo(0, 0)")
    assert page.evaluate("() => window.innerWidth") == page.viewport_size["width"]
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= HEADER_MAX, header
    expect(page.locator(".site-menu-links")).to_be_hidden()
    problems: list[str] = page.evaluate(ONE_SCREEN)
    if problems:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "phone-not-one-screen.png"), full_page=True)
    assert not problems, problems
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


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
    game = entry_services.entry_join(tournament_id=t.pk, user=me).game
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
    """A whole round of Jokeren 13 by touch on a phone (mobile emulation): after every move
    the whole table is on the first screen (issue 23, item 3), and every control on it is
    a finger-sized target."""
    # Jokeren 13: the largest hand (13 cards, 14 after the draw).
    t = factories.make_tournament(preset="jokeren13", rounds=1)
    me = factories.make_user(PLAYER)
    game = entry_services.entry_join(tournament_id=t.pk, user=me).game
    page = _phone_page(browser, viewport, mobile=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    cards = page.locator("[data-testid=hand-card]")
    naturals = page.locator("[data-testid=hand-card]:not([data-code='**'])")
    expect(cards).to_have_count(13)
    _one_screen(page)
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
        _one_screen(page)
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
        _one_screen(page)
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
        _one_screen(page)
        assert page.locator(f"[data-testid=hand-card][data-card='{code}']").count() == 0
    assert moves >= 2
    page.screenshot(path=str(ARTIFACTS / f"phone-touch-{viewport['width']}.png"), full_page=True)
    # On to the end of the round the same way (draw, discard the last card), the table on
    # one screen after every move: the round-over dialog with every hand fits the screen too.
    _play_to_the_round_end(page)
    _dialog_fits(page)
    page.screenshot(path=str(ARTIFACTS / f"phone-touch-dialog-{viewport['width']}.png"))
    page.context.close()
    assert not errors, errors


def _play_to_the_round_end(page: Page) -> None:
    """Draw and discard the last natural card of the hand (or the one before it, if the
    rules refuse that one) until the round is over; the table is on one screen after every
    move."""
    naturals = page.locator("[data-testid=hand-card]:not([data-code='**'])")
    skip = 0
    for _step in range(200):
        if dialog_open(page):
            return
        _one_screen(page)
        if table(page, "phase") == "draw":
            stock = page.is_enabled("[data-testid=stock]")
            page.tap("[data-testid=stock]" if stock else "[data-testid=open-pile]")
            skip = 0
        else:
            card = naturals.nth(naturals.count() - 1 - skip)
            card.tap()
            _one_screen(page)
            page.tap("[data-testid=btn-discard]")
            settle(page)
            if page.is_visible("[data-testid=error]"):  # not this one: the next
                _one_screen(page)
                card.tap()
                skip += 1
        settle(page)
    pytest.fail("the round did not end")


#: Twenty-two melds on the table of a Jokeren 13 round (two decks), laid by West, East and
#: South in turn. The joker stands for the jack of clubs.
MANY_MELDS = [
    "Ac 2c 3c",
    "4d 5d 6d 7d",
    "9h Th Jh",
    "Js Qs Ks",
    "5c 5d 5h",
    "8c 8d 8s",
    "6s 7s 8s",
    "Kc Kd Kh",
    "Ac 2c 3c",
    "Qd Qh Qs",
    "6c 7c 8c 9c",
    "Td Jd Qd",
    "9c Tc **",
    "Ah As Ad",
    "9s Ts Js",
    "2s 3s 4s",
    "Jc Qc Kc",
    "6c 6d 6h",
    "Tc Th Ts",
    "Kd Kh Ks",
    "Ah 2h 3h",
    "2h 3h 4h 5h",
]
#: South's hand: 6h to lay off onto 2h-5h, a run and a group to lay down, six others.
MANY_MELDS_SOUTH = "7h 8h 9h 4s 4c 4d 6h 2d 3s 7s Jd Td Ad"


def _many_melds(monkeypatch: pytest.MonkeyPatch, game: Game) -> None:
    """Make the game's round a Jokeren 13 position with ``MANY_MELDS`` on the table and
    South, who has come out, to draw ``MANY_MELDS_SOUTH`` + 7d. West and East have come
    out too and hold three and two cards, North six and has not come out."""
    copies: dict[str, int] = {}

    def ids(codes: str) -> list[int]:
        out = []
        for code in codes.split():
            n = copies.get(code, 0)
            copies[code] = n + 1
            rank, suit = parse_code(code)
            joker = code == "**"
            out.append(card_id_of(rank, suit, deck=n // 2 if joker else n, joker_index=n % 2))
        return out

    melds = [check_meld(ids(codes), owner=(1, 3, 0)[i % 3]) for i, codes in enumerate(MANY_MELDS)]
    south, top = ids(MANY_MELDS_SOUTH), ids("7d")
    west, east = ids("2d 2s 7c"), ids("Jh 7h")
    placed = {*south, *top, *west, *east, *(c for m in melds for c in m.cards)}
    rest = [c for c in range(108) if c not in placed]
    naturals = [c for c in rest if not is_joker(c)]
    state = game.state
    state.update(
        hands=[south, west, naturals[:6], east],
        stock=top + naturals[7:] + [c for c in rest if is_joker(c)],
        open_pile=naturals[6:7],
        table=[m.to_json() for m in melds],
        removed=[],
        out=[True, True, False, True],
        current_player=0,
        phase="draw",
        came_out_this_turn=False,
        taken_from_open=None,
        log=[],
        move_count=0,
    )
    state_from_json(state)  # a state the engine accepts
    deal_position(monkeypatch, game, state)


@pytest.mark.parametrize("viewport", PHONES)
def test_the_jokeren_13_table_with_many_melds_fits_one_phone_screen(
    live_server: Any, browser: Browser, viewport: dict[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty-two melds on the table of Jokeren 13: on a phone the melds are small and scroll
    in their own box, and the table stays on one screen while South draws,
    lays off onto a meld scrolled out of sight, stages a run, lays it down with a group
    and plays the round out (issue 23, item 3). The screenshots of the README are taken here."""
    t = factories.make_tournament(preset="jokeren13", rounds=1)
    me = factories.make_user(PLAYER)
    game = entry_services.entry_join(tournament_id=t.pk, user=me).game
    _many_melds(monkeypatch, game)
    page = _phone_page(browser, viewport, mobile=True)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    melds = page.locator("[data-testid=meld]")
    expect(melds).to_have_count(len(MANY_MELDS))
    _one_screen(page)
    box = page.locator("[data-testid=melds]")
    # The melds' box scrolls up and down by itself: more melds than it shows at once.
    assert box.evaluate("(e) => getComputedStyle(e).overflowY") == "auto"
    assert box.evaluate("(e) => e.scrollHeight > e.clientHeight + 20")

    def card(code: str) -> Locator:
        return page.locator(f"[data-testid=hand-card][data-code='{code}']")

    def tap_cards(*codes: str) -> None:
        for code in codes:
            card(code).tap()
            expect(card(code)).to_have_attribute("aria-pressed", "true")

    page.tap("[data-testid=stock]")
    settle(page)
    expect(page.locator("[data-testid=hand-card]")).to_have_count(14)
    _one_screen(page)
    # 6h fits 2h-5h, the last meld: the box shows it only after scrolling.
    tap_cards("6h")
    expect(page.locator("[data-testid=btn-lay-off]")).to_be_visible()
    _one_screen(page)
    tag = f"{viewport['width']}x{viewport['height']}"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"phone-{tag}.png"))  # docs/screenshots/
    page.tap("[data-testid=btn-lay-off]")
    target = page.locator("[data-testid=meld].is-pickable")
    expect(target).to_have_count(1)
    assert target.get_attribute("data-codes") == "2h 3h 4h 5h"
    seen, hidden = box.bounding_box(), target.bounding_box()
    assert seen is not None and hidden is not None
    assert hidden["y"] >= seen["y"] + seen["height"]  # below the box's end, out of sight
    _one_screen(page)
    target.tap()  # scrolled into view inside its box; the page stays where it is
    settle(page)
    assert card("6h").count() == 0
    expect(page.locator("[data-testid=meld][data-codes='2h 3h 4h 5h 6h']")).to_have_count(1)
    _one_screen(page)
    # A run selected: its buttons; staged; a group with it; both laid down.
    tap_cards("7h", "8h", "9h")
    expect(page.locator("[data-testid=btn-stage]")).to_be_visible()
    _one_screen(page)
    page.tap("[data-testid=btn-stage]")
    expect(page.locator("[data-testid=staged]")).to_be_visible()
    _one_screen(page)
    tap_cards("4s", "4c", "4d")
    _one_screen(page)
    page.tap("[data-testid=btn-stage]")
    expect(page.locator("[data-testid=btn-lay-staged]")).to_be_visible()
    _one_screen(page)
    page.tap("[data-testid=btn-lay-staged]")
    settle(page)
    expect(melds).to_have_count(len(MANY_MELDS) + 2)
    _one_screen(page)
    tap_cards("7d")
    _one_screen(page)
    page.tap("[data-testid=btn-discard]")
    settle(page)
    # The rest of the round (West goes out at once), on one screen after every move.
    _play_to_the_round_end(page)
    _dialog_fits(page)
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("viewport", PHONES)
def test_bid_and_play_the_klaverjas_table_by_touch_on_a_phone(
    live_server: Any, browser: Browser, viewport: dict[str, int]
) -> None:
    t = klaverjas_tournament(secret=secret_where_the_bots_pass())
    me = factories.make_user(PLAYER)
    game = entry_services.entry_join(tournament_id=t.pk, user=me).game
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


# --- The round and the running totals at a glance (issue 35, item 2) -----------------------


def _to_round(game: Game, user: User, round_index: int) -> Game:
    """``game`` played through the service (South as the basic bot) until round
    ``round_index`` is being played, South to move."""
    game.refresh_from_db()
    while game.round_index < round_index and game.status == "playing":
        game = play_services.game_play_move(
            game_id=game.pk, user=user, seq=game.seq, action=factories.south_action(game)
        ).game
    assert game.round_index == round_index and game.status == "playing"
    return game


def _glance_in_sight(page: Page, round_text: str, totals_text: str) -> None:
    """At the top of the page, the round and the running totals are inside the screen."""
    page.evaluate("() => window.scrollTo(0, 0)")
    height = page.evaluate("() => window.innerHeight")
    width = page.evaluate("() => window.innerWidth")
    expect(page.locator("[data-testid=glance-round]")).to_have_text(round_text)
    expect(page.locator("[data-testid=glance-totals]")).to_have_text(totals_text)
    for testid in ("glance-round", "glance-totals"):
        box = page.locator(f"[data-testid={testid}]").bounding_box()
        assert box is not None, testid
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (testid, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (testid, box)


@pytest.mark.parametrize("viewport", PHONES)
def test_the_jokeren_round_and_running_totals_stay_in_sight_and_the_round_end_shows_them(
    live_server: Any, browser: Browser, viewport: dict[str, int]
) -> None:
    """Round 2 of a Jokeren 7 game on a phone: "Ronde 2 van 2" and every seat's running
    total are on the first screen at every move (with the rest of the table), and the
    round-over dialog shows the running totals beside the round's points."""
    t = factories.make_tournament(preset="jokeren7", rounds=2, south_plays=(0, 1))
    me = factories.make_user(PLAYER)
    game = _to_round(entry_services.entry_join(tournament_id=t.pk, user=me).game, me, 1)
    before = list(game.totals)
    page = _phone_page(browser, viewport, mobile=True)
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    names = ["Jij", "West", "Noord", "Oost"]
    shown = "Totaal: " + " · ".join(f"{n} {p}" for n, p in zip(names, before, strict=True))
    _glance_in_sight(page, "Ronde 2 van 2", shown)
    _one_screen(page)
    _targets_fit(page)
    _play_to_the_round_end(page)
    _dialog_fits(page)
    game.refresh_from_db()
    last = game.round_scores[-1]
    for s in range(4):
        expect(page.locator(f"[data-testid=round-score-{s}]")).to_have_text(str(last[s]))
        expect(page.locator(f"[data-testid=round-total-{s}]")).to_have_text(str(game.totals[s]))
    assert game.totals != last  # round 1 counted: running totals, not the round's points
    # The tournament runs: the others' cards are counted, not shown (issue 36, item 3);
    # your own are shown.
    for s in (1, 2, 3):
        expect(page.locator(f"[data-testid=round-count-{s}]")).to_have_text(
            re.compile(r"^(1 kaart|\d+ kaarten)$")
        )
        expect(page.locator(f"[data-testid=round-hand-{s}]")).to_have_count(0)
    expect(page.locator("[data-testid=round-hand-0] [data-card]")).to_have_count(
        page.locator("[data-testid=hand-card]").count()
    )
    page.screenshot(path=str(ARTIFACTS / f"phone-round-over-{viewport['width']}.png"))
    page.context.close()


@pytest.mark.parametrize("viewport", PHONES)
def test_the_klaverjas_round_and_running_totals_stay_in_sight(
    live_server: Any, browser: Browser, viewport: dict[str, int]
) -> None:
    """Round 2 of a Klaverjas game on a phone: "Ronde 2 van 16", the running totals of
    both teams, this deal's tricks and points and "Laatste slag" are on the first screen,
    above the hand, while bidding and playing."""
    t = klaverjas_tournament(rounds=16)
    me = factories.make_user(PLAYER)
    game = _to_round(entry_services.entry_join(tournament_id=t.pk, user=me).game, me, 1)
    we, they = game.totals[:2]  # per seat: South, West (North and East the same)
    page = _phone_page(browser, viewport, mobile=True)
    log_in(page, live_server.url, PLAYER)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    settle(page)
    totals = f"Totaal: Wij {we} · Zij {they}"
    _glance_in_sight(page, "Ronde 2 van 16", totals)
    expect(page.locator("[data-testid=glance-deal]")).to_have_text("Slagen 0–0 · Kaartpunten 0–0")
    ARTIFACTS.mkdir(exist_ok=True)
    tag = f"{viewport['width']}x{viewport['height']}"
    page.screenshot(path=str(ARTIFACTS / f"phone-klaverjas-{tag}.png"))
    height = page.evaluate("() => window.innerHeight")
    last_trick = page.locator("[data-testid=glance-last-trick]")
    for _move in range(12):
        if table(page, "phase") == "play" and int(table(page, "tricks")) >= 1:
            break
        _glance_in_sight(page, "Ronde 2 van 16", totals)
        _targets_fit(page)
        for card in page.locator("[data-testid=hand-card]").all():
            box = card.bounding_box()
            assert box is not None and box["y"] + box["height"] <= height, box
        bids = page.locator("[data-testid=bidding] button")
        if bids.count():
            bids.first.tap()
        else:
            page.locator("[data-testid=hand-card][data-legal=true]").last.tap()
        settle(page)
    assert int(table(page, "tricks")) >= 1
    _glance_in_sight(page, "Ronde 2 van 16", totals)
    expect(page.locator("[data-testid=glance-deal]")).to_contain_text("Slagen ")
    box = last_trick.bounding_box()
    assert box is not None and box["y"] + box["height"] <= height, box
    last_trick.tap()
    expect(page.locator("[data-testid=last-trick]")).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / f"phone-klaverjas-glance-{viewport['width']}.png"))
    page.context.close()


# --- The site's menu and finger-sized targets after the game (issue 23, items 3 and 7) ----


@pytest.mark.parametrize("viewport", PHONES)
def test_the_site_menu_folds_into_one_button_on_a_phone(
    live_server: Any, browser: Browser, viewport: dict[str, int]
) -> None:
    """On a phone the header is one line: the site's name, a menu button and NL/EN. The
    button opens the menu by touch or keyboard (Escape or a tap elsewhere folds it); on a
    wide screen the menu is open on the header and has no button."""
    factories.make_user(PLAYER, organizer=True)
    page = _phone_page(browser, viewport, mobile=True)
    log_in(page, live_server.url, PLAYER)
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= HEADER_MAX
    button = page.locator("[data-testid=menu-button]")
    links = page.locator(".site-menu-links a, .site-menu-links button")
    expect(links.first).to_be_hidden()
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44 and box["width"] >= 44
    assert box["x"] + box["width"] <= viewport["width"]
    # By touch: every item of the menu is shown below the header, a finger-sized target.
    button.tap()
    expect(links.first).to_be_visible()
    texts = links.all_inner_texts()
    assert {"Toernooien", "Mijn spellen", "Nieuw toernooi", "Uitloggen"} <= set(texts), texts
    for i in range(links.count()):
        item = links.nth(i).bounding_box()
        assert item is not None and item["height"] >= 44, (texts[i], item)
        assert item["y"] >= header["height"] - 0.5, (texts[i], item)
        assert item["x"] >= 0 and item["x"] + item["width"] <= viewport["width"] + 0.5, (
            texts[i],
            item,
        )
    # A tap elsewhere (the page's margin, near the bottom of the screen) folds it.
    page.touchscreen.tap(4, viewport["height"] - 4)
    expect(links.first).to_be_hidden()
    # By keyboard: Tab to the button, Enter opens, Tab reaches the items, Escape folds the
    # menu and goes back to its button.
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    expect(button).to_be_focused()
    page.keyboard.press("Enter")
    expect(links.first).to_be_visible()
    page.keyboard.press("Tab")
    expect(links.first).to_be_focused()
    page.keyboard.press("Escape")
    expect(links.first).to_be_hidden()
    expect(button).to_be_focused()
    page.context.close()
    # A wide screen: the menu on the header as it was, no button.
    wide = browser.new_context(viewport={"width": 1280, "height": 900}, locale="nl-NL")
    page = wide.new_page()
    log_in(page, live_server.url, PLAYER)
    expect(page.locator("[data-testid=menu-button]")).to_be_hidden()
    expect(page.locator(".site-menu-links a", has_text="Mijn spellen")).to_be_visible()
    wide.close()


#: The boxes of the elements that match a selector: (text, width, height, left, right).
BOXES = """(sel) => [...document.querySelectorAll(sel)].map((e) => {
  const r = e.getBoundingClientRect();
  return [e.textContent.trim().slice(0, 20), r.width, r.height, r.left, r.right];
})"""


@pytest.mark.parametrize("viewport", PHONES)
def test_after_the_game_the_links_and_choices_are_finger_sized_on_a_phone(
    live_server: Any, browser: Browser, viewport: dict[str, int]
) -> None:
    """Touch targets of at least 44 by 44 px on a phone (issue 23, item 7): the round links
    of the review and the replay, the split view's choices, NL/EN and the menu button; the
    tournament's per-deal tables show the result and % of every row on the screen."""
    organizer = factories.make_user(ORGANIZER, organizer=True)
    me = factories.make_user(PLAYER)
    closed = factories.make_tournament(
        created_by=organizer, name=LONG_TOURNAMENT, rounds=2, south_plays=()
    )
    others = [factories.play_to_end(g, g.user)[0] for g in _field(closed, ENTRANTS, scores=False)]
    mine, _ = factories.play_to_end(
        entry_services.entry_join(tournament_id=closed.pk, user=me).game, me
    )
    _close(closed)
    page = _phone_page(browser, viewport, mobile=True)
    log_in(page, live_server.url, PLAYER)
    width = viewport["width"]
    targets = {
        f"/games/{mine.pk}/review/": ".replay-rounds a",
        f"/games/{mine.pk}/replay/": ".replay-rounds a",
        f"/games/{mine.pk}/split/?with={others[1].pk}": ".split-choice :is(select, button)",
        f"/tournaments/{closed.pk}/": ".lang-switch button, [data-testid=menu-button]",
    }
    small: list[str] = []
    for path, selector in targets.items():
        page.goto(f"{live_server.url}{path}")
        assert page.evaluate("() => window.innerWidth") == width, path
        boxes = page.evaluate(BOXES, selector)
        assert boxes, (path, selector)
        small += [
            f"{path} {text!r} {w:.0f}x{h:.0f} at {left:.0f}..{right:.0f}"
            for text, w, h, left, right in boxes
            if w < 44 - 0.5 or h < 44 - 0.5 or left < -0.5 or right > width + 0.5
        ]
    assert not small, small
    # The tournament's page: per deal, every row's result and % inside the screen.
    page.goto(f"{live_server.url}/tournaments/{closed.pk}/")
    rows = page.locator("table.deal tbody tr:not(.gap)")
    assert rows.count() >= 2 * (len(ENTRANTS) + 1)
    cells = page.evaluate(
        """() => [...document.querySelectorAll('table.deal tbody tr:not(.gap)')].flatMap((tr) =>
          [4, 5].map((i) => {
            const td = tr.children[i], r = td.getBoundingClientRect();
            return [tr.children[1].textContent.trim().slice(0, 12), i, td.textContent.trim(),
                    r.left, r.right, r.width];
          }))"""
    )
    outside = [c for c in cells if c[3] < -0.5 or c[4] > width + 0.5 or c[5] < 1]
    assert not outside, outside
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    ARTIFACTS.mkdir(exist_ok=True)
    page.locator("table.deal").first.evaluate("(e) => e.scrollIntoView()")
    page.screenshot(path=str(ARTIFACTS / f"phone-deals-{width}.png"))
    page.context.close()
