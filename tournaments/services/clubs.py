"""Clubs: create one, join it with its invite code, set a member's role, leave it, renew
the invite (docs/rules.md, "Clubs: members, organizers, who may enter"). Who may ask for
what is ``tournaments.permissions``'s to decide; these use cases keep the club whole: a
member once per club, an owner always left (the last owner may not leave nor be demoted)."""

from __future__ import annotations

import secrets
from urllib.parse import urlencode

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from tournaments import jobs
from tournaments.errors import ClubRefused, InvalidSettings
from tournaments.models import Club, ClubInvite, MailKind, Membership
from tournaments.permissions import code_matches, may_leave_club
from tournaments.services.mail import site_url

#: The club every tournament and series made before clubs belongs to (migration 0016_clubs).
DEFAULT_CLUB_SLUG = "standaard"
DEFAULT_CLUB_NAME = "Jokeren & Klaverjassen"


def new_invite_code() -> str:
    """A fresh random invite code (16 URL-safe characters, 96 bits)."""
    return secrets.token_urlsafe(12)


def club_create(
    *, name: str, slug: str = "", description: str = "", owner: User | None = None
) -> Club:
    """A new club with a fresh invite code; ``owner`` (if given) becomes its owner. The
    address (``slug``) comes from the name when not given; it must be free."""
    name = name.strip()
    if not name:
        raise InvalidSettings.of(_("A club needs a name."))
    slug = slugify(slug or name)[:60]
    if not slug:
        raise InvalidSettings.of(_("A club needs an address of letters and digits."))
    try:
        with transaction.atomic():
            club = Club.objects.create(
                name=name, slug=slug, description=description, invite_code=new_invite_code()
            )
            if owner is not None:
                Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    except IntegrityError as exc:
        raise InvalidSettings.of(
            _("The address %(slug)s is taken by another club."), slug=slug
        ) from exc
    return club


def club_default() -> Club:
    """The default club (made by migration 0016_clubs; again here where it is missing)."""
    club, _created = Club.objects.get_or_create(
        slug=DEFAULT_CLUB_SLUG,
        defaults={"name": DEFAULT_CLUB_NAME, "invite_code": new_invite_code()},
    )
    return club


def club_join(*, club: Club, user: User, code: str) -> Membership:
    """``user`` joins ``club`` as a member with its invite code (from the invite link or
    typed in); a member already keeps their role. A wrong or old code: refused."""
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        if not code_matches(given=code, expected=locked.invite_code):
            raise ClubRefused.of(_("This invite code is not (or no longer) valid."))
        membership, _created = Membership.objects.get_or_create(
            club=locked, user=user, defaults={"role": Membership.Role.MEMBER}
        )
    return membership


def club_by_invite_code(*, code: str) -> Club | None:
    """The club whose current invite code is ``code`` (``None`` for none)."""
    code = code.strip()
    if not code:
        return None
    return Club.objects.filter(invite_code=code).first()


def club_invite_renew(*, club: Club) -> Club:
    """A new invite code: the old link and code no longer let anyone join."""
    with transaction.atomic():
        Club.objects.filter(pk=club.pk).update(invite_code=new_invite_code())
    club.refresh_from_db()
    return club


def club_invite_send(*, club: Club, username: str, invited_by: User) -> ClubInvite:
    """Invite the user named ``username`` to ``club``: an invitation row (once per club
    and user) and, after the commit, the invite mail with the club's current invite link
    (``services.mail``, kind ``invites``: at most once per invitation, only to a user with
    an address who has that mail on). A member already, or no such user: refused."""
    user = User.objects.filter(username__iexact=username.strip(), is_active=True).first()
    if user is None:
        raise ClubRefused.of(_("There is no player named %(name)s."), name=username.strip())
    if Membership.objects.filter(club=club, user=user).exists():
        raise ClubRefused.of(
            _("%(name)s is a member of this club already."), name=user.get_username()
        )
    with transaction.atomic():
        invite, _created = ClubInvite.objects.get_or_create(
            club=club, user=user, defaults={"invited_by": invited_by}
        )
        link = reverse("club_join", args=[club.slug]) + "?" + urlencode({"code": club.invite_code})
        context = {
            "club": club.name,
            "invited_by": invited_by.get_username(),
            "url": site_url(link),
        }
        jobs.task_on_commit("mail_send", MailKind.INVITES.value, user.pk, invite.pk, context)
    return invite


def club_settings_set(*, club: Club, ratings_public: bool) -> Club:
    """The club's settings its owner chooses: whether its members' rating list is public
    (docs/rules.md, "Ratings", rule 7)."""
    with transaction.atomic():
        Club.objects.filter(pk=club.pk).update(ratings_public=ratings_public)
    club.refresh_from_db()
    return club


def _owners(club: Club) -> int:
    return Membership.objects.filter(club=club, role=Membership.Role.OWNER).count()


def membership_set_role(*, club: Club, user: User, role: str) -> Membership:
    """Give a member of ``club`` another role (appoint an organizer, demote one to member,
    make an owner). The last owner keeps their role."""
    if role not in Membership.Role.values:
        raise ClubRefused.of(_("Unknown role: %(role)s."), role=role)
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        membership = Membership.objects.filter(club=club, user=user).first()
        if membership is None:
            raise ClubRefused.of(_("%(user)s is not a member of this club."), user=user.username)
        if (
            membership.role == Membership.Role.OWNER
            and role != Membership.Role.OWNER
            and _owners(club) == 1
        ):
            raise ClubRefused.of(_("The club's last owner keeps that role."))
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def membership_add(*, club: Club, user: User, role: str = Membership.Role.MEMBER) -> Membership:
    """Make ``user`` a member of ``club`` with ``role`` (staff in the admin, the demo data,
    the migration's organizers); one already keeps their membership with the new role."""
    if role not in Membership.Role.values:
        raise ClubRefused.of(_("Unknown role: %(role)s."), role=role)
    with transaction.atomic():
        membership, created = Membership.objects.get_or_create(
            club=club, user=user, defaults={"role": role}
        )
    if not created and membership.role != role:
        return membership_set_role(club=club, user=user, role=role)
    return membership


def membership_leave(*, club: Club, user: User) -> None:
    """``user`` leaves ``club``; the last owner may not (they hand the club over first:
    ``permissions.may_leave_club``)."""
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        membership = Membership.objects.filter(club=club, user=user).first()
        if membership is None:
            raise ClubRefused.of(_("You are not a member of this club."))
        if not may_leave_club(user=user, club=club):
            raise ClubRefused.of(_("The club's last owner may not leave it."))
        membership.delete()
