"""The organizer's fair-play review (docs/rules.md, "Fair play"): the entries page lists
the flagged entries with their evidence in words and the decision buttons; the standings
API gives the reasons (the flag's words to the organizers, the kind's name to others);
staff see an account's flags across clubs and lift its bar."""

from __future__ import annotations

from typing import Any

import factories
import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tournaments.models import Entry, PlayBar, Sighting
from tournaments.services import entries as entry_services
from tournaments.services import fairplay as fairplay_services

pytestmark = pytest.mark.django_db

PLAY = ("7 van 9 beslissingen kozen de beste zet met kennis van de kaarten", "7 of 9 decisions")


def _linked_field(organizer: Any) -> tuple[Any, Entry, Entry]:
    t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=())
    anna = factories.make_user("anna", email="anna@example.org")
    bert = factories.make_user("bert", email="bert@example.org")
    for user in (anna, bert):
        Sighting.objects.create(
            user=user, kind="login", device="f" * 32, network="203.0.113.0/24", user_agent="Firefox"
        )
    a = entry_services.entry_join(tournament_id=t.pk, user=anna)
    b = entry_services.entry_join(tournament_id=t.pk, user=bert)
    fairplay_services.tournament_links_check(tournament=t)
    return t, a, b


def _as(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_entries_page_shows_the_evidence_and_the_organizer_decides(
    organizer: Any, django_capture_on_commit_callbacks: Any
) -> None:
    t, anna, bert = _linked_field(organizer)
    fairplay_services.entry_flag(
        entry=anna,
        kind="play",
        reason=PLAY,
        evidence={
            "words": [["ronde 1: harten vrouw gespeeld", "round 1: played the queen of hearts"]]
        },
        key="v1",
    )
    client = _as(organizer)
    page = client.get(reverse("tournament_entries", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-testid="fairplay-entry" data-player="anna"' in html
    assert "linked to the entry of bert" in html
    assert "anna: log-in on" in html and "203.0.113.0/24" in html
    assert "round 1: played the queen of hearts" in html
    url = reverse("entry_fair_play", args=[t.pk, bert.pk])
    assert client.post(url, {"action": "clear"}).status_code == 302
    bert.refresh_from_db()
    assert bert.fair_play == Entry.FairPlay.CLEARED and bert.fair_play_decided_by == organizer
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("entry_fair_play", args=[t.pk, anna.pk]), {"action": "disqualify"})
    anna.refresh_from_db()
    assert anna.fair_play == Entry.FairPlay.DISQUALIFIED
    assert [m.to for m in mail.outbox] == [["anna@example.org"]]
    again = client.get(reverse("tournament_entries", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert 'data-testid="fairplay-decided"' in again.content.decode()
    assert client.post(url, {"action": "nonsense"}).status_code == 400


def test_only_the_clubs_organizers_and_staff_review(organizer: Any) -> None:
    t, anna, _bert = _linked_field(organizer)
    url = reverse("entry_fair_play", args=[t.pk, anna.pk])
    other_club = factories.make_club(owner=factories.make_user("elders"))
    stranger = factories.make_user("vreemde", organizer=True, club=other_club)
    assert _as(stranger).post(url, {"action": "clear"}).status_code == 404
    assert _as(anna.user).post(url, {"action": "clear"}).status_code == 403
    anna.refresh_from_db()
    assert anna.fair_play == Entry.FairPlay.UNDER_REVIEW
    staff = factories.make_user("staf", is_staff=True)
    assert _as(staff).post(url, {"action": "clear"}).status_code == 302
    anna.refresh_from_db()
    assert anna.fair_play == Entry.FairPlay.CLEARED


def test_the_standings_api_gives_the_reasons(organizer: Any) -> None:
    t, anna, _bert = _linked_field(organizer)
    url = reverse("api_tournament_standings", args=[t.pk])

    def reasons(client: Client) -> dict[str, list[dict[str, str]]]:
        data = client.get(url, HTTP_ACCEPT_LANGUAGE="en").json()
        rows = data["standings"]
        assert all(r["under_review"] and r["rank"] is None for r in rows)
        return {r["player"]: r["review_reasons"] for r in rows}

    public = reasons(Client())
    assert public["anna"] == [{"kind": "linked", "reason": "linked accounts"}]
    # The page lists it apart with why in a few words, never the evidence.
    html = Client().get(t.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    start = html.index('class="under-review"')
    listed = html[start : html.index("</ul>", start)]
    assert '<span class="muted" data-testid="review-why">(linked accounts)</span>' in listed
    assert "same device" not in html
    full = reasons(_as(organizer))
    assert full["anna"][0]["reason"].startswith("linked to the entry of bert")
    fairplay_services.entry_review_clear(entry=anna, by=organizer)
    data = Client().get(url).json()
    assert {r["player"]: r["review_reasons"] for r in data["standings"]}["anna"] == []


def test_staff_see_an_accounts_flags_across_clubs_and_lift_its_bar(organizer: Any) -> None:
    staff = factories.make_user("staf", is_staff=True)
    cheat = factories.make_user("valsspeler")
    other_club = factories.make_club(owner=factories.make_user("eigenaar"))
    for club in (None, other_club):
        t = factories.make_tournament(
            created_by=organizer if club is None else None, club=club, rounds=1, south_plays=()
        )
        entry = entry_services.entry_join(tournament_id=t.pk, user=cheat)
        fairplay_services.entry_flag(entry=entry, kind="play", reason=PLAY)
        fairplay_services.entry_review_disqualify(entry=entry, by=staff)
    assert PlayBar.objects.filter(user=cheat, lifted_at__isnull=True).exists()
    url = reverse("fairplay_staff")
    assert _as(organizer).get(url).status_code == 404
    link = f'href="{url}"'
    assert link not in _as(organizer).get(reverse("home")).content.decode()
    assert link in _as(staff).get(reverse("home")).content.decode()
    client = _as(staff)
    listing = client.get(url).content.decode()
    assert "valsspeler" in listing
    page = client.get(url, {"user": "valsspeler"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert page.count('data-testid="fairplay-entry"') == 2
    assert other_club.name in page and 'data-testid="fairplay-barred"' in page
    lift = reverse("fairplay_bar_lift", args=[cheat.pk])
    assert _as(organizer).post(lift).status_code == 404
    assert client.post(lift).status_code == 302
    assert not fairplay_services.play_barred(user=cheat)
    assert PlayBar.objects.get(user=cheat).lifted_by == staff
