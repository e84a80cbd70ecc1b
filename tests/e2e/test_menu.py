"""Issue 35, item 9: the brand names both games, and an organizer's whole menu fits one
line at 1366 px (the common laptop width)."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from playwright.sync_api import Browser, expect

from tests.e2e.helpers import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

#: The tops of the header's parts: the brand, every menu entry, the language switch.
TOPS = """() => [...document.querySelectorAll(
  '.site-nav > .brand, .site-menu-links > *:not(.spacer), .site-nav > .lang-switch')]
  .map((e) => e.getBoundingClientRect().top)"""


def test_the_organizers_menu_fits_one_line_at_1366(live_server: Any, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1366, "height": 768}, locale="nl-NL")
    page = context.new_page()
    factories.make_user("clubleider_vrijdag", organizer=True)
    log_in(page, live_server.url, "clubleider_vrijdag")
    page.goto(f"{live_server.url}/")
    expect(page.locator("[data-testid=brand]")).to_have_text("🃏 Jokeren & Klaverjassen")
    expect(page.locator(".site-menu-links a", has_text="Nieuw toernooi")).to_be_visible()
    tops = page.evaluate(TOPS)
    assert len(tops) >= 12 and max(tops) - min(tops) < 12, tops
    # On a 360 px phone the longer name still leaves the header one line, nothing cut off.
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{live_server.url}/")
    header = page.locator(".site-header").bounding_box()
    assert header is not None and header["height"] <= 56, header
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()
