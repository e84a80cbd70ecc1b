"""Every role against every tournament, series, entry, export and review action of a club
(docs/rules.md, "Clubs: members, organizers, who may enter", and "Tournaments and the
site", rule 23), the answers written out in one table: remove any rule of
``tournaments.permissions`` and a row of the table no longer holds.

The club A has an owner, an organizer and a member; another club B has its organizer.
Beside them a player (no club), staff and a visitor, and an API token of each logged-in
role (a token is its user under ``/api/`` only: on a page it is a visitor). Where an action
changes something, the answer says whether it did (``CLOSED``, ``RESOLVED``, ...), not
only the status code."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import factories
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import permissions, tokens
from tournaments.models import (
    Access,
    Club,
    ClubAnnouncement,
    ClubInvite,
    Entry,
    JoinMode,
    Membership,
    Series,
    Tournament,
)
from tournaments.series import series_create
from tournaments.services import closing as closing_services
from tournaments.services import club_invitations
from tournaments.services import clubs as club_services
from tournaments.services import entries as entry_services

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "player",
    "member",
    "other_organizer",
    "organizer",
    "owner",
    "staff",
    "token_player",
    "token_member",
    "token_other_organizer",
    "token_organizer",
    "token_owner",
    "token_staff",
)

LOGIN = "login"  # redirected to the log-in page
PLAY = "play"  # redirected to the new game's table: entered
CREATED = "created"
CLOSED = "closed"
RESOLVED = "resolved"
PROMOTED = "promoted"
RENEWED = "renewed"
INVITED = "invited"
LISTED = "listed"
HIDDEN = "hidden"
JOINED = "joined"
LEFT = "left"
STAYED = "stayed"
SHOWN = "shown"
SAVED = "saved"
TRANSFERRED = "transferred"
REMOVED = "removed"
APPROVED = "approved"
WITHDRAWN = "withdrawn"
REQUESTED = "requested"
SUSPENDED = "suspended"
ANNOUNCED = "announced"
NONE = "none"

#: action -> the answer of each role, in ``ROLES``' order: the seven roles with a session
#: (or none), then the six tokens. A page's token column is a visitor's answer.
EXPECTED: dict[str, tuple[Any, ...]] = {
    # the organizer's pages: the club's organizers and owner, and staff
    "tournament_create_form": (LOGIN, 403, 403, 200, 200, 200, 200, *[LOGIN] * 6),
    # POST with club A: another club's organizer is offered no such club (the form again)
    "tournament_create": (LOGIN, 403, 403, 200, CREATED, CREATED, CREATED, *[LOGIN] * 6),
    "series_create": (LOGIN, 403, 403, 200, CREATED, CREATED, CREATED, *[LOGIN] * 6),
    # the club's page offers "new tournament" and "new series" to whoever may create there
    "club_page_create_links": (NONE, NONE, NONE, NONE, SHOWN, SHOWN, SHOWN, *[NONE] * 6),
    "tournament_edit": (LOGIN, 403, 403, 404, 200, 200, 200, *[LOGIN] * 6),
    "tournament_close": (LOGIN, 403, 403, 404, CLOSED, CLOSED, CLOSED, *[LOGIN] * 6),
    "tournament_entries": (LOGIN, 403, 403, 404, 200, 200, 200, *[LOGIN] * 6),
    "entry_audit_resolve": (LOGIN, 403, 403, 404, RESOLVED, RESOLVED, RESOLVED, *[LOGIN] * 6),
    # a members-only tournament: the club's members in any role, and staff
    "members_detail": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "members_rules": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "members_leaderboard": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "members_verify": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "members_standings_csv": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    # closed: its records, a game's replay, sheet and record, where two games split
    "members_records_zip": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "members_replay": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "members_record": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "members_split": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "members_sheet": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    # practice from it: "speel vanaf hier" and "play this deal again" (logged in only)
    "members_what_if": (LOGIN, 404, PLAY, 404, PLAY, PLAY, PLAY, *[LOGIN] * 6),
    "members_deal_again": (LOGIN, 404, PLAY, 404, PLAY, PLAY, PLAY, *[LOGIN] * 6),
    # a game's own pages stay its player's (the member's game)
    "members_review": (LOGIN, 404, 200, 404, 404, 404, 404, *[LOGIN] * 6),
    "api_game": (403, 404, 200, 404, 404, 404, 404, 404, 200, 404, 404, 404, 404),
    # the lists: the home page and the series list name it only to whoever may see it
    "home_lists_it": (HIDDEN, HIDDEN, LISTED, HIDDEN, LISTED, LISTED, LISTED, *[HIDDEN] * 6),
    "series_list_lists_it": (
        HIDDEN,
        HIDDEN,
        LISTED,
        HIDDEN,
        LISTED,
        LISTED,
        LISTED,
        *[HIDDEN] * 6,
    ),
    # entering: staff see it but are no member (refused, back to its page)
    "members_join": (LOGIN, 404, PLAY, 404, PLAY, PLAY, 302, *[LOGIN] * 6),
    # an invite tournament: without its code as members-only, with it open to anyone
    "invite_detail": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "invite_detail_with_code": (200, 200, 200, 200, 200, 200, 200, *[200] * 6),
    "invite_join_with_code": (LOGIN, PLAY, PLAY, PLAY, PLAY, PLAY, PLAY, *[LOGIN] * 6),
    # a members-only series: its page and its season
    "series_detail": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "series_season_csv": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    # the API: a token is its user
    "api_tournament": (404, 404, 200, 404, 200, 200, 200, 404, 200, 404, 200, 200, 200),
    "api_tournaments": (
        HIDDEN,
        HIDDEN,
        LISTED,
        HIDDEN,
        LISTED,
        LISTED,
        LISTED,
        HIDDEN,
        LISTED,
        HIDDEN,
        LISTED,
        LISTED,
        LISTED,
    ),
    "api_standings": (404, 404, 200, 404, 200, 200, 200, 404, 200, 404, 200, 200, 200),
    "api_join": (403, 404, 201, 404, 201, 201, 403, 404, 201, 404, 201, 201, 403),
    "api_series": (404, 404, 200, 404, 200, 200, 200, 404, 200, 404, 200, 200, 200),
    "api_series_season": (404, 404, 200, 404, 200, 200, 200, 404, 200, 404, 200, 200, 200),
    # the club's members: the owner (and staff) appoints organizers and renews the invite
    "member_role": (LOGIN, 403, 403, 403, 403, PROMOTED, PROMOTED, *[LOGIN] * 6),
    "invite_renew": (LOGIN, 403, 403, 403, 403, RENEWED, RENEWED, *[LOGIN] * 6),
    # inviting a player by name (mailed): the owner and staff
    "invite_player": (LOGIN, 403, 403, 403, 403, INVITED, INVITED, *[LOGIN] * 6),
    # the members' rating list: members and staff (the page's token column a visitor's)
    "club_ratings": (404, 404, 200, 404, 200, 200, 200, *[404] * 6),
    "api_club_ratings": (404, 404, 200, 404, 200, 200, 200, 404, 200, 404, 200, 200, 200),
    # the club's settings (its rating list public): the owner and staff
    "club_settings": (LOGIN, 403, 403, 403, 403, SAVED, SAVED, *[LOGIN] * 6),
    # joining another club C by its invite link: anyone logged in
    "club_join_by_link": (LOGIN, JOINED, JOINED, JOINED, JOINED, JOINED, JOINED, *[LOGIN] * 6),
    # starting a club: a player with a (verified) mail address, every role here has one
    "club_create": (LOGIN, *[CREATED] * 6, *[LOGIN] * 6),
    # the member list: the club's organizers and owner, and staff
    "members_list": (NONE, NONE, NONE, NONE, SHOWN, SHOWN, SHOWN, *[NONE] * 6),
    # the owner (and staff) hands the club over, removes and bans, decides requests,
    # withdraws invitations
    "club_transfer": (LOGIN, 403, 403, 403, 403, TRANSFERRED, TRANSFERRED, *[LOGIN] * 6),
    "member_remove": (LOGIN, 403, 403, 403, 403, REMOVED, REMOVED, *[LOGIN] * 6),
    "request_decide": (LOGIN, 403, 403, 403, 403, APPROVED, APPROVED, *[LOGIN] * 6),
    "invite_withdraw": (LOGIN, 403, 403, 403, 403, WITHDRAWN, WITHDRAWN, *[LOGIN] * 6),
    # asking to join club C (by request): anyone logged in
    "join_request": (LOGIN, *[REQUESTED] * 6, *[LOGIN] * 6),
    # suspending club D: staff only
    "club_suspend": (LOGIN, 403, 403, 403, 403, 403, SUSPENDED, *[LOGIN] * 6),
    # an announcement to the members: the owner and organizers (staff are no member)
    "club_announce": (LOGIN, 403, 403, 403, ANNOUNCED, ANNOUNCED, 403, *[LOGIN] * 6),
    # the announcements on the club's page: its members and staff
    "announcements_seen": (NONE, NONE, SHOWN, NONE, SHOWN, SHOWN, SHOWN, *[NONE] * 6),
    # last (it changes who is in club A): leaving; its last owner may not, a non-member 404
    "club_leave": (LOGIN, 404, LEFT, 404, LEFT, STAYED, 404, *[LOGIN] * 6),
}


def _close(t: Tournament) -> None:
    Tournament.objects.filter(pk=t.pk).update(closes_at=timezone.now())
    closing_services.tournament_close(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.is_closed


class Clubs:
    """Club A (owner, organizer, member) with a public tournament an outsider entered, a
    members-only one, an invite one, a closed members-only one with a member's game and a
    members-only series; club B with its organizer."""

    def __init__(self) -> None:
        self.users = {
            name: factories.make_user(email=f"{name}@example.org", is_staff=name == "staff")
            for name in ("player", "member", "organizer", "owner", "other_organizer", "staff")
        }
        u = self.users
        self.club = factories.make_club("Club A", owner=u["owner"])
        factories.add_member(self.club, u["organizer"], Membership.Role.ORGANIZER)
        factories.add_member(self.club, u["member"])
        other = factories.make_club("Club B")
        factories.add_member(other, u["other_organizer"], Membership.Role.ORGANIZER)
        self.tokens = {
            f"token_{name}": tokens.token_create(user=user, name="t").key
            for name, user in u.items()
        }
        # created by the owner: the organizer acts on it as the club's, not as its creator
        self.public = self.tournament(Access.PUBLIC)
        self.entry = entry_services.entry_join(tournament_id=self.public.pk, user=u["player"])
        self.members = self.tournament(Access.MEMBERS)
        self.invite = self.tournament(Access.INVITE)
        # Klassiek: a variant with a score sheet (it counts cards, rule 13)
        self.closed = factories.make_tournament(
            created_by=u["owner"],
            club=self.club,
            access=Access.MEMBERS,
            name="closed members",
            preset="klassiek",
            rounds=2,
        )
        self.game = entry_services.entry_join(tournament_id=self.closed.pk, user=u["member"]).game
        _close(self.closed)
        self.game.refresh_from_db()
        self.series = series_create(
            created_by=u["owner"],
            club=self.club,
            access=Access.MEMBERS,
            name="Ledenreeks",
            game="jokeren",
            preset="jokeren7",
            rounds=1,
            bot_level="basic",
            kind="daily",
            time_of_day=timezone.localtime().time().replace(microsecond=0),
            window_minutes=60,
            starts_on=date(2026, 1, 1),
        )

    def tournament(self, access: str, south_plays: tuple[int, ...] = ()) -> Tournament:
        return factories.make_tournament(
            created_by=self.users["owner"],
            club=self.club,
            access=access,
            name=f"{access} {Tournament.objects.count()}",
            south_plays=south_plays,
        )

    def client(self, role: str) -> Client:
        if role.startswith("token_"):
            return Client(HTTP_AUTHORIZATION=f"Bearer {self.tokens[role]}")
        client = Client()
        if role in self.users:
            client.force_login(self.users[role])
        return client

    def act(self, client: Client, role: str, action: str) -> Any:
        """Carry out ``action`` as ``client``; the answer as the table writes it."""
        if action == "tournament_create_form":
            return _answer(client.get(reverse("tournament_create")))
        if action == "tournament_create":
            name = f"Nieuw {role}"
            data = factories.tournament_form_data(name=name, club=self.club.pk)
            response = client.post(reverse("tournament_create"), data)
            if Tournament.objects.filter(name=name, club=self.club).exists():
                return CREATED
            return _answer(response)
        if action == "series_create":
            name = f"Reeks {role}"
            data = factories.tournament_form_data(name=name, club=self.club.pk)
            for key in ("opens_at", "closes_at"):
                data.pop(key)
            data.update(
                kind="daily",
                time_of_day="20:00",
                window_minutes="60",
                starts_on=str(timezone.localdate() + timedelta(days=1)),
                best_k="5",
            )
            response = client.post(reverse("series_create"), data)
            if Series.objects.filter(name=name, club=self.club).exists():
                return CREATED
            return _answer(response)
        if action == "club_page_create_links":
            page = client.get(self.club.get_absolute_url()).content.decode()
            return SHOWN if 'data-testid="club-create-links"' in page else NONE
        if action == "tournament_edit":
            return _answer(client.get(reverse("tournament_edit", args=[self.public.pk])))
        if action == "tournament_close":
            t = self.tournament(Access.PUBLIC)
            response = client.post(reverse("tournament_close", args=[t.pk]))
            t.refresh_from_db()
            return CLOSED if t.closes_at <= timezone.now() else _answer(response)
        if action == "tournament_entries":
            return _answer(client.get(reverse("tournament_entries", args=[self.public.pk])))
        if action == "entry_audit_resolve":
            Entry.objects.filter(pk=self.entry.pk).update(
                audit_status=Entry.AuditStatus.MISMATCH, audit_detail="round 1 differs"
            )
            url = reverse("entry_audit", args=[self.public.pk, self.entry.pk])
            response = client.post(url, {"action": "resolve"})
            self.entry.refresh_from_db()
            if self.entry.audit_status == Entry.AuditStatus.RESOLVED:
                return RESOLVED
            return _answer(response)
        members, closed, game = self.members.pk, self.closed.pk, self.game.pk
        pages = {
            "members_detail": reverse("tournament_detail", args=[members]),
            "members_rules": reverse("tournament_rules", args=[members]),
            "members_leaderboard": reverse("tournament_leaderboard", args=[members]),
            "members_verify": reverse("tournament_verify", args=[members]),
            "members_standings_csv": reverse("tournament_standings_csv", args=[members]),
            "members_records_zip": reverse("tournament_records_zip", args=[closed]),
            "members_replay": reverse("game_replay", args=[game]),
            "members_record": reverse("game_record", args=[game]),
            "members_split": reverse("game_split", args=[game]) + "?round=0&with=par",
            "members_sheet": reverse("game_sheet", args=[game]),
            "members_review": reverse("game_review", args=[game]),
            "api_game": reverse("api_game", args=[game]),
            "invite_detail": reverse("tournament_detail", args=[self.invite.pk]),
            "invite_detail_with_code": reverse("tournament_detail", args=[self.invite.pk])
            + f"?code={self.invite.invite_code}",
            "series_detail": reverse("series_detail", args=[self.series.pk]),
            "series_season_csv": reverse("series_season_csv", args=[self.series.pk]),
            "api_tournament": reverse("api_tournament", args=[members]),
            "api_standings": reverse("api_tournament_standings", args=[members]),
            "api_series": reverse("api_series", args=[self.series.pk]),
            "api_series_season": reverse("api_series_season", args=[self.series.pk]),
        }
        if action in pages:
            return _answer(client.get(pages[action]))
        if action == "members_join":
            t = self.tournament(Access.MEMBERS, south_plays=(0,))
            return _answer(client.post(reverse("tournament_join", args=[t.pk])))
        if action == "invite_join_with_code":
            t = self.tournament(Access.INVITE, south_plays=(0,))
            url = reverse("tournament_join", args=[t.pk])
            return _answer(client.post(url, {"code": t.invite_code}))
        if action == "api_join":
            t = self.tournament(Access.MEMBERS, south_plays=(0,))
            return client.post(reverse("api_tournament_join", args=[t.pk])).status_code
        if action == "api_tournaments":
            ids: set[int] = set()
            page = 1
            while True:
                data = client.get(reverse("api_tournaments") + f"?page={page}").json()
                ids |= {t["id"] for t in data["tournaments"]}
                if page >= data["pages"]:
                    break
                page += 1
            return LISTED if self.members.pk in ids else HIDDEN
        if action == "members_what_if":
            url = reverse("game_what_if", args=[game])
            return _answer(client.post(url, {"round": 0, "start": 0}))
        if action == "members_deal_again":
            return _answer(client.post(reverse("tournament_deal_again", args=[closed, 0])))
        if action == "home_lists_it":
            text = client.get(reverse("home")).content.decode()
            return LISTED if self.members.name in text else HIDDEN
        if action == "series_list_lists_it":
            text = client.get(reverse("series_list")).content.decode()
            return LISTED if self.series.name in text else HIDDEN
        if action == "club_ratings":
            url = reverse("rating_list", args=["jokeren"]) + f"?club={self.club.slug}"
            return _answer(client.get(url))
        if action == "api_club_ratings":
            url = reverse("api_ratings", args=["jokeren"]) + f"?club={self.club.slug}"
            return _answer(client.get(url))
        if action == "club_settings":
            url = reverse("club_settings", args=[self.club.slug])
            response = client.post(url, {"ratings_public": "on"})
            self.club.refresh_from_db()
            saved = self.club.ratings_public
            Club.objects.filter(pk=self.club.pk).update(ratings_public=False)
            return SAVED if saved else _answer(response)
        if action in CLUB_ACTIONS:
            return self.club_action(client, role, action)
        if action == "club_join_by_link":
            club = factories.make_club()
            link = reverse("club_join", args=[club.slug])
            response = client.post(link, {"code": club.invite_code})
            if Membership.objects.filter(club=club).exists():
                return JOINED
            return _answer(response)
        if action == "club_leave":
            user = self.users.get(role)
            response = client.post(reverse("club_leave", args=[self.club.slug]))
            if user is None or response.status_code != 302 or "login" in response["Location"]:
                return _answer(response)
            still = Membership.objects.filter(club=self.club, user=user).exists()
            return STAYED if still else LEFT
        if action == "member_role":
            newcomer = factories.make_user()
            factories.add_member(self.club, newcomer)
            response = client.post(
                reverse("club_member_role", args=[self.club.slug]),
                {"user": newcomer.pk, "role": Membership.Role.ORGANIZER},
            )
            role_now = Membership.objects.get(club=self.club, user=newcomer).role
            return PROMOTED if role_now == Membership.Role.ORGANIZER else _answer(response)
        if action == "invite_player":
            invited = factories.make_user()
            response = client.post(
                reverse("club_invite_player", args=[self.club.slug]),
                {"username": invited.get_username()},
            )
            done = ClubInvite.objects.filter(club=self.club, user=invited).exists()
            return INVITED if done else _answer(response)
        assert action == "invite_renew"
        before = self.club.invite_code
        response = client.post(reverse("club_invite_renew", args=[self.club.slug]))
        self.club.refresh_from_db()
        return RENEWED if self.club.invite_code != before else _answer(response)

    def club_action(self, client: Client, role: str, action: str) -> Any:
        """The actions of a club run by its members (rules 7-9)."""
        club = self.club
        newcomer = factories.make_user()
        if action == "club_create":
            name = f"Eigen club {role}"
            response = client.post(reverse("club_create"), {"name": name})
            return CREATED if Club.objects.filter(name=name).exists() else _answer(response)
        if action == "members_list":
            page = client.get(club.get_absolute_url()).content.decode()
            return SHOWN if 'data-testid="club-members"' in page else NONE
        if action == "club_transfer":
            factories.add_member(club, newcomer)
            response = client.post(
                reverse("club_transfer", args=[club.slug]), {"user": newcomer.pk}
            )
            done = permissions.club_role(user=newcomer, club=club) == Membership.Role.OWNER
            Membership.objects.filter(club=club, user=newcomer).delete()
            Membership.objects.filter(club=club, user=self.users["owner"]).update(
                role=Membership.Role.OWNER
            )
            return TRANSFERRED if done else _answer(response)
        if action == "member_remove":
            factories.add_member(club, newcomer)
            url = reverse("club_member_remove", args=[club.slug])
            response = client.post(url, {"user": newcomer.pk, "ban": "on"})
            done = not Membership.objects.filter(club=club, user=newcomer).exists()
            return REMOVED if done else _answer(response)
        if action == "request_decide":
            Club.objects.filter(pk=club.pk).update(join_mode=JoinMode.REQUEST)
            club.refresh_from_db()
            request = club_services.club_join_request(club=club, user=newcomer)
            url = reverse("club_request_decide", args=[club.slug])
            response = client.post(url, {"request": request.pk, "action": "approve"})
            Club.objects.filter(pk=club.pk).update(join_mode=JoinMode.CODE)
            done = Membership.objects.filter(club=club, user=newcomer).exists()
            Membership.objects.filter(club=club, user=newcomer).delete()
            return APPROVED if done else _answer(response)
        if action == "invite_withdraw":
            invite = club_invitations.invitation_create(
                club=club, invited_by=self.users["owner"], username=newcomer.username
            )
            url = reverse("club_invite_withdraw", args=[club.slug])
            response = client.post(url, {"invite": invite.pk})
            invite.refresh_from_db()
            return WITHDRAWN if invite.withdrawn_at is not None else _answer(response)
        if action == "join_request":
            other = factories.make_club()
            Club.objects.filter(pk=other.pk).update(join_mode=JoinMode.REQUEST)
            response = client.post(reverse("club_join_request", args=[other.slug]))
            asked = other.join_requests.exists()
            return REQUESTED if asked else _answer(response)
        if action == "club_suspend":
            other = factories.make_club()
            response = client.post(reverse("club_suspend", args=[other.slug]), {"suspend": "on"})
            other.refresh_from_db()
            return SUSPENDED if other.suspended_at is not None else _answer(response)
        if action == "club_announce":
            subject = f"Bericht van {role}"
            url = reverse("club_announce", args=[club.slug])
            response = client.post(url, {"subject": subject, "body": "Tot vanavond."})
            done = ClubAnnouncement.objects.filter(club=club, subject=subject).exists()
            return ANNOUNCED if done else _answer(response)
        assert action == "announcements_seen"
        page = client.get(club.get_absolute_url()).content.decode()
        return SHOWN if 'data-testid="club-announcements"' in page else NONE


#: The actions ``Clubs.club_action`` carries out.
CLUB_ACTIONS = frozenset(
    {
        "club_create",
        "members_list",
        "club_transfer",
        "member_remove",
        "request_decide",
        "invite_withdraw",
        "join_request",
        "club_suspend",
        "club_announce",
        "announcements_seen",
    }
)


def _answer(response: Any) -> Any:
    if response.status_code == 302:
        location = response["Location"]
        if location.startswith(reverse("login")):
            return LOGIN
        if location.startswith("/games/"):
            return PLAY
    return response.status_code


def test_every_role_gets_what_the_club_rules_say_for_every_action() -> None:
    clubs = Clubs()
    clients = {role: clubs.client(role) for role in ROLES}
    got = {
        action: tuple(clubs.act(clients[role], role, action) for role in ROLES)
        for action in EXPECTED
    }
    wrong = {
        action: {
            role: (answer, want)
            for role, answer, want in zip(ROLES, got[action], EXPECTED[action], strict=True)
            if answer != want
        }
        for action in EXPECTED
        if got[action] != EXPECTED[action]
    }
    assert wrong == {}, "role: (got, expected)"


def test_the_table_has_an_answer_for_every_role() -> None:
    assert all(len(answers) == len(ROLES) for answers in EXPECTED.values())


def test_an_entrant_who_left_the_club_still_sees_the_tournament_they_entered() -> None:
    clubs = Clubs()
    member = clubs.users["member"]
    Membership.objects.filter(club=clubs.club, user=member).delete()
    client = clubs.client("member")
    assert client.get(reverse("tournament_detail", args=[clubs.closed.pk])).status_code == 200
    assert client.get(reverse("game_replay", args=[clubs.game.pk])).status_code == 200
    # ... and no longer one they did not enter
    assert client.get(reverse("tournament_detail", args=[clubs.members.pk])).status_code == 404


def test_a_wrong_invite_code_opens_nothing() -> None:
    clubs = Clubs()
    client = clubs.client("player")
    url = reverse("tournament_detail", args=[clubs.invite.pk])
    assert client.get(url + "?code=not-the-code").status_code == 404
    join = client.post(reverse("tournament_join", args=[clubs.invite.pk]), {"code": "nope"})
    assert join.status_code == 404
    assert not Entry.objects.filter(tournament=clubs.invite).exists()


def test_a_code_seen_once_opens_the_invite_tournaments_other_pages_in_that_session() -> None:
    clubs = Clubs()
    client = clubs.client("player")
    rules = reverse("tournament_rules", args=[clubs.invite.pk])
    assert client.get(rules).status_code == 404
    detail = reverse("tournament_detail", args=[clubs.invite.pk])
    assert client.get(detail + f"?code={clubs.invite.invite_code}").status_code == 200
    assert client.get(rules).status_code == 200
    # another session has not seen the code
    assert clubs.client("player").get(rules).status_code == 404
