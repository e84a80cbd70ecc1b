"""Linked accounts (docs/rules.md, "Fair play"), through real sessions: the device cookie
set on the first visit survives log-out; two accounts logged in from one browser are
linked, and when they enter the same tournament (or editions of one series) both entries
go under review, each "linked to" the other with the evidence. One network alone links
nobody."""

from __future__ import annotations

from datetime import date, time
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse

from jokeren.device import COOKIE
from tournaments import series as series_services
from tournaments.models import Entry, EntryFlag, Sighting
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

UA = "Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0"


def _log_in(client: Client, name: str) -> None:
    answer = client.post(reverse("login"), {"login": name, "password": factories.PASSWORD})
    assert answer.status_code == 302, answer.content[:300]


def _join(client: Client, t: Any) -> None:
    answer = client.post(reverse("tournament_join", args=[t.pk]))
    assert answer.status_code == 302
    assert "play" in answer["Location"] or "/games/" in answer["Location"]


def _browser(address: str = "192.0.2.10") -> Client:
    client = Client(REMOTE_ADDR=address, HTTP_USER_AGENT=UA)
    client.get(reverse("home"))
    assert COOKIE in client.cookies
    return client


def test_two_accounts_of_one_browser_entering_together_go_under_review(organizer: Any) -> None:
    for name in ("anna", "bert", "cor"):
        factories.make_user(name)
    t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=())
    browser = _browser()
    device = browser.cookies[COOKIE].value
    _log_in(browser, "anna")
    _join(browser, t)
    browser.post(reverse("logout"))
    # The cookie survives the log-out: the same device.
    assert browser.cookies[COOKIE].value == device
    _log_in(browser, "bert")
    # Another browser on the same network (a household, a club's wifi) links nobody.
    neighbour = _browser("192.0.2.77")
    assert neighbour.cookies[COOKIE].value != device
    _log_in(neighbour, "cor")
    _join(neighbour, t)
    _join(browser, t)

    entries = {e.user.username: e for e in Entry.objects.filter(tournament=t)}
    assert entries["anna"].fair_play == Entry.FairPlay.UNDER_REVIEW
    assert entries["bert"].fair_play == Entry.FairPlay.UNDER_REVIEW
    assert entries["cor"].fair_play == Entry.FairPlay.OK
    flag = EntryFlag.objects.get(entry=entries["anna"])
    assert flag.kind == EntryFlag.Kind.LINKED
    assert flag.reason_in("en").startswith("linked to the entry of bert")
    assert flag.reason_in("nl").startswith("gekoppeld aan de inschrijving van bert")
    assert flag.evidence["linked_entry"] == entries["bert"].pk
    seen = {(s["user"], s["kind"], s["network"]) for s in flag.evidence["sightings"]}
    assert ("anna", "login", "192.0.2.0/24") in seen and ("bert", "entry", "192.0.2.0/24") in seen
    assert all(s["user_agent"] == UA for s in flag.evidence["sightings"])
    # What is kept of the address is its network, never the address itself.
    assert not Sighting.objects.filter(network__contains="192.0.2.10").exists()
    assert (
        EntryFlag.objects.get(entry=entries["bert"]).evidence["linked_entry"] == entries["anna"].pk
    )


def test_a_link_found_later_flags_entries_at_the_close(organizer: Any) -> None:
    anna = factories.make_user("anna")
    bert = factories.make_user("bert")
    t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=())
    entry_services.entry_join(tournament_id=t.pk, user=anna)
    entry_services.entry_join(tournament_id=t.pk, user=bert)
    assert not EntryFlag.objects.exists()
    # Seen on one device only after both entered, in rows the sighting's own check missed.
    for user in (anna, bert):
        Sighting.objects.create(user=user, kind="login", device="e" * 32, network="198.51.100.0/24")
    closing_services.tournament_close(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.closed_at is not None
    flagged = Entry.objects.filter(tournament=t, fair_play=Entry.FairPlay.UNDER_REVIEW)
    assert set(flagged.values_list("user__username", flat=True)) == {"anna", "bert"}


def test_linked_accounts_in_two_editions_of_one_series(organizer: Any) -> None:
    factories.make_user("anna")
    factories.make_user("bert")
    first = factories.make_tournament(created_by=organizer, rounds=1, south_plays=())
    second = factories.make_tournament(created_by=organizer, rounds=1, south_plays=())
    lone = factories.make_tournament(created_by=organizer, rounds=1, south_plays=())
    series = series_services.series_create(
        created_by=organizer,
        club=factories.default_club(),
        name="Clubavond",
        game="jokeren",
        preset="jokeren7",
        rounds=1,
        bot_level="basic",
        kind="daily",
        time_of_day=time(20, 0),
        window_minutes=120,
        starts_on=date(2026, 3, 1),
        best_k=2,
    )
    type(first).objects.filter(pk__in=[first.pk, second.pk]).update(series=series)
    browser = _browser()
    _log_in(browser, "anna")
    _join(browser, first)
    browser.post(reverse("logout"))
    _log_in(browser, "bert")
    _join(browser, second)
    _join(browser, lone)
    flagged = Entry.objects.filter(fair_play=Entry.FairPlay.UNDER_REVIEW)
    assert {(e.user.username, e.tournament_id) for e in flagged} == {
        ("anna", first.pk),
        ("bert", second.pk),
    }


def test_the_answer_that_sets_the_device_cookie_is_never_shared() -> None:
    client = Client()
    first = client.get(reverse("javascript-catalog"))
    assert COOKIE in first.cookies and "private" in first["Cache-Control"]
    second = client.get(reverse("javascript-catalog"))
    assert COOKIE not in second.cookies
    # A forged or changed cookie is not taken: a new one is made.
    forged = Client()
    forged.cookies[COOKIE] = "0" * 32
    answer = forged.get(reverse("home"))
    assert answer.cookies[COOKIE].value != "0" * 32


def test_deleting_an_account_removes_its_fair_play_data(organizer: Any) -> None:
    from accounts import services as account_services

    for name in ("anna", "bert"):
        factories.make_user(name)
    t = factories.make_tournament(created_by=organizer, rounds=1, south_plays=())
    browser = _browser()
    _log_in(browser, "anna")
    _join(browser, t)
    browser.post(reverse("logout"))
    _log_in(browser, "bert")
    _join(browser, t)
    anna = Entry.objects.get(tournament=t, user__username="anna")
    account_services.account_delete(user=anna.user)
    assert not Sighting.objects.filter(user=anna.user).exists()
    assert Sighting.objects.filter(user__username="bert").exists()
    for flag in EntryFlag.objects.filter(entry__tournament=t):
        assert "anna" not in str(flag.evidence)
        assert all(s["user"] == "bert" for s in flag.evidence["sightings"])
    # the flags and the review stay: both entries still under review
    assert Entry.objects.filter(tournament=t, fair_play="under_review").count() == 2
