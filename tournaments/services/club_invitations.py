"""Personal invitations to a club (docs/rules.md, "Clubs: members, organizers, who may
enter", rule 8): the owner invites a player by name or a mail address; each invitation
has a link of its own (``ClubInvite.token``) that works until it expires
(``INVITE_DAYS``), is withdrawn or is used, whatever the club's invite code does. Inviting
the same person again withdraws the earlier invitation and makes a new one, with a new
mail. Someone without an account who follows the link signs up and is a member at once
(``invitation_accept`` from the log-in signal, ``tournaments/signals.py``).

The mail goes after the commit (``tasks.club_invitation_mail``): to a player through
``services.mail.mail_send`` (kind ``invites``: in their language, with the off link, once
per invitation), to an address without an account once (``ClubInvite.mailed_at``) in the
site's language, without an off link (there is no account to turn it off for).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.mail import EmailMessage
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from tournaments import jobs
from tournaments.errors import ClubRefused, InvitationGone
from tournaments.models import Club, ClubInvite, MailKind, Membership
from tournaments.selectors import clubs as club_selectors
from tournaments.services import mail as mail_services

#: How long a personal invitation works.
INVITE_DAYS = 14
#: The session key of an invitation link followed before logging in or signing up.
SESSION_KEY = "club_invitation"


def invitation_url(invite: ClubInvite) -> str:
    """The absolute address of an invitation's own link."""
    return mail_services.site_url(reverse("club_invitation", args=[invite.token]))


def invitation_create(
    *, club: Club, invited_by: User, username: str = "", email: str = ""
) -> ClubInvite:
    """Invite the player named ``username``, or the mail address ``email``, to ``club``:
    a new invitation with its own link, mailed after the commit; an earlier invitation of
    the same player or address that still works is withdrawn. A member already, a banned
    player, no such player, a malformed address or a suspended club: refused."""
    if club.suspended_at is not None:
        raise ClubRefused.of(_("This club is suspended: it takes no new members."))
    username, email = username.strip(), email.strip().lower()
    user: User | None = None
    if username:
        user = User.objects.filter(username__iexact=username, is_active=True).first()
        if user is None:
            raise ClubRefused.of(_("There is no player named %(name)s."), name=username)
    elif email:
        try:
            validate_email(email)
        except ValidationError as exc:
            raise ClubRefused.of(_("%(email)s is not a mail address."), email=email) from exc
    else:
        raise ClubRefused.of(_("Give a player's name or a mail address."))
    if user is not None:
        if Membership.objects.filter(club=club, user=user).exists():
            raise ClubRefused.of(
                _("%(name)s is a member of this club already."), name=user.get_username()
            )
        if club_selectors.is_banned(club=club, user=user):
            raise ClubRefused.of(_("This player is barred from the club."))
    now = timezone.now()
    with transaction.atomic():
        Club.objects.select_for_update().get(pk=club.pk)
        same = Q(user=user) if user is not None else Q(email=email, user__isnull=True)
        ClubInvite.objects.filter(
            same, club=club, withdrawn_at__isnull=True, accepted_at__isnull=True
        ).update(withdrawn_at=now)
        invite = ClubInvite.objects.create(
            club=club,
            user=user,
            email="" if user is not None else email,
            token=secrets.token_urlsafe(24),
            invited_by=invited_by,
            expires_at=now + timedelta(days=INVITE_DAYS),
        )
        jobs.task_on_commit("club_invitation_mail", invite.pk)
    return invite


def invitation_withdraw(*, club: Club, invite_id: int) -> ClubInvite:
    """The owner withdraws an invitation: its link no longer works. One used, withdrawn
    or expired already: 409."""
    with transaction.atomic():
        invite = ClubInvite.objects.select_for_update().filter(club=club, pk=invite_id).first()
        if invite is None or not invite.works:
            raise InvitationGone.of(_("This invitation no longer works."))
        invite.withdrawn_at = timezone.now()
        invite.save(update_fields=["withdrawn_at"])
    return invite


def invitation_by_token(*, token: str) -> ClubInvite | None:
    """The invitation of a link (any state), ``None`` for an unknown token."""
    token = token.strip()[:40]
    if not token:
        return None
    return (
        ClubInvite.objects.select_related("club", "user", "invited_by").filter(token=token).first()
    )


def invitation_accept(*, token: str, user: User) -> Membership:
    """``user`` accepts the invitation of link ``token``: a member of its club at once
    (whatever the club's way of joining). An invitation by name is for that player only;
    one to an address for whoever has its link. Expired, withdrawn or used: 409; a
    suspended club or a banned player: refused; a member already keeps their role."""
    with transaction.atomic():
        invite = (
            ClubInvite.objects.select_for_update()
            .select_related("club")
            .filter(token=token.strip()[:40])
            .first()
        )
        if invite is None or not invite.works:
            raise InvitationGone.of(_("This invitation no longer works."))
        if invite.user_id is not None and invite.user_id != user.pk:
            raise ClubRefused.of(_("This invitation is for another player."))
        club = invite.club
        if club.suspended_at is not None:
            raise ClubRefused.of(_("This club is suspended: it takes no new members."))
        if club_selectors.is_banned(club=club, user=user):
            raise ClubRefused.of(_("The club's owner has barred you from this club."))
        membership, _created = Membership.objects.get_or_create(
            club=club, user=user, defaults={"role": Membership.Role.MEMBER}
        )
        invite.accepted_at = timezone.now()
        invite.accepted_by = user
        invite.save(update_fields=["accepted_at", "accepted_by"])
    return membership


def invitation_mail(*, invite_id: int) -> bool:
    """The mail of one invitation (the task after its commit); ``True`` when it went out
    now. Nothing for an invitation that no longer works."""
    invite = ClubInvite.objects.select_related("club", "invited_by").filter(pk=invite_id).first()
    if invite is None or not invite.works:
        return False
    context = {
        "club": invite.club.name,
        "invited_by": invite.invited_by.get_username() if invite.invited_by else "",
        "url": invitation_url(invite),
        "expires": invite.expires_at.date().isoformat(),
    }
    if invite.user_id is not None:
        return mail_services.mail_send(
            kind=MailKind.INVITES, user_id=invite.user_id, object_id=invite.pk, context=context
        )
    with transaction.atomic():
        locked = ClubInvite.objects.select_for_update().get(pk=invite.pk)
        if locked.mailed_at is not None:
            return False
        with translation.override(settings.LANGUAGE_CODE):
            text = mail_services.render_text("mail/invite_address.txt", context).strip()
        subject, _newline, body = text.partition("\n")
        EmailMessage(
            subject=" ".join(subject.split()), body=body.strip() + "\n", to=[invite.email]
        ).send()
        locked.mailed_at = timezone.now()
        locked.save(update_fields=["mailed_at"])
    return True
