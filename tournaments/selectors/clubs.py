"""Reads of clubs: the list with their member counts, a club's page (its open and recent
tournaments as the viewer may see them, its series), its members."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, QuerySet

from tournaments.models import Club, Membership, Series, Tournament

#: Recent (closed) tournaments a club's page shows.
RECENT = 10


def clubs_with_counts() -> QuerySet[Club]:
    """Every club with ``members`` (its number of members), by name."""
    return Club.objects.annotate(members=Count("memberships")).order_by("name", "id")


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
