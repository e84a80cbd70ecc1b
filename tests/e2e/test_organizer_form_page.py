"""The organizer's form in a real browser (issue 13, item 6): the contracts are chosen per
round in an editor (one row per round, rows following the number of rounds) instead of
typing JSON; fields that do not apply are hidden as the opening changes; the time zone
stands at the opening and closing times; what the editor chose is what the tournament
plays."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from playwright.sync_api import Page, expect

from engine.jokeren import PRESETS
from tests.e2e.helpers import log_in
from tournaments.models import Tournament

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROWS = "[data-testid=contract-row]"


def _open_form(page: Page, base_url: str, preset: str) -> None:
    """An organizer's new-tournament form for ``preset``."""
    factories.make_user("clubleider", organizer=True)
    log_in(page, base_url, "clubleider")
    page.goto(f"{base_url}/tournaments/new/?preset={preset}")


def _submit(page: Page, name: str) -> Tournament:
    """Name the tournament, create it and return it."""
    page.fill("#id_name", name)
    page.click("#save-tournament")
    page.wait_for_url("**/tournaments/*/")
    return Tournament.objects.get(name=name)


def _chosen(page: Page) -> list[str]:
    """The contract chosen in each row, by its shown name."""
    return page.locator(f"{ROWS} select").evaluate_all(
        "ss => ss.map((s) => s.options[s.selectedIndex].text)"
    )


def test_contracts_are_chosen_per_round_and_fields_follow_the_opening(
    live_server: Any, page: Page
) -> None:
    _open_form(page, live_server.url, "jokeren:klassiek")
    contracts = PRESETS["klassiek"].to_json()["contracts"]
    names = [c["description_nl"] for c in contracts]

    # One row per round (Klassiek: 6), each with the preset's contract; no JSON to type.
    expect(page.locator(ROWS)).to_have_count(6)
    assert _chosen(page) == names
    expect(page.locator("#id_v_contracts")).to_be_hidden()
    expect(page.locator("[data-field=v_opening_points]")).to_be_hidden()
    expect(page.locator("label[for=id_opens_at]")).to_contain_text("Europe/Amsterdam")
    expect(page.locator("label[for=id_closes_at]")).to_contain_text("Europe/Amsterdam")

    # More rounds: the rows follow, the contracts going round again; fewer: rows go.
    page.fill("#id_rounds", "8")
    expect(page.locator(ROWS)).to_have_count(8)
    assert _chosen(page) == names + names[:2]
    page.fill("#id_rounds", "4")
    expect(page.locator(ROWS)).to_have_count(4)
    assert _chosen(page) == names[:4]

    # Another contract for round 2 (by its name), from the other presets' too.
    other = PRESETS["vijf-rondes"].to_json()["contracts"][3]
    page.locator(f"{ROWS} select").nth(1).select_option(label=other["description_nl"])

    # The points opening: the opening points show, the contracts hide; and back.
    page.select_option("#id_v_opening", "points")
    expect(page.locator("[data-field=v_opening_points]")).to_be_visible()
    expect(page.locator("[data-field=v_contracts]")).to_be_hidden()
    # What is hidden is not sent (the server would ignore it).
    expect(page.locator("#id_v_contracts")).to_be_disabled()
    expect(page.locator("#id_v_opening_points")).to_be_enabled()
    page.select_option("#id_v_opening", "contract")
    expect(page.locator("[data-field=v_contracts]")).to_be_visible()
    expect(page.locator("[data-field=v_opening_points]")).to_be_hidden()

    t = _submit(page, "Potjesavond")
    assert t.rounds == 4
    assert t.variant["contracts"] == [contracts[0], other, contracts[2], contracts[3]]


def test_the_points_opening_creates_a_tournament_without_contracts(
    live_server: Any, page: Page
) -> None:
    _open_form(page, live_server.url, "jokeren:klassiek")
    page.select_option("#id_v_opening", "points")
    page.fill("#id_v_opening_points", "50")
    t = _submit(page, "Vijftigen")
    assert t.variant["opening"] == "points" and t.variant["opening_points"] == 50
    assert t.variant["contracts"] == []


def test_a_hidden_field_left_empty_does_not_stop_the_form(live_server: Any, page: Page) -> None:
    _open_form(page, live_server.url, "jokeren:jokeren13")
    expect(page.locator("[data-field=v_opening_points]")).to_be_hidden()
    # Empty, it would fail the browser's check of a required field the player cannot see.
    page.eval_on_selector("#id_v_opening_points", "i => { i.value = ''; }")
    t = _submit(page, "Zonder eis")
    assert t.variant["opening"] == "none" and t.variant["opening_points"] == 40


def test_enter_in_the_name_field_creates_the_tournament(live_server: Any, page: Page) -> None:
    """Issue 35, item 4: Enter in the name field submits the form with the default values;
    it does not press "Instellingen van deze variant laden" (which reloads the page)."""
    _open_form(page, live_server.url, "jokeren:jokeren7")
    page.fill("#id_name", "Vrijdagavond")
    page.press("#id_name", "Enter")
    page.wait_for_url("**/tournaments/*/")
    assert Tournament.objects.filter(name="Vrijdagavond", preset="jokeren7").exists()
