"""Clubs run by their members (docs/rules.md, "Clubs: members, organizers, who may enter",
rules 7-9): a player with a verified address starts a club (up to the limit), staff
suspend one, the owner hands it over, removes and bans members, decides requests to join
and chooses how people join; personal invitations (expire, withdrawn, survive the code's
renewal, again is a new one); announcements mailed to each member once."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import permissions
from tournaments.errors import ClubRefused, InvitationGone
from tournaments.models import Club, ClubAnnouncement, ClubInvite, JoinMode, Membership
from tournaments.services import club_announcements, club_invitations
from tournaments.services import clubs as club_services

pytestmark = pytest.mark.django_db


def _client(user: Any = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _member(club: Club, user: Any) -> bool:
    return Membership.objects.filter(club=club, user=user).exists()


def test_a_player_with_an_address_starts_clubs_up_to_the_limit() -> None:
    ann = factories.make_user("ann", email="ann@example.org")
    client = _client(ann)
    assert 'data-testid="club-create"' in client.get(reverse("clubs_list")).content.decode()
    for n in range(club_services.CLUBS_PER_PLAYER):
        response = client.post(reverse("club_create"), {"name": f"Club {n}", "description": ""})
        assert response.status_code == 302
    club = Club.objects.get(name="Club 0")
    assert club.created_by == ann
    assert permissions.club_role(user=ann, club=club) == Membership.Role.OWNER
    one_too_many = client.post(reverse("club_create"), {"name": "Club 9"})
    assert one_too_many.status_code == 400
    assert not Club.objects.filter(name="Club 9").exists()
    # without an address: not offered, and refused
    bob = factories.make_user("bob")
    assert (
        'data-testid="club-create"' not in _client(bob).get(reverse("clubs_list")).content.decode()
    )
    assert _client(bob).post(reverse("club_create"), {"name": "Bobs"}).status_code == 403
    with pytest.raises(ClubRefused):
        club_services.club_create_by_player(name="Bobs", owner=bob)
    assert _client().get(reverse("club_create")).status_code == 302  # to the log-in


def test_a_suspended_club_takes_nobody_and_is_not_listed() -> None:
    owner = factories.make_user()
    club = factories.make_club("Schorsclub", owner=owner)
    club_services.club_suspend(club=club, suspended=True)
    player = factories.make_user()
    with pytest.raises(ClubRefused):
        club_services.club_join(club=club, user=player, code=club.invite_code)
    with pytest.raises(ClubRefused):
        club_invitations.invitation_create(club=club, invited_by=owner, username=player.username)
    with pytest.raises(ClubRefused):
        club_announcements.announcement_create(club=club, author=owner, subject="a", body="b")
    assert not permissions.may_create_in_club(user=owner, club=club)
    assert "Schorsclub" not in _client().get(reverse("clubs_list")).content.decode()
    assert _client(player).get(club.get_absolute_url()).status_code == 404
    assert _client(player).get(reverse("api_club", args=[club.slug])).status_code == 404
    staff = factories.make_user(is_staff=True)
    assert _client(staff).get(club.get_absolute_url()).status_code == 200
    assert (
        'data-testid="club-suspended"'
        in _client(owner).get(club.get_absolute_url()).content.decode()
    )
    club_services.club_suspend(club=club, suspended=False)
    club_services.club_join(club=club, user=player, code=club.invite_code)
    assert _member(club, player)


def test_the_owner_hands_the_club_over() -> None:
    owner, heir = factories.make_user(), factories.make_user()
    club = factories.make_club(owner=owner)
    factories.add_member(club, heir)
    response = _client(owner).post(reverse("club_transfer", args=[club.slug]), {"user": heir.pk})
    assert response.status_code == 302
    assert permissions.club_role(user=heir, club=club) == Membership.Role.OWNER
    assert permissions.club_role(user=owner, club=club) == Membership.Role.ORGANIZER
    # staff hand it over: every former owner becomes an organizer
    third = factories.make_user()
    factories.add_member(club, third)
    staff = factories.make_user(is_staff=True)
    _client(staff).post(reverse("club_transfer", args=[club.slug]), {"user": third.pk})
    assert permissions.club_role(user=third, club=club) == Membership.Role.OWNER
    assert permissions.club_role(user=heir, club=club) == Membership.Role.ORGANIZER
    # to a non-member: refused
    stranger = factories.make_user()
    with pytest.raises(ClubRefused):
        club_services.club_transfer(club=club, owner=heir, to=stranger)


def test_the_owner_removes_and_bans_a_member_who_then_cannot_come_back() -> None:
    owner, kept, banned = (factories.make_user() for _ in range(3))
    club = factories.make_club(owner=owner)
    factories.add_member(club, kept)
    factories.add_member(club, banned)
    owner_client = _client(owner)
    remove = reverse("club_member_remove", args=[club.slug])
    assert owner_client.post(remove, {"user": kept.pk}).status_code == 302
    assert owner_client.post(remove, {"user": banned.pk, "ban": "on"}).status_code == 302
    assert not _member(club, kept) and not _member(club, banned)
    club_services.club_join(club=club, user=kept, code=club.invite_code)  # removed, not banned
    with pytest.raises(ClubRefused):
        club_services.club_join(club=club, user=banned, code=club.invite_code)
    with pytest.raises(ClubRefused):
        club_invitations.invitation_create(club=club, invited_by=owner, username=banned.username)
    address = club_invitations.invitation_create(club=club, invited_by=owner, email="x@example.org")
    with pytest.raises(ClubRefused):
        club_invitations.invitation_accept(token=address.token, user=banned)
    # the owner is not removed
    with pytest.raises(ClubRefused):
        club_services.membership_remove(club=club, user=owner, ban=False, by=owner)
    owner_client.post(reverse("club_unban", args=[club.slug]), {"user": banned.pk})
    club_services.club_join(club=club, user=banned, code=club.invite_code)
    assert _member(club, banned)


def test_a_club_by_request_takes_members_the_owner_approves() -> None:
    owner, ann, bob = (factories.make_user() for _ in range(3))
    club = factories.make_club(owner=owner)
    settings_url = reverse("club_settings", args=[club.slug])
    _client(owner).post(settings_url, {"join_mode": JoinMode.REQUEST})
    club.refresh_from_db()
    assert club.join_mode == JoinMode.REQUEST
    with pytest.raises(ClubRefused):  # the code no longer lets anyone in
        club_services.club_join(club=club, user=ann, code=club.invite_code)
    ask = reverse("club_join_request", args=[club.slug])
    for user in (ann, bob):
        assert _client(user).post(ask).status_code == 302
    page = _client(owner).get(club.get_absolute_url()).content.decode()
    assert 'data-testid="join-requests"' in page and ann.username in page
    decide = reverse("club_request_decide", args=[club.slug])
    requests = {r.user_id: r.pk for r in club.join_requests.all()}
    _client(owner).post(decide, {"request": requests[ann.pk], "action": "approve"})
    _client(owner).post(decide, {"request": requests[bob.pk], "action": "decline"})
    assert _member(club, ann) and not _member(club, bob)
    with pytest.raises(InvitationGone):  # decided already
        club_services.club_join_request_decide(club=club, request_id=requests[bob.pk], approve=True)
    # by invitation only: neither the code nor a request
    club_services.club_settings_set(club=club, ratings_public=False, join_mode=JoinMode.INVITATION)
    with pytest.raises(ClubRefused):
        club_services.club_join_request(club=club, user=bob)
    invite = club_invitations.invitation_create(club=club, invited_by=owner, username=bob.username)
    club_invitations.invitation_accept(token=invite.token, user=bob)
    assert _member(club, bob)


def test_organizers_see_the_member_list_members_do_not() -> None:
    owner, organizer, member = (factories.make_user() for _ in range(3))
    club = factories.make_club(owner=owner)
    factories.add_member(club, organizer, Membership.Role.ORGANIZER)
    factories.add_member(club, member)
    other = factories.make_user("anderlid")
    factories.add_member(club, other)
    for user, sees in ((owner, True), (organizer, True), (member, False), (None, False)):
        page = _client(user).get(club.get_absolute_url()).content.decode()
        assert ('data-testid="club-members"' in page) is sees
        assert ("anderlid" in page) is sees
    # the organizer sees the list but does not manage it
    page = _client(organizer).get(club.get_absolute_url()).content.decode()
    assert 'data-testid="remove-member"' not in page


def test_personal_invitations_expire_are_withdrawn_and_survive_the_codes_renewal() -> None:
    owner, ann, bob = (factories.make_user() for _ in range(3))
    club = factories.make_club(owner=owner)
    first = club_invitations.invitation_create(club=club, invited_by=owner, username=ann.username)
    club_services.club_invite_renew(club=club)
    # for ann only
    with pytest.raises(ClubRefused):
        club_invitations.invitation_accept(token=first.token, user=bob)
    # expired
    ClubInvite.objects.filter(pk=first.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(InvitationGone):
        club_invitations.invitation_accept(token=first.token, user=ann)
    assert _client(ann).get(reverse("club_invitation", args=[first.token])).status_code == 410
    # withdrawn (the owner's button), then used twice
    second = club_invitations.invitation_create(club=club, invited_by=owner, username=bob.username)
    withdraw = reverse("club_invite_withdraw", args=[club.slug])
    assert _client(owner).post(withdraw, {"invite": second.pk}).status_code == 302
    with pytest.raises(InvitationGone):
        club_invitations.invitation_accept(token=second.token, user=bob)
    with pytest.raises(InvitationGone):
        club_invitations.invitation_withdraw(club=club, invite_id=second.pk)
    third = club_invitations.invitation_create(club=club, invited_by=owner, username=ann.username)
    club_services.club_invite_renew(club=club)
    club_invitations.invitation_accept(token=third.token, user=ann)
    assert _member(club, ann)
    with pytest.raises(InvitationGone):
        club_invitations.invitation_accept(token=third.token, user=ann)
    assert _client().get(reverse("club_invitation", args=["nothing-like-it"])).status_code == 404


def test_an_address_invitation_is_mailed_once_and_opens_to_whoever_has_the_link(
    mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    owner = factories.make_user("voorzitter")
    club = factories.make_club("Harten Vrouw", owner=owner)
    invite_page = reverse("club_invite_player", args=[club.slug])
    with django_capture_on_commit_callbacks(execute=True):
        _client(owner).post(invite_page, {"username": "nieuw@example.org"})
    (message,) = mailoutbox
    assert message.to == ["nieuw@example.org"]
    assert "voorzitter" in message.body and "Harten Vrouw" in message.body
    invite = ClubInvite.objects.get(club=club, email="nieuw@example.org")
    assert club_invitations.invitation_url(invite) in message.body
    assert club_invitations.invitation_mail(invite_id=invite.pk) is False  # once
    with django_capture_on_commit_callbacks(execute=True):
        again = club_invitations.invitation_create(
            club=club, invited_by=owner, email="Nieuw@example.org"
        )
    assert len(mailoutbox) == 2  # inviting again sends again
    invite.refresh_from_db()
    assert invite.withdrawn_at is not None and again.works
    with pytest.raises(ClubRefused):
        club_invitations.invitation_create(club=club, invited_by=owner, email="geen adres")


def test_an_announcement_goes_to_each_member_once_and_is_listed_for_members(
    mailoutbox: list[Any], django_capture_on_commit_callbacks: Any
) -> None:
    owner = factories.make_user("eigenaar", email="eigenaar@example.org")
    organizer = factories.make_user("organisator", email="org@example.org")
    member = factories.make_user("lid", email="lid@example.org")
    outsider = factories.make_user("buiten", email="buiten@example.org")
    club = factories.make_club("Ruitenboer", owner=owner)
    factories.add_member(club, organizer, Membership.Role.ORGANIZER)
    factories.add_member(club, member)
    announce = reverse("club_announce", args=[club.slug])
    data = {"subject": "Kerstdrive", "body": "Op 20 december spelen we de kerstdrive."}
    assert _client(member).post(announce, data).status_code == 403
    assert _client(outsider).post(announce, data).status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        assert _client(organizer).post(announce, data).status_code == 302
    assert sorted(m.to[0] for m in mailoutbox) == [
        "eigenaar@example.org",
        "lid@example.org",
        "org@example.org",
    ]
    message = next(m for m in mailoutbox if m.to == ["lid@example.org"])
    assert message.subject == "Ruitenboer: Kerstdrive"
    assert "Op 20 december spelen we de kerstdrive." in message.body
    assert "/mail/off/" in message.extra_headers["List-Unsubscribe"]
    announcement = ClubAnnouncement.objects.get(club=club)
    batches = club_announcements.announcement_recipients(announcement_id=announcement.pk)
    assert batches == []  # everyone had it
    assert (
        club_announcements.announcement_mail(announcement_id=announcement.pk, user_ids=[member.pk])
        == 0
    )
    for user, sees in ((member, True), (owner, True), (outsider, False), (None, False)):
        page = _client(user).get(club.get_absolute_url()).content.decode()
        assert ("Kerstdrive" in page) is sees
    empty = _client(owner).post(announce, {"subject": " ", "body": "x"})
    assert empty.status_code == 302 and ClubAnnouncement.objects.count() == 1


def test_a_visitor_follows_the_link_signs_up_and_is_a_member_at_once(
    django_capture_on_commit_callbacks: Any,
) -> None:
    owner = factories.make_user()
    club = factories.make_club("Klaverjasclub Zuid", owner=owner)
    club.join_mode = JoinMode.INVITATION
    club.save(update_fields=["join_mode"])
    invite = club_invitations.invitation_create(
        club=club, invited_by=owner, email="new@example.org"
    )
    visitor = Client()
    link = reverse("club_invitation", args=[invite.token])
    page = visitor.get(link)
    assert page.status_code == 200 and 'data-testid="invitation-signup"' in page.content.decode()
    password = "een-lang-wachtwoord-42"
    response = visitor.post(
        reverse("signup") + f"?next={link}",
        {"username": "nieuweling", "password1": password, "password2": password, "next": link},
    )
    assert response.status_code == 302
    newcomer = Membership.objects.get(club=club, user__username="nieuweling")
    assert newcomer.role == Membership.Role.MEMBER
    invite.refresh_from_db()
    assert invite.accepted_by == newcomer.user and not invite.works
    # back on the link: to the club's page
    assert visitor.get(link)["Location"] == club.get_absolute_url()
