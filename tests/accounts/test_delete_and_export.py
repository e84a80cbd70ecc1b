"""Leaving and taking one's data (docs/rules.md, "Accounts", rules 7 and 8)."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import factories
import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from accounts import services as account_services
from accounts.signals import account_deleted
from tournaments import tokens
from tournaments.models import ApiToken, Membership, Rating, Sighting
from tournaments.selectors import standings as standing_selectors
from tournaments.services import ratings as rating_services

pytestmark = pytest.mark.django_db


def _board(t: Any) -> list[tuple[Any, ...]]:
    return [(s.rank, s.username, s.result) for s in standing_selectors.standings(tournament=t)]


def test_a_deleted_account_s_results_stay_under_an_anonymous_name(
    client: Client, organizer: Any
) -> None:
    t = factories.make_closed_field(organizer, 4)
    rating_services.ratings_apply_tournament(tournament_id=t.pk)
    before = _board(t)
    leaver = get_user_model().objects.get(username=before[0][1])
    club = factories.make_club()
    factories.add_member(club, leaver)
    tokens.token_create(user=leaver, name="bot")
    assert Rating.objects.filter(user=leaver).exists()
    Sighting.objects.create(
        user=leaver, kind=Sighting.Kind.LOGIN, device="d" * 32, network="192.0.2.0/24"
    )
    heard: list[int] = []

    def listen(sender: Any, user_id: int, **kwargs: Any) -> None:
        heard.append(user_id)

    account_deleted.connect(listen)
    try:
        client.force_login(leaver)
        wrong = client.post(reverse("account_delete"), {"password": "fout"})
        assert wrong.status_code == 400
        leaver.set_password(factories.PASSWORD)
        leaver.save()
        client.force_login(leaver)
        done = client.post(reverse("account_delete"), {"password": factories.PASSWORD})
    finally:
        account_deleted.disconnect(listen)
    assert done.status_code == 302 and heard == [leaver.pk]
    name = account_services.deleted_name(leaver.pk)
    after = _board(t)
    assert after == [(r, name if u == leaver.username else u, x) for r, u, x in before]
    leaver.refresh_from_db()
    assert leaver.username == name and not leaver.is_active and not leaver.email
    assert not leaver.has_usable_password()
    assert not Rating.objects.filter(user=leaver).exists()
    assert not Membership.objects.filter(user=leaver).exists()
    assert not ApiToken.objects.filter(user=leaver).exists()
    assert not EmailAddress.objects.filter(user=leaver).exists()
    assert not Sighting.objects.filter(user=leaver).exists()
    assert client.get(reverse("account")).status_code == 302  # logged out


def test_the_last_owner_of_a_club_hands_it_over_first(client: Client) -> None:
    owner = factories.make_user("eigenaar")
    club = factories.make_club("De Troefkaarten", owner=owner)
    client.force_login(owner)
    refused = client.post(reverse("account_delete"), {"password": factories.PASSWORD})
    assert refused.status_code == 400 and "De Troefkaarten" in refused.content.decode()
    assert get_user_model().objects.get(pk=owner.pk).is_active
    second = factories.make_user("tweede")
    factories.add_member(club, second, Membership.Role.OWNER)
    account_services.account_delete(user=owner)
    assert not get_user_model().objects.get(pk=owner.pk).is_active


def test_download_my_data(client: Client, organizer: Any) -> None:
    t = factories.make_closed_field(organizer, 3)
    rating_services.ratings_apply_tournament(tournament_id=t.pk)
    player = get_user_model().objects.get(username=_board(t)[0][1])
    factories.add_member(factories.make_club("Klaverclub"), player)
    client.force_login(player)
    response = client.get(reverse("account_export"))
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = set(archive.namelist())
    assert {
        "profile.json",
        "memberships.json",
        "entries.json",
        "ratings.json",
        "mails.json",
    } <= names
    profile = json.loads(archive.read("profile.json"))
    assert profile["username"] == player.username and profile["email"] == player.email
    assert [m["club"] for m in json.loads(archive.read("memberships.json"))] == ["Klaverclub"]
    (entry,) = json.loads(archive.read("entries.json"))
    assert entry["tournament_id"] == t.pk and entry["result"]["rounds"] == 3
    assert [r["game"] for r in json.loads(archive.read("ratings.json"))] == ["jokeren"]
    assert any(n.startswith("games/game-") for n in names)
    game = json.loads(archive.read(next(n for n in sorted(names) if n.startswith("games/"))))
    assert game  # a game record (docs/game-record.md)
    assert Client().get(reverse("account_export")).status_code == 302  # to the log-in


def test_the_privacy_page_in_dutch_and_english() -> None:
    dutch = Client().get(reverse("privacy")).content.decode()
    assert "180 dagen" in dutch and "apparaat-ID" in dutch
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(reverse("privacy")).content.decode()
    assert "180 days" in english and "device identifier" in english
