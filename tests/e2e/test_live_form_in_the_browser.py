"""The organizer's form for a live club evening in a real browser (issue 36 item 2): the
evening's schedule shows once its box is ticked, the closing time hides then (the last
slot's end is the close), and what was filled in is the evening's schedule."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import factories
import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from tests.e2e.helpers import log_in
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_live_evenings_schedule_shows_when_its_box_is_ticked(
    live_server: Any, page: Page
) -> None:
    factories.make_user("avondleider", organizer=True)
    log_in(page, live_server.url, "avondleider")
    page.goto(f"{live_server.url}/tournaments/new/?preset=jokeren:jokeren7")
    for name in ("live_start", "live_slot_minutes", "live_pause_minutes"):
        expect(page.locator(f"[data-field={name}]")).to_be_hidden()
    expect(page.locator("[data-field=closes_at]")).to_be_visible()
    page.check("#id_live")
    for name in ("live_start", "live_slot_minutes", "live_pause_minutes"):
        expect(page.locator(f"[data-field={name}]")).to_be_visible()
    expect(page.locator("[data-field=closes_at]")).to_be_hidden()
    expect(page.locator("label[for=id_live_start]")).to_contain_text("Europe/Amsterdam")
    start = timezone.localtime() + timedelta(days=2)
    page.fill("#id_live_start", start.strftime("%Y-%m-%dT%H:%M"))
    page.fill("#id_live_slot_minutes", "15, 20")
    page.fill("#id_live_pause_minutes", "5")
    page.fill("#id_rounds", "3")
    page.fill("#id_name", "Donderdagavond")
    page.click("#save-tournament")
    page.wait_for_url("**/tournaments/*/")
    t = Tournament.objects.get(name="Donderdagavond")
    assert t.live and t.rounds == 3
    lengths = [int((c - o).total_seconds() // 60) for o, c in map(t.live_slot, range(3))]
    assert lengths == [15, 20, 20]
    assert t.live_slot(0)[0] == start.replace(second=0, microsecond=0)
    assert t.closes_at == t.live_slot(2)[1]
    expect(page.locator("[data-testid=live-link]")).to_be_visible()
    # unticked again on the edit page: the schedule hides, the closing time shows
    page.goto(f"{live_server.url}/tournaments/{t.pk}/edit/")
    expect(page.locator("[data-field=live_start]")).to_be_visible()
    page.uncheck("#id_live")
    expect(page.locator("[data-field=live_start]")).to_be_hidden()
    expect(page.locator("[data-field=closes_at]")).to_be_visible()
