"""Clubs: create one (staff, or a player up to ``CLUBS_PER_PLAYER``), suspend it (staff),
join it with its invite code or by a request the owner approves, set a member's role,
hand it over, remove or ban a member, leave it, renew the invite, its settings
(docs/rules.md, "Clubs: members, organizers, who may enter"). Who may ask for what is
``tournaments.permissions``'s to decide; these use cases keep the club whole: a member
once per club, an owner always left (the last owner may not leave nor be demoted), nobody
banned comes back in, a suspended club takes nobody. Personal invitations are
``services.club_invitations``, announcements ``services.club_announcements``."""

from __future__ import annotations

import secrets

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from tournaments.errors import ClubRefused, InvalidSettings, InvitationGone
from tournaments.models import Club, ClubBan, ClubInvite, JoinMode, JoinRequest, Membership
from tournaments.permissions import code_matches, has_verified_address, may_leave_club
from tournaments.selectors import clubs as club_selectors

#: The most clubs one player may create on the site (docs/rules.md, "Clubs", rule 7).
CLUBS_PER_PLAYER = 3

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
    typed in); a member already keeps their role. A wrong or old code, a club that takes
    no members by its code, a suspended club or a banned player: refused."""
    with transaction.atomic():
        locked = Club.objects.select_for_update().get(pk=club.pk)
        if Membership.objects.filter(club=locked, user=user).exists():
            return Membership.objects.get(club=locked, user=user)
        _check_may_come_in(locked, user)
        if locked.join_mode != JoinMode.CODE:
            raise ClubRefused.of(_("This club takes no members by its code."))
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


def club_settings_set(*, club: Club, ratings_public: bool, join_mode: str | None = None) -> Club:
    """The club's settings its owner chooses: whether its members' rating list is public
    (docs/rules.md, "Ratings", rule 8) and how people join (``JoinMode``; ``None``: as it
    is). Requests waiting when the club stops taking requests are declined."""
    if join_mode is not None and join_mode not in JoinMode.values:
        raise InvalidSettings.of(_("Unknown way to join: %(mode)s."), mode=join_mode)
    with transaction.atomic():
        fields: dict[str, object] = {"ratings_public": ratings_public}
        if join_mode is not None:
            fields["join_mode"] = join_mode
            if join_mode != JoinMode.REQUEST:
                JoinRequest.objects.filter(club=club).delete()
        Club.objects.filter(pk=club.pk).update(**fields)
    club.refresh_from_db()
    return club


def club_create_by_player(*, name: str, description: str = "", owner: User) -> Club:
    """A player creates a club and owns it (docs/rules.md, "Clubs: members, organizers,
    who may enter", rule 7): only with a verified mail address, and at most
    ``CLUBS_PER_PLAYER`` clubs of their making."""
    if not has_verified_address(owner):
        raise ClubRefused.of(_("Creating a club needs a verified mail address."))
    if club_selectors.clubs_created(user=owner) >= CLUBS_PER_PLAYER:
        raise ClubRefused.of(
            _("You have created %(n)s clubs: that is the most one player may create."),
            n=CLUBS_PER_PLAYER,
        )
    club = club_create(name=name, description=description.strip()[:2000], owner=owner)
    Club.objects.filter(pk=club.pk).update(created_by=owner)
    club.refresh_from_db()
    return club


def club_suspend(*, club: Club, suspended: bool) -> Club:
    """Staff suspend a club or lift the suspension (rule 7): a suspended club is not
    listed and takes no members, invitations, announcements, tournaments or series."""
    with transaction.atomic():
        Club.objects.filter(pk=club.pk).update(suspended_at=timezone.now() if suspended else None)
        if suspended:
            JoinRequest.objects.filter(club=club).delete()
    club.refresh_from_db()
    return club


def _check_may_come_in(club: Club, user: User) -> None:
    """A suspended club, or a banned player: refused."""
    if club.suspended_at is not None:
        raise ClubRefused.of(_("This club is suspended: it takes no new members."))
    if club_selectors.is_banned(club=club, user=user):
        raise ClubRefused.of(_("The club's owner has barred you from this club."))


def club_join_request(*, club: Club, user: User) -> JoinRequest:
    """``user`` asks to join a club that takes members by request (rule 7); the owner
    decides (``club_join_request_decide``). Asking twice is asking once."""
    _check_may_come_in(club, user)
    if club.join_mode != JoinMode.REQUEST:
        raise ClubRefused.of(_("This club does not take requests to join."))
    if Membership.objects.filter(club=club, user=user).exists():
        raise ClubRefused.of(_("You are a member of this club already."))
    with transaction.atomic():
        request, _created = JoinRequest.objects.get_or_create(club=club, user=user)
    return request


def club_join_request_decide(*, club: Club, request_id: int, approve: bool) -> Membership | None:
    """The owner approves a request to join (a membership) or declines it; either way the
    request is gone. A request decided already: 409."""
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        request = (
            JoinRequest.objects.filter(club=club, pk=request_id).select_related("user").first()
        )
        if request is None:
            raise InvitationGone.of(_("This request has been decided already."))
        request.delete()
        if not approve:
            return None
        if club_selectors.is_banned(club=club, user=request.user):
            raise ClubRefused.of(_("This player is barred from the club."))
        membership, _created = Membership.objects.get_or_create(
            club=club, user=request.user, defaults={"role": Membership.Role.MEMBER}
        )
    return membership


def club_transfer(*, club: Club, owner: User, to: User) -> Membership:
    """The owner hands the club to another member (rule 2): they become its owner, the
    former owner an organizer (staff handing it over: every former owner)."""
    if owner.pk == to.pk:
        raise ClubRefused.of(_("Choose another member."))
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        target = Membership.objects.filter(club=club, user=to).first()
        if target is None:
            raise ClubRefused.of(_("%(user)s is not a member of this club."), user=to.username)
        target.role = Membership.Role.OWNER
        target.save(update_fields=["role"])
        owners = Membership.objects.filter(club=club, role=Membership.Role.OWNER).exclude(user=to)
        if owners.filter(user=owner).exists():
            owners = owners.filter(user=owner)  # an owner hands over their own part
        owners.update(role=Membership.Role.ORGANIZER)
    return target


def membership_remove(*, club: Club, user: User, ban: bool, by: User) -> None:
    """The owner removes a member (rule 2), and with ``ban`` bars them from coming back
    (by the code, a request or an invitation) until the ban is lifted. An owner is not
    removed (they hand the club over first). Their open invitations and request go too."""
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        membership = Membership.objects.filter(club=club, user=user).first()
        if membership is not None and membership.role == Membership.Role.OWNER:
            raise ClubRefused.of(_("An owner is not removed: they hand the club over first."))
        if membership is None and not ban:
            raise ClubRefused.of(_("%(user)s is not a member of this club."), user=user.username)
        if membership is not None:
            membership.delete()
        JoinRequest.objects.filter(club=club, user=user).delete()
        if ban:
            ClubBan.objects.get_or_create(club=club, user=user, defaults={"banned_by": by})
            ClubInvite.objects.filter(
                club=club, user=user, accepted_at__isnull=True, withdrawn_at__isnull=True
            ).update(withdrawn_at=timezone.now())


def club_unban(*, club: Club, user: User) -> None:
    """The owner lifts a ban: the player may come in again the usual ways."""
    ClubBan.objects.filter(club=club, user=user).delete()


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
