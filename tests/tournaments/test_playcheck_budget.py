"""The deeper play check after the close has a budget, and the entries it has still to
check are provisional (docs/rules.md, "Fair play", rules 3 and 4; ``services.playcheck``;
issue 33 item 2): the standings page, the API and the CSV mark them until their check has
run; past ``PLAY_CHECK_SECONDS`` after the close no check starts a round, and what it did
not reach is recorded as not checked in full, keeping what the close's screen found. The
ratings are applied at the close; a flag of the deeper check takes the entry out of them
again. Staff see the checks in the admin, read only."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playcheck_helpers import field

from tournaments.models import Entry, EntryFlag, Game, PlayCheck, RatingChange, Tournament
from tournaments.selectors import standings as standing_selectors
from tournaments.services import closing as closing_services
from tournaments.services import fairplay as fairplay_services
from tournaments.services import playcheck
from tournaments.services import ratings as rating_services


def _closed(rounds: int) -> tuple[Tournament, dict[str, Entry]]:
    t, entries = field(rounds=rounds)
    closing_services.tournament_close(tournament_id=t.pk)
    t.refresh_from_db()
    return t, entries


def _provisional(t: Tournament) -> dict[str, bool]:
    return {s.username: s.provisional for s in standing_selectors.standings(tournament=t)}


def _api(t: Tournament) -> dict[str, dict[str, Any]]:
    body = Client().get(reverse("api_tournament_standings", args=[t.pk])).json()
    return {row["player"]: row for row in body["standings"]}


def _csv(t: Tournament) -> dict[str, dict[str, str]]:
    response = Client().get(reverse("tournament_standings_csv", args=[t.pk]))
    text = b"".join(response.streaming_content).decode("utf-8").lstrip("\ufeff")
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    return {row[1]: dict(zip(header, row, strict=True)) for row in rows[1:]}


def _page(t: Tournament) -> str:
    response = Client().get(reverse("tournament_detail", args=[t.pk]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.django_db
def test_screened_entries_are_provisional_until_their_check_has_run(
    django_capture_on_commit_callbacks: Any,
) -> None:
    t, entries = _closed(rounds=4)
    cheat, honest = entries["valsspeler"], entries["eerlijk"]
    # the ratings are applied at the close, the cheater's win with them
    rating_services.ratings_apply_tournament(tournament_id=t.pk)
    assert RatingChange.objects.filter(tournament=t, user=cheat.user).exists()
    assert not any(_provisional(t).values())
    assert _page(t).count('data-testid="provisional"') == 0  # cached as it is now

    playcheck.tournament_play_screen(tournament_id=t.pk)
    assert _provisional(t) == {"valsspeler": True, "eerlijk": True, "alleen-in": False}
    ranked = {s.username: s.rank for s in standing_selectors.standings(tournament=t)}
    assert ranked["valsspeler"] == 1 and ranked["eerlijk"] is not None  # ranked, marked
    html = _page(t)
    assert html.count('data-testid="provisional"') == 2
    assert ">voorlopig</span>" in html and 'data-testid="provisional-note"' in html
    rows = _api(t)
    assert {name: row["provisional"] for name, row in rows.items()} == {
        "valsspeler": True,
        "eerlijk": True,
        "alleen-in": False,
    }
    assert rows["valsspeler"]["rank"] == 1 and not rows["valsspeler"]["under_review"]
    assert {name: row["Voorlopig"] for name, row in _csv(t).items()} == {
        "valsspeler": "1",
        "eerlijk": "1",
        "alleen-in": "",
    }

    with django_capture_on_commit_callbacks(execute=True):
        assert playcheck.entry_play_check(entry_id=cheat.pk).flagged  # type: ignore[union-attr]
        assert not playcheck.entry_play_check(entry_id=honest.pk).flagged  # type: ignore[union-attr]
    assert not any(_provisional(t).values())
    html = _page(t)
    assert 'data-testid="provisional' not in html
    # the flag shows at once, though the page had cached the closed board before it
    assert '<ul class="under-review">' in html and "valsspeler" in html.split("under-review")[-1]
    rows = _api(t)
    assert not any(row["provisional"] for row in rows.values())
    assert rows["valsspeler"]["under_review"] and rows["valsspeler"]["rank"] is None
    assert rows["eerlijk"]["rank"] == 1
    assert not any(row["Voorlopig"] for row in _csv(t).values())  # the download, afresh
    # the flag took the cheater out of the ratings again (computed anew without it)
    assert not RatingChange.objects.filter(user=cheat.user).exists()


@pytest.mark.django_db
def test_an_entry_the_check_did_not_reach_in_time_keeps_the_screens_result(
    settings: Any,
) -> None:
    t, entries = _closed(rounds=4)
    cheat, honest = entries["valsspeler"], entries["eerlijk"]
    # what the close found: the cheater's entry linked to another account's
    fairplay_services.entry_flag(
        entry=cheat, kind=EntryFlag.Kind.LINKED, reason=("gekoppeld", "linked"), key="x"
    )
    assert set(playcheck.tournament_play_screen(tournament_id=t.pk)) == {cheat.pk, honest.pk}
    assert "flagged" in PlayCheck.objects.get(entry=cheat).reasons
    settings.PLAY_CHECK_SECONDS = 0  # the budget has run out: no round is started
    for entry in (cheat, honest):
        late = playcheck.entry_play_check(entry_id=entry.pk)
        assert late is not None and late.status == PlayCheck.Status.LATE
        assert late.decisions == 0 and late.checked_at is not None and not late.flagged
    # no flag of play; the linked entry stays under review, the honest one stays ranked
    assert not EntryFlag.objects.filter(kind=EntryFlag.Kind.PLAY).exists()
    assert Entry.objects.get(pk=cheat.pk).under_review
    assert not Entry.objects.get(pk=honest.pk).under_review
    assert not any(_provisional(t).values())
    rows = _api(t)
    assert rows["valsspeler"]["under_review"] and rows["eerlijk"]["rank"] == 1
    # the organizers' review says that the check did not finish in time
    organizer = Client()
    organizer.force_login(t.created_by)
    page = organizer.get(reverse("tournament_entries", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert page.status_code == 200 and 'data-player="valsspeler"' in html
    assert "did not finish in time (decisions checked: 0)" in html
    # a late check is kept: a time budget given back starts nothing again
    settings.PLAY_CHECK_SECONDS = 3600
    again = playcheck.entry_play_check(entry_id=cheat.pk)
    assert again is not None and again.status == PlayCheck.Status.LATE and again.decisions == 0


@pytest.mark.django_db
def test_checks_left_pending_past_the_budget_are_recorded_late(settings: Any) -> None:
    settings.PLAY_CHECK_SECONDS = 600
    t, entries = _closed(rounds=2)
    playcheck.tournament_play_screen(tournament_id=t.pk)
    assert t.closed_at is not None
    assert playcheck.play_check_deadline(tournament=t) == t.closed_at + timedelta(seconds=600)
    # within the budget the checks wait for their tasks
    assert playcheck.play_checks_expire(now=t.closed_at + timedelta(seconds=599)) == 0
    assert _provisional(t)["valsspeler"]
    # past it (their tasks lost, or never reached) they are not checked in full
    assert playcheck.play_checks_expire(now=t.closed_at + timedelta(seconds=600)) == 2
    assert set(PlayCheck.objects.values_list("status", "decisions", "flagged")) == {
        (PlayCheck.Status.LATE, 0, False)
    }
    assert not any(_provisional(t).values())
    assert playcheck.play_checks_expire(now=timezone.now() + timedelta(days=1)) == 0
    # a check's task delivered after that changes nothing
    late = playcheck.entry_play_check(entry_id=entries["valsspeler"].pk)
    assert late is not None and late.status == PlayCheck.Status.LATE and late.decisions == 0
    assert not Entry.objects.get(pk=entries["valsspeler"].pk).under_review


@pytest.mark.django_db
def test_no_round_is_checked_from_the_deadline_on() -> None:
    _t, entries = _closed(rounds=2)
    game = Game.objects.get(entry=entries["valsspeler"])
    now = timezone.now()
    assert playcheck._round_checks(game, until=now - timedelta(seconds=1)) == ([], False)
    checks, complete = playcheck._round_checks(game, until=now + timedelta(hours=1))
    assert complete and checks


@pytest.mark.django_db
def test_staff_see_the_play_checks_in_the_admin_read_only(client: Client) -> None:
    t, entries = _closed(rounds=2)
    playcheck.tournament_play_screen(tournament_id=t.pk)
    playcheck.entry_play_check(entry_id=entries["valsspeler"].pk)
    staff = factories.make_user("beheer", is_staff=True, is_superuser=True)
    client.force_login(staff)
    listed = client.get(reverse("admin:tournaments_playcheck_changelist"))
    assert listed.status_code == 200
    body = listed.content.decode()
    assert "valsspeler" in body and "eerlijk" in body
    pending = client.get(reverse("admin:tournaments_playcheck_changelist"), {"status": "pending"})
    assert "eerlijk" in pending.content.decode()
    assert "valsspeler" not in pending.content.decode()
    check = PlayCheck.objects.get(entry=entries["valsspeler"])
    url = reverse("admin:tournaments_playcheck_change", args=[check.pk])
    shown = client.get(url)
    assert shown.status_code == 200 and 'name="_save"' not in shown.content.decode()
    assert client.post(url, {"flagged": ""}).status_code == 403
    assert client.get(reverse("admin:tournaments_playcheck_add")).status_code == 403
    delete = reverse("admin:tournaments_playcheck_delete", args=[check.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert PlayCheck.objects.get(pk=check.pk).flagged == check.flagged
    # not staff: the admin's log-in
    client.force_login(factories.make_user("speler"))
    assert client.get(reverse("admin:tournaments_playcheck_changelist")).status_code == 302
