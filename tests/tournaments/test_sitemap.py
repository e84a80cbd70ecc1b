"""``/sitemap.xml`` and ``/robots.txt`` (docs/rules.md, "Tournaments and the site", rule
24): the public pages listed (the lists, the rules of every preset, the clubs, public
tournaments open and closed, public series), a private page never, nor a suspended club's
or a tournament not open yet."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Access, Club, Series, Tournament
from tournaments.services import clubs as club_services

pytestmark = pytest.mark.django_db


def _series(club: Club, owner: Any, access: str, name: str) -> Series:
    return factories.make_series(
        created_by=owner, club=club, access=access, name=name, window_minutes=60
    )


def test_the_sitemap_lists_the_public_pages_and_never_a_private_one() -> None:
    owner = factories.make_user()
    club = factories.make_club("Open club", owner=owner)
    public = factories.make_tournament(created_by=owner, club=club, name="Open")
    closed = factories.make_tournament(created_by=owner, club=club, name="Gesloten")
    Tournament.objects.filter(pk=closed.pk).update(closed_at=timezone.now())
    members = factories.make_tournament(created_by=owner, club=club, access=Access.MEMBERS)
    invite = factories.make_tournament(created_by=owner, club=club, access=Access.INVITE)
    later = factories.make_tournament(created_by=owner, club=club, name="Later")
    Tournament.objects.filter(pk=later.pk).update(
        opens_at=timezone.now() + timedelta(days=2), closes_at=timezone.now() + timedelta(days=3)
    )
    open_series = _series(club, owner, Access.PUBLIC, "Open reeks")
    private_series = _series(club, owner, Access.MEMBERS, "Besloten reeks")
    suspended = factories.make_club("Geschorst", owner=owner)
    hidden = factories.make_tournament(created_by=owner, club=suspended, name="Verstopt")
    club_services.club_suspend(club=suspended, suspended=True)

    response = Client().get("/sitemap.xml")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/xml")
    paths = {
        re.sub(r"^https?://[^/]+", "", loc)
        for loc in re.findall(r"<loc>([^<]+)</loc>", response.content.decode())
    }
    for listed in (
        reverse("home"),
        reverse("clubs_list"),
        reverse("series_list"),
        reverse("rating_list", args=["jokeren"]),
        reverse("preset_rules", args=["jokeren", "jokeren7"]),
        reverse("preset_rules", args=["klaverjas", "rotterdams"]),
        club.get_absolute_url(),
        public.get_absolute_url(),
        closed.get_absolute_url(),
        open_series.get_absolute_url(),  # type: ignore[attr-defined]
    ):
        assert listed in paths, listed
    for never in (
        members.get_absolute_url(),
        invite.get_absolute_url(),
        later.get_absolute_url(),
        private_series.get_absolute_url(),  # type: ignore[attr-defined]
        suspended.get_absolute_url(),
        hidden.get_absolute_url(),
    ):
        assert never not in paths, never
    assert Client().post("/sitemap.xml").status_code == 405


def test_robots_keep_crawlers_off_the_private_paths_and_point_at_the_sitemap() -> None:
    response = Client().get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    lines = response.content.decode().splitlines()
    assert lines[0] == "User-agent: *"
    for path in ("/api/", "/games/", "/account/", "/mail/", "/clubs/invitations/"):
        assert f"Disallow: {path}" in lines
    assert "Disallow: /" not in lines  # the public pages stay open
    assert lines[-1] == "Sitemap: http://testserver/sitemap.xml"
