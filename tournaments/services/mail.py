"""Mail to players (docs/rules.md, "Mail"): the results are final, a new edition of a
series they play is open, a club invite. Sent only by the Celery tasks of
``tournaments.tasks`` (never in a request), queued after the commit of what they tell.

``mail_send`` is the one way a mail leaves the site: it sends ``kind`` mail (a
``MailKind``) about one thing (``object_id``: a tournament, an invite) to one user, at
most once (``MailSent``), only to a human (not a bot account) with an address whose
``Account.mail_<kind>`` is on, in the user's language (``Account.language``; Dutch
without an account row). The words are ``templates/mail/<kind>.txt``: its first line the
subject, the rest the body, rendered without HTML escaping with ``context`` plus
``username``, ``site_url`` and ``settings_url``; the HTML part is the same body in
``templates/mail/message.html``. Every mail ends with the signed link that turns its
kind off (``mail_links``) and carries it as ``List-Unsubscribe`` with
``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (RFC 8058).

A new kind (the club invite): its template, and ``mail_send(kind=..., user_id=...,
object_id=..., context=...)`` from a task (``tasks.mail_send``, queued with
``jobs.task_on_commit("mail_send", kind, user_id, object_id, context)``).

Many recipients (a tournament's field, a series' players) are mailed in batches of
``MAIL_BATCH`` users, one task each (``*_recipients`` gives the batches).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.core.mail import EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.db.models import QuerySet
from django.template import Context, Engine
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import InvalidSettings, ServiceError
from tournaments.mail_links import mail_off_read, mail_off_token
from tournaments.models import LANGUAGE_CHOICES, Account, Entry, MailKind, MailSent, Tournament
from tournaments.selectors import standings as standing_selectors

#: Users per task of a mail's fan-out: one SMTP connection each, well inside a task's
#: time limit (``CELERY_TASK_SOFT_TIME_LIMIT``) also with a slow mail server.
MAIL_BATCH = 100
#: Languages a mail can be in (``Account.language``).
LANGUAGES = frozenset(code for code, _name in LANGUAGE_CHOICES)


class BadMailLink(ServiceError):
    code = "bad_mail_link"
    status = 404


def site_url(path: str) -> str:
    """The absolute address of ``path`` on the site (``settings.SITE_URL``)."""
    return str(settings.SITE_URL).rstrip("/") + path


def setting_of(kind: MailKind) -> str:
    """The ``Account`` field that turns ``kind`` mail on or off."""
    return f"mail_{kind.value}"


def account_of(user: User) -> Account:
    """``user``'s settings: the stored row, else the defaults (not saved)."""
    account = Account.objects.filter(user=user).first()
    return account if account is not None else Account(user=user)


def render_text(name: str, context: Mapping[str, Any]) -> str:
    """A mail's text template, without HTML escaping (it is plain text)."""
    template = Engine.get_default().get_template(name)
    return template.render(Context(dict(context), autoescape=False))


def mail_message(
    *, kind: MailKind, user: User, context: Mapping[str, Any]
) -> EmailMultiAlternatives:
    """The mail of ``kind`` to ``user`` in the active language (text and HTML), with the
    link that turns its kind off in the text and in the headers."""
    off_url = site_url(reverse("mail_off", args=[mail_off_token(user_id=user.pk, kind=kind)]))
    full = {
        **context,
        "username": user.get_username(),
        "site_url": site_url("/"),
        "settings_url": site_url(reverse("account")),
        "off_url": off_url,
        "kind_label": kind.label,
    }
    text = render_text(f"mail/{kind.value}.txt", full).strip()
    subject, _newline, body = text.partition("\n")
    body = re.sub(r"\n[ \t]*\n(\s*\n)+", "\n\n", body).strip()
    footer = render_text("mail/footer.txt", full).strip()
    message = EmailMultiAlternatives(
        subject=" ".join(subject.split()),
        body=f"{body}\n\n-- \n{footer}\n",
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{off_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(
        render_to_string("mail/message.html", {**full, "body": body, "subject": subject}),
        "text/html",
    )
    return message


def mail_send(
    *,
    kind: MailKind | str,
    user_id: int,
    object_id: int,
    context: Mapping[str, Any],
    connection: BaseEmailBackend | None = None,
) -> bool:
    """Send ``kind`` mail about ``object_id`` to the user ``user_id`` (see the module's
    text); ``True`` when it went out now. Nothing for a bot account, a user without a
    verified address (docs/rules.md, "Accounts") or with that kind off, or when it went
    out before (a task run again): the ``MailSent`` row is written in the transaction
    that sends, so a failed send leaves none and a retry sends it. ``connection``: an
    open one of a batch (else its own)."""
    kind = MailKind(kind)
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None or not permissions.has_verified_address(user):
        return False
    account = account_of(user)
    if account.is_bot or not getattr(account, setting_of(kind)):
        return False
    language = account.language if account.language in LANGUAGES else settings.LANGUAGE_CODE
    with transaction.atomic():
        _sent, created = MailSent.objects.get_or_create(kind=kind, user=user, object_id=object_id)
        if not created:
            return False
        with translation.override(language):
            message = mail_message(kind=kind, user=user, context=context)
        message.connection = connection
        message.send()
    return True


def batches(ids: Sequence[int]) -> list[list[int]]:
    return [list(ids[i : i + MAIL_BATCH]) for i in range(0, len(ids), MAIL_BATCH)]


def recipients(users: QuerySet[User], *, kind: MailKind, object_id: int) -> list[list[int]]:
    """The ids among ``users`` who get ``kind`` mail about ``object_id`` and did not get
    it yet, in batches of ``MAIL_BATCH``: humans with a verified address and that kind on (a user
    without an account row has it on)."""
    sent = MailSent.objects.filter(kind=kind, object_id=object_id).values("user_id")
    ids = (
        users.filter(is_active=True, pk__in=permissions.verified_user_ids())
        .exclude(email="")
        .exclude(account__is_bot=True)
        .exclude(**{f"account__{setting_of(kind)}": False})
        .exclude(pk__in=sent)
        .distinct()
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    return batches(list(ids))


# --- The results are final -----------------------------------------------------------------


def tournament_results_recipients(*, tournament_id: int) -> list[list[int]]:
    """The entrants of a closed tournament who get its results mail, in batches (none
    before the close)."""
    t = Tournament.objects.filter(pk=tournament_id, closed_at__isnull=False).first()
    if t is None:
        return []
    users = User.objects.filter(entries__tournament=t)
    return recipients(users, kind=MailKind.RESULTS, object_id=t.pk)


def tournament_results_mail(*, tournament_id: int, user_ids: Sequence[int]) -> int:
    """The results mail of a closed tournament to those of ``user_ids`` who entered it:
    their place (``None``: not ranked) of the ranked entries, their result and own
    total, the link to the tournament. How many went out now."""
    t = Tournament.objects.filter(pk=tournament_id, closed_at__isnull=False).first()
    if t is None:
        return 0
    entry_ids = Entry.objects.filter(tournament=t, user_id__in=list(user_ids)).values_list(
        "pk", flat=True
    )
    rows = standing_selectors.entry_standings(
        tournament=t,
        visibility=standing_selectors.results_visibility(tournament=t, user=None),
        entry_ids=list(entry_ids),
    )
    field = standing_selectors.ranked_entries(tournament=t)
    url = site_url(t.get_absolute_url())
    sent = 0
    with get_connection() as connection:
        for row in sorted(rows.values(), key=lambda r: r.user_id):
            sent += results_mail_send(t, row, entrants=field, url=url, connection=connection)
    return sent


def results_mail_send(
    t: Tournament,
    row: standing_selectors.Standing,
    *,
    entrants: int,
    url: str,
    connection: BaseEmailBackend,
) -> bool:
    """One entrant's results mail."""
    context = {
        "tournament": t.name,
        "rank": row.rank,
        "entrants": entrants,
        "result": row.result,
        "decimals": t.result_decimals,
        "total": row.total,
        "bot_finished": row.bot_finished,
        "url": url,
    }
    return mail_send(
        kind=MailKind.RESULTS,
        user_id=row.user_id,
        object_id=t.pk,
        context=context,
        connection=connection,
    )


# --- A live club evening starts soon ---------------------------------------------------------


def live_reminder_recipients(*, tournament_id: int) -> list[list[int]]:
    """The entrants of a live club evening who get its reminder, in batches (none once
    its first round has opened, or for a tournament that is not a live evening)."""
    t = Tournament.objects.filter(pk=tournament_id, live=True, closed_at__isnull=True).first()
    if t is None or not t.live_slots or timezone.now() >= t.live_slot(0)[0]:
        return []
    users = User.objects.filter(entries__tournament=t)
    return recipients(users, kind=MailKind.REMINDERS, object_id=t.pk)


def live_reminder_mail(*, tournament_id: int, user_ids: Sequence[int]) -> int:
    """The reminder before a live club evening (docs/rules.md §5, "Live club evening") to
    those of ``user_ids`` who entered it: its start, its rounds and the link to its lobby.
    Nothing once its first round has opened. How many went out now."""
    t = Tournament.objects.filter(pk=tournament_id, live=True, closed_at__isnull=True).first()
    if t is None or not t.live_slots or timezone.now() >= t.live_slot(0)[0]:
        return 0
    entered = set(
        Entry.objects.filter(tournament=t, user_id__in=list(user_ids)).values_list(
            "user_id", flat=True
        )
    )
    context = {
        "tournament": t.name,
        "starts_at": t.live_slot(0)[0],
        "rounds": t.rounds,
        "url": site_url(reverse("tournament_live", args=[t.pk])),
    }
    with get_connection() as connection:
        return sum(
            mail_send(
                kind=MailKind.REMINDERS,
                user_id=user_id,
                object_id=t.pk,
                context=context,
                connection=connection,
            )
            for user_id in sorted(entered)
        )


# --- A new edition of a series ---------------------------------------------------------------


def series_edition_recipients(*, tournament_id: int) -> list[list[int]]:
    """Who entered an earlier edition of the series of the edition ``tournament_id``, in
    batches (none for a tournament of no series)."""
    t = Tournament.objects.filter(pk=tournament_id, series__isnull=False).first()
    if t is None or t.series_id is None:
        return []
    users = User.objects.filter(
        entries__tournament__series_id=t.series_id, entries__tournament__opens_at__lt=t.opens_at
    )
    return recipients(users, kind=MailKind.SERIES, object_id=t.pk)


def series_edition_mail(*, tournament_id: int, user_ids: Sequence[int]) -> int:
    """The mail that a series' new edition is open (its window, the link) to
    ``user_ids``. How many went out now."""
    t = (
        Tournament.objects.filter(pk=tournament_id, series__isnull=False)
        .select_related("series")
        .first()
    )
    if t is None or t.series is None or t.closed_at is not None:
        return 0
    context = {
        "series": t.series.name,
        "tournament": t.name,
        "opens_at": t.opens_at,
        "closes_at": t.closes_at,
        "url": site_url(t.get_absolute_url()),
    }
    with get_connection() as connection:
        return sum(
            mail_send(
                kind=MailKind.SERIES,
                user_id=user_id,
                object_id=t.pk,
                context=context,
                connection=connection,
            )
            for user_id in sorted(user_ids)
        )


# --- The user's settings ---------------------------------------------------------------------


def account_language_set(*, user: User, language: str) -> Account:
    """Store ``language`` (a language of the site) as the language of ``user``'s mail."""
    if language not in LANGUAGES:
        raise InvalidSettings.of(_("No such language."))
    with transaction.atomic():
        account, _created = Account.objects.select_for_update().get_or_create(user=user)
        if account.language != language:
            account.language = language
            account.save(update_fields=["language"])
    return account


def account_mail_settings_update(
    *,
    user: User,
    language: str,
    mail_results: bool,
    mail_series: bool,
    mail_invites: bool,
    mail_announcements: bool = True,
    mail_fairplay: bool = True,
    mail_reminders: bool = True,
) -> Account:
    """The account page's mail settings: the language of the mail and each kind on or off."""
    if language not in LANGUAGES:
        raise InvalidSettings.of(_("No such language."))
    with transaction.atomic():
        account, _created = Account.objects.select_for_update().get_or_create(user=user)
        account.language = language
        account.mail_results = mail_results
        account.mail_series = mail_series
        account.mail_invites = mail_invites
        account.mail_announcements = mail_announcements
        account.mail_fairplay = mail_fairplay
        account.mail_reminders = mail_reminders
        account.save(
            update_fields=[
                "language",
                "mail_results",
                "mail_series",
                "mail_invites",
                "mail_announcements",
                "mail_fairplay",
                "mail_reminders",
            ]
        )
    return account


def mail_turn_off(*, token: str) -> tuple[User, MailKind]:
    """Turn off the kind of mail a signed link names, for its user (no log-in: the link
    is the proof); ``BadMailLink`` (404) for a token the site did not sign or a user who
    is gone, and nothing changes."""
    off = mail_off_read(token)
    user = None if off is None else User.objects.filter(pk=off.user_id).first()
    if off is None or user is None:
        raise BadMailLink.of(_("This link is not valid."))
    with transaction.atomic():
        account, _created = Account.objects.select_for_update().get_or_create(user=user)
        field = setting_of(off.kind)
        if getattr(account, field):
            setattr(account, field, False)
            account.save(update_fields=[field])
    return user, off.kind
