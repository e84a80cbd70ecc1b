"""Reads of clubs: the list with their member counts, a club's page (its open and recent
tournaments as the viewer may see them, its series), its members, its pending requests
and invitations, its announcements; whether a player has a verified mail address (who may
create a club)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet
from django.utils import timezone

from tournaments.models import (
    Club,
    ClubAnnouncement,
    ClubBan,
    ClubInvite,
    JoinRequest,
    Membership,
    Series,
    Tournament,
)

#: Recent (closed) tournaments a club's page shows.
RECENT = 10


def clubs_with_counts() -> QuerySet[Club]:
    """Every club that is not suspended with ``members`` (its number of members), by
    name."""
    return (
        Club.objects.filter(suspended_at__isnull=True)
        .annotate(members=Count("memberships"))
        .order_by("name", "id")
    )


def has_verified_address(*, user: Any) -> bool:
    """Whether ``user`` has a mail address the site may count on (docs/rules.md, "Clubs",
    rule 7: who may create a club). Until the site verifies addresses: any address."""
    return bool(getattr(user, "is_authenticated", False) and user.email)


def clubs_created(*, user: Any) -> int:
    """How many clubs ``user`` created on the site (the limit per player)."""
    return Club.objects.filter(created_by_id=user.pk).count()


def is_banned(*, club: Club, user: Any) -> bool:
    """Whether the owner barred ``user`` from ``club``."""
    return bool(
        getattr(user, "is_authenticated", False)
        and ClubBan.objects.filter(club=club, user_id=user.pk).exists()
    )


def club_bans(*, club: Club) -> list[ClubBan]:
    return list(ClubBan.objects.filter(club=club).select_related("user").order_by("created_at"))


def join_requests(*, club: Club) -> list[JoinRequest]:
    """The requests to join ``club`` waiting for a decision, oldest first."""
    return list(
        JoinRequest.objects.filter(club=club).select_related("user").order_by("created_at", "id")
    )


def has_requested(*, club: Club, user: Any) -> bool:
    return bool(
        getattr(user, "is_authenticated", False)
        and JoinRequest.objects.filter(club=club, user_id=user.pk).exists()
    )


def open_invites(*, club: Club) -> list[ClubInvite]:
    """The club's invitations that still work (not expired, withdrawn or used), newest
    first."""
    return list(
        ClubInvite.objects.filter(
            club=club,
            withdrawn_at__isnull=True,
            accepted_at__isnull=True,
            expires_at__gt=timezone.now(),
        )
        .select_related("user")
        .order_by("-created_at", "-id")
    )


def announcements(*, club: Club, limit: int = 20) -> list[ClubAnnouncement]:
    """The club's latest announcements, newest first."""
    return list(ClubAnnouncement.objects.filter(club=club).select_related("author")[:limit])


@dataclass(frozen=True)
class ClubPage:
    club: Club
    members: int
    open: list[Tournament]
    recent: list[Tournament]
    series: list[Series]


def club_page(
    *, club: Club, tournaments: QuerySet[Tournament], series: QuerySet[Series]
) -> ClubPage:
    """What a club's page shows: its tournaments that have not closed (open and coming,
    by opening) and the last ``RECENT`` closed ones, its series; ``tournaments`` and
    ``series`` are what the viewer may see (``permissions.visible_tournaments``)."""
    mine = tournaments.filter(club=club)
    return ClubPage(
        club=club,
        members=Membership.objects.filter(club=club).count(),
        open=list(mine.filter(closed_at__isnull=True).order_by("opens_at", "id")),
        recent=list(mine.filter(closed_at__isnull=False).order_by("-closed_at", "-id")[:RECENT]),
        series=list(series.filter(club=club).order_by("name", "id")),
    )


def club_members(*, club: Club) -> list[Membership]:
    """The club's members, owners first, then organizers, then members, by name."""
    order: dict[str, int] = {
        Membership.Role.OWNER: 0,
        Membership.Role.ORGANIZER: 1,
        Membership.Role.MEMBER: 2,
    }
    rows = list(Membership.objects.filter(club=club).select_related("user"))
    rows.sort(key=lambda m: (order.get(m.role, 3), m.user.username.lower()))
    return rows


def user_memberships(*, user: Any) -> list[Membership]:
    """The clubs ``user`` is in (none for a visitor)."""
    if not getattr(user, "is_authenticated", False):
        return []
    return list(Membership.objects.filter(user_id=user.pk).select_related("club"))


def member_ids(*, club: Club) -> QuerySet[Membership, int]:
    """The user ids of the club's members (a rating list of the club: ``selectors.ratings``)."""
    return Membership.objects.filter(club=club).values_list("user_id", flat=True)
