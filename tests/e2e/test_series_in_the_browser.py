"""Clubs in a real browser: an organizer creates a series whose first edition is due now
and sees it on the series page; the edition's standings download as CSV."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import factories
import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from tests.e2e.helpers import log_in
from tournaments.models import Series, Tournament
from tournaments.series import SERIES_TIMEZONE

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def downloads_page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(locale="nl-NL", accept_downloads=True)
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def test_create_a_series_see_its_first_edition_and_download_the_csv(
    live_server: Any, downloads_page: Page, tmp_path: Path
) -> None:
    page = downloads_page
    factories.make_user("clubleider", organizer=True)
    log_in(page, live_server.url, "clubleider")
    now = timezone.now().astimezone(SERIES_TIMEZONE)
    page.goto(f"{live_server.url}/series/")
    page.click("#new-series")
    page.fill("input[name=name]", "Clubavond Zoë")
    page.select_option("select[name=preset]", "jokeren:jokeren7")
    page.fill("input[name=rounds]", "1")
    page.select_option("select[name=kind]", "daily")
    page.fill("input[name=time_of_day]", f"{now:%H:%M}")
    page.fill("input[name=window_minutes]", "60")
    page.fill("input[name=starts_on]", f"{now:%Y-%m-%d}")
    page.fill("input[name=best_k]", "4")
    page.click("#create-series")
    page.wait_for_url("**/series/*/")
    series = Series.objects.get(name="Clubavond Zoë")
    edition = Tournament.objects.get(series=series)
    link = page.locator("#editions a", has_text=edition.name)
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url(f"**/tournaments/{edition.pk}/")
    with page.expect_download() as info:
        page.click("#standings-csv")
    target = tmp_path / "standings.csv"
    info.value.save_as(target)
    assert info.value.suggested_filename == f"tournament-{edition.pk}-standings.csv"
    text = target.read_bytes().decode("utf-8")
    assert text.startswith("\ufeffPlaats,Speler,Botaccount,Resultaat")


def test_the_series_form_submits_with_its_default_values_on_enter(
    live_server: Any, page: Page
) -> None:
    """Issue 35, items 3 and 4: the first day is filled in as the date field wants it
    (yyyy-mm-dd, not the Dutch 05-12-2026 the browser rejects and shows empty), and Enter
    in the name field creates the series instead of reloading the variant's settings."""
    factories.make_user("clubleider", organizer=True)
    log_in(page, live_server.url, "clubleider")
    page.goto(f"{live_server.url}/series/new/")
    today = timezone.localdate()
    expect(page.locator("#id_starts_on")).to_have_value(f"{today:%Y-%m-%d}")
    page.fill("#id_name", "Dinsdagavond")
    page.press("#id_name", "Enter")
    page.wait_for_url("**/series/*/")
    series = Series.objects.get(name="Dinsdagavond")
    assert series.starts_on == today
