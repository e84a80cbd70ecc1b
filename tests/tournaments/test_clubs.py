"""Clubs (docs/rules.md, "Clubs: members, organizers, who may enter", rules 1-4): joining
by the invite link or a typed code, renewing the invite, roles, leaving (never the last
owner), the clubs list and a club's page, creating in a chosen club, editions inheriting
the series' club and access."""

from __future__ import annotations

from datetime import date, time, timedelta

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import permissions
from tournaments.errors import ClubRefused, InvalidSettings, NotAMember
from tournaments.models import Access, Club, Membership, Tournament
from tournaments.series import series_create, series_edition_create
from tournaments.services import closing as closing_services
from tournaments.services import clubs as club_services
from tournaments.services import entries as entry_services
from tournaments.services import ratings as rating_services
from tournaments.services import tournaments as tournament_services

pytestmark = pytest.mark.django_db


def _logged_in(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_joining_needs_the_current_code_and_renewing_voids_the_old_one() -> None:
    club = factories.make_club()
    user = factories.make_user()
    with pytest.raises(ClubRefused):
        club_services.club_join(club=club, user=user, code="wrong")
    assert not permissions.is_club_member(user=user, club=club)
    old = club.invite_code
    club_services.club_invite_renew(club=club)
    assert club.invite_code != old
    with pytest.raises(ClubRefused):
        club_services.club_join(club=club, user=user, code=old)
    membership = club_services.club_join(club=club, user=user, code=club.invite_code)
    assert membership.role == Membership.Role.MEMBER
    # joining again keeps the membership (and its role)
    club_services.membership_set_role(club=club, user=user, role=Membership.Role.ORGANIZER)
    again = club_services.club_join(club=club, user=user, code=club.invite_code)
    assert again.pk == membership.pk and again.role == Membership.Role.ORGANIZER


def test_the_last_owner_neither_leaves_nor_loses_the_role() -> None:
    owner = factories.make_user()
    club = factories.make_club(owner=owner)
    with pytest.raises(ClubRefused):
        club_services.membership_leave(club=club, user=owner)
    with pytest.raises(ClubRefused):
        club_services.membership_set_role(club=club, user=owner, role=Membership.Role.MEMBER)
    assert not permissions.may_leave_club(user=owner, club=club)
    second = factories.make_user()
    factories.add_member(club, second, Membership.Role.OWNER)
    assert permissions.may_leave_club(user=owner, club=club)
    club_services.membership_leave(club=club, user=owner)
    assert permissions.club_role(user=owner, club=club) is None
    with pytest.raises(ClubRefused):
        club_services.membership_leave(club=club, user=owner)


def test_a_club_needs_a_name_and_a_free_address() -> None:
    with pytest.raises(InvalidSettings):
        club_services.club_create(name="  ")
    club_services.club_create(name="De Klaverjassers", slug="klaverjassers")
    with pytest.raises(InvalidSettings):
        club_services.club_create(name="Anders", slug="klaverjassers")
    with pytest.raises(ClubRefused):
        club_services.membership_add(
            club=factories.make_club(), user=factories.make_user(), role="king"
        )


def test_a_user_joins_by_the_invite_link_and_leaves_again() -> None:
    owner = factories.make_user()
    club = factories.make_club("De Vrolijke Kaartschudders", owner=owner)
    link = reverse("club_join", args=[club.slug]) + f"?code={club.invite_code}"
    assert Client().get(link)["Location"].startswith(reverse("login"))
    user = factories.make_user()
    client = _logged_in(user)
    page = client.get(link)
    assert page.status_code == 200 and 'data-testid="join-club"' in page.content.decode()
    assert client.post(link, {"code": club.invite_code}).status_code == 302
    assert permissions.club_role(user=user, club=club) == Membership.Role.MEMBER
    text = client.get(club.get_absolute_url()).content.decode()
    assert "2 leden" in text and 'data-testid="leave-club"' in text
    assert client.post(reverse("club_leave", args=[club.slug])).status_code == 302
    assert permissions.club_role(user=user, club=club) is None
    # a wrong code: a page that says so, and no membership
    wrong = client.get(reverse("club_join", args=[club.slug]) + "?code=oud")
    assert 'data-testid="invite-invalid"' in wrong.content.decode()
    client.post(reverse("club_join", args=[club.slug]), {"code": "oud"})
    assert permissions.club_role(user=user, club=club) is None


def test_a_typed_code_leads_to_the_club_or_the_invite_tournament() -> None:
    club = factories.make_club()
    t = factories.make_tournament(club=club, access=Access.INVITE, south_plays=())
    client = _logged_in(factories.make_user())
    to_club = client.post(reverse("code_enter"), {"code": club.invite_code})
    assert to_club["Location"].startswith(reverse("club_join", args=[club.slug]))
    to_t = client.post(reverse("code_enter"), {"code": t.invite_code})
    assert to_t["Location"] == f"{t.get_absolute_url()}?code={t.invite_code}"
    assert client.get(to_t["Location"]).status_code == 200
    nothing = client.post(reverse("code_enter"), {"code": "bestaat-niet"})
    assert nothing.status_code == 200 and nothing.context["form"].errors


def test_the_owner_appoints_and_demotes_organizers_who_then_run_the_clubs_tournaments() -> None:
    owner = factories.make_user()
    club = factories.make_club(owner=owner)
    member = factories.make_user()
    factories.add_member(club, member)
    t = factories.make_tournament(club=club, created_by=owner, south_plays=())
    assert not permissions.may_edit_tournament(user=member, tournament=t)
    client = _logged_in(owner)
    url = reverse("club_member_role", args=[club.slug])
    client.post(url, {"user": member.pk, "role": "organizer"})
    assert permissions.may_edit_tournament(user=member, tournament=t)
    # a new organizer sets up a second factor first (docs/rules.md, "Accounts", rule 6)
    edit = reverse("tournament_edit", args=[t.pk])
    first = _logged_in(member).get(edit)
    assert first.status_code == 302 and first["Location"].startswith(reverse("mfa_activate_totp"))
    factories.add_second_factor(member)
    assert _logged_in(member).get(edit).status_code == 200
    client.post(url, {"user": member.pk, "role": "member"})
    assert not permissions.may_edit_tournament(user=member, tournament=t)
    # no owner by this form, and nobody outside the club
    client.post(url, {"user": member.pk, "role": "owner"})
    assert permissions.club_role(user=member, club=club) == Membership.Role.MEMBER
    outsider = factories.make_user()
    client.post(url, {"user": outsider.pk, "role": "organizer"})
    assert permissions.club_role(user=outsider, club=club) is None


def test_the_club_page_lists_open_and_recent_tournaments_series_and_members() -> None:
    owner = factories.make_user()
    club = factories.make_club("Klaverclub", owner=owner)
    open_t = factories.make_tournament(club=club, created_by=owner, name="Open avond")
    closed = factories.make_tournament(club=club, created_by=owner, name="Vorige week")
    Tournament.objects.filter(pk=closed.pk).update(closed_at=timezone.now())
    other = factories.make_tournament(name="Van een ander", south_plays=())
    series = series_create(
        created_by=owner,
        club=club,
        name="Dinsdagcompetitie",
        game="jokeren",
        preset="jokeren7",
        kind="weekly",
        weekdays=[1],
        time_of_day=time(20, 0),
        window_minutes=60,
        starts_on=date(2026, 1, 1),
    )
    page = Client().get(reverse("club_detail", args=[club.slug]))
    text = page.content.decode()
    assert [t.pk for t in page.context["page"].open] == [open_t.pk]
    assert [t.pk for t in page.context["page"].recent] == [closed.pk]
    assert other.name not in text
    assert series.name in text and reverse("series_season_csv", args=[series.pk]) in text
    assert "1 lid" in text
    listing = Client().get(reverse("clubs_list")).content.decode()
    assert "Klaverclub" in listing and club.get_absolute_url() in listing


def test_the_organizer_picks_one_of_their_clubs_and_one_club_is_chosen_already() -> None:
    organizer = factories.make_user()
    first = factories.make_club("Eerste")
    factories.add_member(first, organizer, Membership.Role.ORGANIZER)
    client = _logged_in(organizer)
    form = client.get(reverse("tournament_create")).context["form"]
    assert list(form.fields["club"].queryset) == [first]
    assert form.initial["club"] == first.pk
    client.post(reverse("tournament_create"), factories.tournament_form_data(name="Zonder keuze"))
    assert Tournament.objects.get(name="Zonder keuze").club == first
    second = factories.make_club("Tweede")
    factories.add_member(second, organizer, Membership.Role.OWNER)
    data = factories.tournament_form_data(name="In de tweede", club=second.pk, access="members")
    client.post(reverse("tournament_create"), data)
    made = Tournament.objects.get(name="In de tweede")
    assert (made.club, made.access) == (second, Access.MEMBERS)
    # with two clubs the choice is needed; a club they do not run is refused
    client.post(reverse("tournament_create"), factories.tournament_form_data(name="Geen club"))
    foreign = factories.make_club("Vreemd")
    bad = factories.tournament_form_data(name="Vreemd toernooi", club=foreign.pk)
    assert client.post(reverse("tournament_create"), bad).status_code == 200
    assert not Tournament.objects.filter(name__in=["Geen club", "Vreemd toernooi"]).exists()
    page = client.get(made.get_absolute_url()).content.decode()
    assert 'data-testid="organizer-club"' in page and "Tweede" in page


def test_editions_get_the_series_club_and_access_and_an_invite_code_each() -> None:
    club = factories.make_club()
    series = series_create(
        created_by=factories.make_user(),
        club=club,
        access=Access.INVITE,
        name="Uitnodigingsreeks",
        game="jokeren",
        preset="jokeren7",
        kind="daily",
        time_of_day=time(20, 0),
        window_minutes=60,
        starts_on=date(2026, 1, 1),
    )
    now = timezone.now()
    a = series_edition_create(series=series, opens_at=now - timedelta(minutes=5))
    b = series_edition_create(series=series, opens_at=now - timedelta(minutes=1))
    assert a is not None and b is not None
    assert (a.club, a.access, b.club, b.access) == (club, Access.INVITE, club, Access.INVITE)
    assert a.invite_code and b.invite_code and a.invite_code != b.invite_code


def test_entering_a_private_tournament_needs_membership_or_the_code() -> None:
    club = factories.make_club()
    members_only = factories.make_tournament(club=club, access=Access.MEMBERS)
    invite = factories.make_tournament(club=club, access=Access.INVITE)
    outsider = factories.make_user()
    with pytest.raises(NotAMember):
        entry_services.entry_join(tournament_id=members_only.pk, user=outsider)
    with pytest.raises(NotAMember):
        entry_services.entry_join(tournament_id=invite.pk, user=outsider, code="fout")
    entry_services.entry_join(tournament_id=invite.pk, user=outsider, code=invite.invite_code)
    member = factories.make_user()
    factories.add_member(club, member)
    entry_services.entry_join(tournament_id=members_only.pk, user=member)
    # the API: without the code not found, with it entered
    stranger = _logged_in(factories.make_user())
    response = stranger.post(reverse("api_tournament_join", args=[invite.pk]))
    assert response.status_code == 404
    with_code = reverse("api_tournament_join", args=[invite.pk]) + f"?code={invite.invite_code}"
    assert stranger.post(with_code).status_code == 201


def test_an_organizer_changes_who_may_enter_and_an_invite_tournament_gets_its_code() -> None:
    organizer = factories.make_user(organizer=True)
    t = factories.make_tournament(created_by=organizer, south_plays=())
    assert t.invite_code == ""
    client = _logged_in(organizer)
    data = factories.tournament_form_data(name=t.name, access="invite")
    assert client.post(reverse("tournament_edit", args=[t.pk]), data).status_code == 302
    t.refresh_from_db()
    assert t.access == Access.INVITE and len(t.invite_code) >= 16
    page = client.get(t.get_absolute_url()).content.decode()
    assert f"?code={t.invite_code}" in page


def test_staff_create_a_club_with_its_owner_in_the_admin() -> None:
    staff = factories.make_user(is_staff=True, is_superuser=True)
    owner = factories.make_user("voorzitter")
    client = _logged_in(staff)
    add = reverse("admin:tournaments_club_add")
    assert client.get(add).status_code == 200
    response = client.post(
        add,
        {
            "name": "Klaverjasclub Oost",
            "slug": "oost",
            "description": "",
            "join_mode": "code",
            "memberships-TOTAL_FORMS": "1",
            "memberships-INITIAL_FORMS": "0",
            "memberships-MIN_NUM_FORMS": "0",
            "memberships-MAX_NUM_FORMS": "1000",
            "memberships-0-user": str(owner.pk),
            "memberships-0-role": "owner",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    club = Club.objects.get(slug="oost")
    assert len(club.invite_code) >= 16
    assert permissions.club_role(user=owner, club=club) == Membership.Role.OWNER
    assert permissions.may_manage_members(user=owner, club=club)
    assert Client().get(club.get_absolute_url()).status_code == 200


def test_a_clubs_rating_list_lists_its_members_only() -> None:
    owner = factories.make_user("clublid")
    club = factories.make_club("Ratingclub", owner=owner)
    outsider = factories.make_user("buiten")
    t = factories.make_tournament(club=club, created_by=owner)
    for user in (owner, outsider):
        game = entry_services.entry_join(tournament_id=t.pk, user=user).game
        factories.play_to_end(game, user)
    Tournament.objects.filter(pk=t.pk).update(closes_at=timezone.now())
    closing_services.tournament_close(tournament_id=t.pk)
    assert rating_services.ratings_apply_tournament(tournament_id=t.pk) == 2
    everyone = Client().get(reverse("rating_list", args=["jokeren"]))
    assert {r.username for r in everyone.context["page"].rows} == {"clublid", "buiten"}
    club_list = reverse("rating_list", args=["jokeren"]) + f"?club={club.slug}"
    member = Client()
    member.force_login(owner)
    members = member.get(club_list)
    assert [r.username for r in members.context["page"].rows] == ["clublid"]
    assert 'data-testid="rating-club"' in members.content.decode()
    assert club_list in member.get(club.get_absolute_url()).content.decode()
    # for the members only, by default: to others not found, and not linked
    assert Client().get(club_list).status_code == 404
    assert club_list not in Client().get(club.get_absolute_url()).content.decode()
    club_services.club_settings_set(club=club, ratings_public=True)
    assert club_list in Client().get(club.get_absolute_url()).content.decode()
    assert Client().get(club_list).status_code == 200
    missing = reverse("rating_list", args=["jokeren"]) + "?club=bestaat-niet"
    assert Client().get(missing).status_code == 404
    api = reverse("api_ratings", args=["jokeren"])
    listed = Client().get(api + f"?club={club.slug}").json()["ratings"]
    assert [r["player"] for r in listed] == ["clublid"]
    assert Client().get(api + "?club=bestaat-niet").status_code == 404


def test_an_editions_access_stays_the_series() -> None:
    organizer = factories.make_user(organizer=True)
    series = series_create(
        created_by=organizer,
        club=factories.default_club(),
        access=Access.MEMBERS,
        name="Ledenreeks",
        game="jokeren",
        preset="jokeren7",
        kind="daily",
        time_of_day=time(20, 0),
        window_minutes=60,
        starts_on=date(2026, 1, 1),
    )
    edition = series_edition_create(series=series, opens_at=timezone.now())
    assert edition is not None
    with pytest.raises(InvalidSettings):
        tournament_services.tournament_update(tournament=edition, access=Access.PUBLIC)
    client = _logged_in(organizer)
    data = factories.tournament_form_data(name=edition.name, access="public")
    client.post(reverse("tournament_edit", args=[edition.pk]), data)
    edition.refresh_from_db()
    assert edition.access == Access.MEMBERS
