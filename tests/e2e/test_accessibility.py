"""An automated accessibility check in the real browser: axe-core (vendored in
tests/e2e/vendor, no network) runs on the site's main pages, Dutch and English, and finds
no violation of impact "serious" or "critical" (contrast, names, labels, landmarks...)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import factories
import pytest
from django.utils import timezone
from playwright.sync_api import Page

from tests.e2e.helpers import log_in, settle
from tournaments.models import Game, Tournament
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import results as result_services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
#: The impacts that fail the check.
BLOCKING = {"serious", "critical"}


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now, of a blocking impact."""
    page.add_script_tag(path=str(AXE))
    result: dict[str, Any] = page.evaluate("async () => await axe.run(document)")
    return [v for v in result["violations"] if v["impact"] in BLOCKING]


def describe(violations: list[dict[str, Any]]) -> str:
    return "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} -- "
        + "; ".join(str(n["target"]) + " " + n.get("failureSummary", "") for n in v["nodes"][:4])
        for v in violations
    )


def test_main_pages_have_no_serious_accessibility_violations(live_server: Any, page: Page) -> None:
    base = live_server.url
    # A tournament with a leaderboard: two entrants, one of them finished.
    jokeren = factories.make_tournament(name="Toegankelijk", rounds=1)
    organizer = factories.make_user("organisator", organizer=True)
    anna = factories.make_user("anna")
    factories.play_to_end(entry_services.entry_join(tournament_id=jokeren.pk, user=anna).game, anna)
    # A closed tournament: its games may be replayed.
    closed = factories.make_tournament(name="Gesloten", rounds=1)
    replayed, _ = factories.play_to_end(
        entry_services.entry_join(tournament_id=closed.pk, user=anna).game, anna
    )
    Tournament.objects.filter(pk=closed.pk).update(closes_at=timezone.now())
    closing_services.tournament_close(tournament_id=closed.pk)
    bram = factories.make_user("bram")
    entry_services.entry_join(tournament_id=jokeren.pk, user=bram)
    klaverjas = factories.make_tournament(
        name="Klaverjassen", game="klaverjas", preset="rotterdams", rounds=1, south_plays=()
    )
    result_services.standings_refresh(tournament=jokeren)
    kj_game = entry_services.entry_join(tournament_id=klaverjas.pk, user=bram).game
    jk_game = Game.objects.get(user=bram, entry__tournament=jokeren)

    pages: list[tuple[str, str]] = [
        ("home", "/"),
        ("sign-up", "/accounts/signup/"),
        ("log-in", "/accounts/login/"),
    ]
    failures: list[str] = []

    def check(name: str, path: str, *, table: bool = False) -> None:
        page.goto(f"{base}{path}")
        if table:
            settle(page)
        found = axe_violations(page)
        if found:
            failures.append(f"[{name} {path}]\n{describe(found)}")

    for name, path in pages:
        check(name, path)
    log_in(page, base, "bram")
    check("tournament", f"/tournaments/{jokeren.pk}/")
    check("jokeren table", f"/games/{jk_game.pk}/", table=True)
    # The same table with a card drawn and one selected: the buttons to play it show.
    page.click("[data-testid=stock]")
    settle(page)
    page.locator("[data-testid=hand-card]").first.click()
    found = axe_violations(page)
    if found:
        failures.append(f"[jokeren table, a card selected]\n{describe(found)}")
    # A long list of moves scrolls (as on a small screen, or late in a round): the keyboard
    # must reach it too.
    page.add_style_tag(content=".jk-log { max-height: 2.5em; }")
    assert page.locator("[data-testid=log]").evaluate("(e) => e.scrollHeight > e.clientHeight")
    found = axe_violations(page)
    if found:
        failures.append(f"[jokeren table, the moves list scrolling]\n{describe(found)}")
    check("klaverjas table", f"/games/{kj_game.pk}/", table=True)
    page.context.clear_cookies()
    log_in(page, base, "anna")
    check("my games", "/my-games/")
    check("replay", f"/games/{replayed.pk}/replay/")
    # The same in English.
    page.click("button[name=language][value=en]")
    page.wait_for_load_state()
    check("tournament (en)", f"/tournaments/{jokeren.pk}/")
    check("replay (en)", f"/games/{replayed.pk}/replay/")
    page.context.clear_cookies()
    log_in(page, base, organizer.username)
    check("organizer form", "/tournaments/new/")
    assert not failures, "\n\n".join(failures)
