"""Club announcements (docs/rules.md, "Clubs: members, organizers, who may enter", rule 9):
the owner or an organizer writes to the members; the message is kept (listed on the club's
page for the members) and mailed after the commit to every member once, through
``services.mail.mail_send`` (kind ``announcements``: in each member's language, with the
link that turns that kind off; at most once per member and announcement), in batches of
``MAIL_BATCH`` members, one task each (``tasks.club_announcement_mail``)."""

from __future__ import annotations

from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments import jobs
from tournaments.errors import ClubRefused, InvalidSettings
from tournaments.models import Club, ClubAnnouncement, MailKind
from tournaments.services import mail as mail_services

#: The longest subject and message.
SUBJECT_MAX = 150
BODY_MAX = 5000


def announcement_create(*, club: Club, author: User, subject: str, body: str) -> ClubAnnouncement:
    """Keep an announcement of ``club`` and mail it to the members after the commit. An
    empty or too long subject or message: refused (400); a suspended club: refused."""
    subject = " ".join(subject.split())
    body = body.replace("\r\n", "\n").strip()
    if not subject or not body:
        raise InvalidSettings.of(_("An announcement needs a subject and a message."))
    if len(subject) > SUBJECT_MAX or len(body) > BODY_MAX:
        raise InvalidSettings.of(
            _("A subject is at most %(subject)s characters, a message %(body)s."),
            subject=SUBJECT_MAX,
            body=BODY_MAX,
        )
    if club.suspended_at is not None:
        raise ClubRefused.of(_("This club is suspended: it sends no announcements."))
    with transaction.atomic():
        announcement = ClubAnnouncement.objects.create(
            club=club, author=author, subject=subject, body=body
        )
        jobs.task_on_commit("club_announcement_mail", announcement.pk)
    return announcement


def announcement_recipients(*, announcement_id: int) -> list[list[int]]:
    """The batches of members who have not had the announcement yet (by user id)."""
    announcement = ClubAnnouncement.objects.filter(pk=announcement_id).first()
    if announcement is None:
        return []
    users = User.objects.filter(memberships__club_id=announcement.club_id)
    return mail_services.recipients(users, kind=MailKind.ANNOUNCEMENTS, object_id=announcement_id)


def announcement_mail(*, announcement_id: int, user_ids: Sequence[int]) -> int:
    """The announcement to those of ``user_ids`` who are members of its club; how many
    went out now."""
    announcement = (
        ClubAnnouncement.objects.select_related("club", "author").filter(pk=announcement_id).first()
    )
    if announcement is None:
        return 0
    club = announcement.club
    context = {
        "club": club.name,
        "subject": announcement.subject,
        "body": announcement.body,
        "author": announcement.author.get_username() if announcement.author else club.name,
        "url": mail_services.site_url(club.get_absolute_url()),
    }
    members = set(
        User.objects.filter(memberships__club=club, pk__in=list(user_ids)).values_list(
            "pk", flat=True
        )
    )
    sent = 0
    for user_id in sorted(members):
        sent += mail_services.mail_send(
            kind=MailKind.ANNOUNCEMENTS,
            user_id=user_id,
            object_id=announcement.pk,
            context=context,
        )
    return sent
