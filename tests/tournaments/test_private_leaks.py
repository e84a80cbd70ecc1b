"""A private tournament (members only, or with an invite code) never shows to someone who
may not see it (docs/rules.md, "Clubs: members, organizers, who may enter", rules 5 and
6): its distinctive name is looked for in every list, the home page, the club's and the
series' pages, the API's lists and answers, the CSV exports, "My games", the players'
pages and rating lists (the API's too) and any sitemap or search, fetched by a visitor,
a player, another club's organizer and a player's API token; and every address of it
answers them 404. A member sees the same lists with it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import tokens
from tournaments.models import Access, Membership
from tournaments.series import series_edition_create
from tournaments.services import closing as closing_services
from tournaments.services import entries as entry_services
from tournaments.services import ratings as rating_services

pytestmark = pytest.mark.django_db

MEMBERS_NAME = "Zeldzaam Ledenavondje Quokka"
INVITE_NAME = "Besloten Uitnodiging Wombat"
SERIES_NAME = "Verborgen Reeks Kakapo"
SECRET_NAMES = (MEMBERS_NAME, INVITE_NAME, SERIES_NAME)


def _no_secret(text: str, where: str) -> None:
    for name in SECRET_NAMES:
        assert name not in text, f"{name} shows in {where}"


class Field:
    def __init__(self) -> None:
        self.owner = factories.make_user()
        self.member = factories.make_user()
        self.player = factories.make_user()
        self.other = factories.make_user()
        self.club = factories.make_club("Geheime club", owner=self.owner)
        factories.add_member(self.club, self.member)
        other_club = factories.make_club("Andere club")
        factories.add_member(other_club, self.other, Membership.Role.ORGANIZER)
        self.members = factories.make_tournament(
            created_by=self.owner, club=self.club, access=Access.MEMBERS, name=MEMBERS_NAME
        )
        self.invite = factories.make_tournament(
            created_by=self.owner, club=self.club, access=Access.INVITE, name=INVITE_NAME
        )
        self.public = factories.make_tournament(
            created_by=self.owner, club=self.club, name="Open avond", south_plays=()
        )
        # entries in every one (the member plays the private ones, the player the public)
        self.members_game = entry_services.entry_join(
            tournament_id=self.members.pk, user=self.member
        ).game
        entry_services.entry_join(tournament_id=self.invite.pk, user=self.member)
        entry_services.entry_join(tournament_id=self.public.pk, user=self.player)
        self.series = factories.make_series(
            created_by=self.owner, club=self.club, access=Access.MEMBERS, name=SERIES_NAME
        )
        edition = series_edition_create(
            series=self.series, opens_at=timezone.now() - timedelta(minutes=1)
        )
        assert edition is not None and edition.access == Access.MEMBERS
        assert edition.club == self.club
        self.edition = edition
        self.public_series = factories.make_series(
            created_by=self.owner, club=self.club, name="Open reeks"
        )
        # a public one the member and the player played, rated before the private one
        self.public_closed = factories.make_tournament(
            created_by=self.owner, club=self.club, name="Open afgesloten"
        )
        for user in (self.member, self.player):
            game = entry_services.entry_join(tournament_id=self.public_closed.pk, user=user).game
            factories.play_to_end(game, user)
        type(self.public_closed).objects.filter(pk=self.public_closed.pk).update(
            closes_at=timezone.now()
        )
        closing_services.tournament_close(tournament_id=self.public_closed.pk)
        assert rating_services.ratings_apply_tournament(tournament_id=self.public_closed.pk) == 2
        self.public_closed.refresh_from_db()
        self.closed = factories.make_tournament(
            created_by=self.owner, club=self.club, access=Access.MEMBERS, name=MEMBERS_NAME + " 2"
        )
        # played to the end by two members and rated: it shows on their players' pages
        for user in (self.member, self.owner):
            game = entry_services.entry_join(tournament_id=self.closed.pk, user=user).game
            factories.play_to_end(game, user)
        type(self.closed).objects.filter(pk=self.closed.pk).update(closes_at=timezone.now())
        closing_services.tournament_close(tournament_id=self.closed.pk)
        assert rating_services.ratings_apply_tournament(tournament_id=self.closed.pk) == 2
        self.closed.refresh_from_db()

    def lists(self) -> list[str]:
        """Every address that lists tournaments or series, or may name one."""
        return [
            reverse("home"),
            reverse("series_list"),
            reverse("clubs_list"),
            reverse("club_detail", args=[self.club.slug]),
            reverse("series_detail", args=[self.public_series.pk]),
            reverse("series_season_csv", args=[self.public_series.pk]),
            reverse("tournament_detail", args=[self.public.pk]),
            reverse("tournament_standings_csv", args=[self.public.pk]),
            reverse("tournament_standings_csv", args=[self.public.pk]) + "?sep=semicolon",
            reverse("api_tournaments"),
            reverse("api_clubs"),
            reverse("api_club", args=[self.club.slug]),
            reverse("api_tournaments") + "?status=open",
            reverse("api_tournaments") + "?page=2",
            reverse("api_tournament", args=[self.public.pk]),
            reverse("api_tournament_standings", args=[self.public.pk]),
            reverse("api_series", args=[self.public_series.pk]),
            reverse("api_series_season", args=[self.public_series.pk]),
            reverse("my_games"),
            reverse("player_profile", args=[self.member.username]),
            reverse("player_profile", args=[self.owner.username]),
            reverse("api_player", args=[self.member.username]),
            reverse("rating_list", args=["jokeren"]),
            reverse("rating_list", args=["jokeren"]) + f"?club={self.club.slug}",
            reverse("api_ratings", args=["jokeren"]),
            reverse("account"),
            "/sitemap.xml",
            "/search/?q=Quokka",
            "/api/search/?q=Quokka",
        ]

    def private_addresses(self) -> list[str]:
        out = []
        for t in (self.members, self.invite, self.edition, self.closed):
            out += [
                reverse("tournament_detail", args=[t.pk]),
                reverse("tournament_leaderboard", args=[t.pk]),
                reverse("tournament_rules", args=[t.pk]),
                reverse("tournament_verify", args=[t.pk]),
                reverse("tournament_standings_csv", args=[t.pk]),
                reverse("tournament_records_zip", args=[t.pk]),
                reverse("api_tournament", args=[t.pk]),
                reverse("api_tournament_standings", args=[t.pk]),
            ]
        for name in ("series_detail", "series_season_csv", "api_series", "api_series_season"):
            out.append(reverse(name, args=[self.series.pk]))
        return out


def _client(user: Any = None, token: str | None = None) -> Client:
    if token is not None:
        return Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _body(response: Any) -> str:
    # a download may be streamed (the standings CSV)
    raw = b"".join(response.streaming_content) if response.streaming else response.content
    return str(raw.decode("utf-8", "replace"))


def test_private_tournaments_never_show_to_anyone_who_may_not_see_them() -> None:
    field = Field()
    outsiders = {
        "visitor": _client(),
        "player": _client(field.player),
        "other club's organizer": _client(field.other),
        "player's token": _client(token=tokens.token_create(user=field.player, name="t").key),
    }
    for who, client in outsiders.items():
        for url in field.lists():
            response = client.get(url)
            assert response.status_code in (200, 302, 404), (who, url, response.status_code)
            _no_secret(_body(response), f"{url} for {who}")
        for url in field.private_addresses():
            response = client.get(url)
            assert response.status_code == 404, (who, url, response.status_code)
            _no_secret(_body(response), f"{url} for {who}")


def test_ratings_count_and_date_only_the_tournaments_the_viewer_may_see() -> None:
    # The member played a public and (later) a private tournament, the owner the private
    # one only: to others the member's rating counts one tournament, last moved at the
    # public one's close; the owner is not rated in the game, nor on its lists.
    field = Field()
    public_close = field.public_closed.closed_at
    assert public_close is not None and field.closed.closed_at is not None
    assert public_close < field.closed.closed_at
    outsiders = {
        "visitor": _client(),
        "player": _client(field.player),
        "other club's organizer": _client(field.other),
        "player's token": _client(token=tokens.token_create(user=field.player, name="t").key),
    }
    insiders = {"member": _client(field.member), "owner": _client(field.owner)}
    for who, client in {**outsiders, **insiders}.items():
        inside = who in insiders
        member = client.get(reverse("api_player", args=[field.member.username])).json()
        rating = member["ratings"]["jokeren"]
        assert rating["tournaments"] == (2 if inside else 1), who
        shown_close = field.closed.closed_at if inside else public_close
        assert rating["updated_at"] == shown_close.isoformat(), who
        assert len(member["changes"]) == rating["tournaments"], who
        owner = client.get(reverse("api_player", args=[field.owner.username])).json()
        assert (owner["ratings"]["jokeren"] is None) is not inside, who
        listed = {
            r["player"]: r["tournaments"]
            for r in client.get(reverse("api_ratings", args=["jokeren"])).json()["ratings"]
        }
        assert listed[field.member.username] == (2 if inside else 1), who
        assert (field.owner.username in listed) is inside, who
        page = client.get(reverse("player_profile", args=[field.owner.username])).content
        row = page.decode().split('data-game="jokeren"')[1].split("</tr>")[0]
        assert ('data-testid="not-rated"' in row) is not inside, who
        # the club's rating list: its members only, until the club makes it public
        club_list = reverse("rating_list", args=["jokeren"]) + f"?club={field.club.slug}"
        assert client.get(club_list).status_code == (200 if inside else 404), who
    field.club.ratings_public = True
    field.club.save(update_fields=["ratings_public"])
    club_list = reverse("api_ratings", args=["jokeren"]) + f"?club={field.club.slug}"
    listed = {r["player"]: r["tournaments"] for r in _client().get(club_list).json()["ratings"]}
    assert listed == {field.member.username: 1}


def test_a_member_sees_them_in_the_same_lists() -> None:
    field = Field()
    client = _client(field.member)
    home = client.get(reverse("home")).content.decode()
    assert MEMBERS_NAME in home and INVITE_NAME in home
    club = client.get(reverse("club_detail", args=[field.club.slug])).content.decode()
    assert MEMBERS_NAME in club and SERIES_NAME in club
    assert SERIES_NAME in client.get(reverse("series_list")).content.decode()
    names = {t["name"] for t in client.get(reverse("api_tournaments")).json()["tournaments"]}
    assert {MEMBERS_NAME, INVITE_NAME, field.edition.name} <= names
    for t in (field.members, field.invite, field.edition):
        assert client.get(reverse("tournament_detail", args=[t.pk])).status_code == 200
    profile = client.get(reverse("player_profile", args=[field.owner.username])).content
    assert field.closed.name in profile.decode()
    changes = client.get(reverse("api_player", args=[field.owner.username])).json()["changes"]
    assert [c["tournament"] for c in changes] == [field.closed.pk]
