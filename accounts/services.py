"""Use cases of the accounts app (docs/rules.md, "Accounts"): a verified mail address and
a second factor set up without the mail and the authenticator app (the demo data, the
tests' factories); deleting an account; the download of one's data."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.contrib.sessions.models import Session
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.signals import account_deleted
from tournaments.errors import ServiceError
from tournaments.models import (
    Account,
    ApiToken,
    Entry,
    EntryResult,
    Game,
    MailSent,
    Membership,
    Rating,
    RatingChange,
)
from tournaments.selectors import replay as replay_selectors


@transaction.atomic
def address_verified_set(*, user: Any, email: str) -> EmailAddress:
    """``email`` becomes ``user``'s address, verified and primary (its other addresses
    go)."""
    email = email.strip().lower()
    EmailAddress.objects.filter(user=user).exclude(email=email).delete()
    address, _created = EmailAddress.objects.update_or_create(
        user=user, email=email, defaults={"verified": True, "primary": True}
    )
    if user.email != email:
        user.email = email
        user.save(update_fields=["email"])
    return address


@transaction.atomic
def second_factor_add(*, user: Any, secret: str | None = None) -> list[str]:
    """A TOTP authenticator with ``secret`` (base32; a new one if not given) and a set of
    recovery codes for ``user`` (none twice: an existing one stays); the unused recovery
    codes."""
    if not Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists():
        TOTP.activate(user, secret or generate_totp_secret())
    codes = Authenticator.objects.filter(user=user, type=Authenticator.Type.RECOVERY_CODES).first()
    recovery = RecoveryCodes(codes) if codes is not None else RecoveryCodes.activate(user)
    return list(recovery.get_unused_codes())


class AccountKept(ServiceError):
    """The account cannot be deleted yet (the last owner of a club)."""

    code = "account_kept"
    status = 409


def deleted_name(user_id: int) -> str:
    """The name a deleted account's games and results keep (docs/rules.md, "Accounts",
    rule 7)."""
    return f"verwijderde speler {user_id}"


@transaction.atomic
def account_delete(*, user: Any) -> None:
    """Delete ``user``'s account (docs/rules.md, "Accounts", rule 7): its games and
    results stay in every standings list under ``deleted_name`` (so no one else's rank
    changes); its ratings, memberships, API tokens, mail settings and mails sent, its
    addresses and second factor, its sessions and (through ``account_deleted``) its
    fair-play data go; the row stays, without a name, address or password. Refused for
    the last owner of a club, who hands the club over first."""
    last_owner = [
        m.club.name
        for m in Membership.objects.filter(user=user, role=Membership.Role.OWNER).select_related(
            "club"
        )
        if Membership.objects.filter(club=m.club, role=Membership.Role.OWNER).count() == 1
    ]
    if last_owner:
        raise AccountKept.of(
            _("You are the only owner of %(clubs)s: hand the club over to another member first."),
            clubs=", ".join(sorted(last_owner)),
        )
    account_deleted.send(sender=account_delete, user_id=user.pk)
    RatingChange.objects.filter(user=user).delete()
    Rating.objects.filter(user=user).delete()
    Membership.objects.filter(user=user).delete()
    ApiToken.objects.filter(user=user).delete()
    MailSent.objects.filter(user=user).delete()
    Account.objects.filter(user=user).delete()
    EmailAddress.objects.filter(user=user).delete()
    Authenticator.objects.filter(user=user).delete()
    for session in Session.objects.all().iterator():
        if str(session.get_decoded().get("_auth_user_id")) == str(user.pk):
            session.delete()
    user.username = deleted_name(user.pk)
    user.email = ""
    user.first_name = ""
    user.last_name = ""
    user.is_active = False
    user.is_staff = False
    user.is_superuser = False
    user.set_unusable_password()
    user.save()


def account_export(*, user: Any) -> bytes:
    """A zip of what the site keeps of ``user`` (docs/rules.md, "Accounts", rule 8), as
    JSON: ``profile.json``, ``memberships.json``, ``entries.json`` (with the results),
    ``games/game-<id>.json`` (each finished game's record, docs/game-record.md),
    ``ratings.json`` and ``mails.json``."""
    account = Account.objects.filter(user=user).first()
    profile = {
        "username": user.get_username(),
        "email": user.email,
        "date_joined": user.date_joined.isoformat(),
        "last_login": user.last_login.isoformat() if user.last_login else None,
        "language": account.language if account else "nl",
        "bot_account": bool(account and account.is_bot),
        "mail": {
            "results": account.mail_results if account else True,
            "series": account.mail_series if account else True,
            "invites": account.mail_invites if account else True,
        },
        "addresses": list(
            EmailAddress.objects.filter(user=user).values("email", "verified", "primary")
        ),
        "second_factor": Authenticator.objects.filter(
            user=user, type=Authenticator.Type.TOTP
        ).exists(),
    }
    memberships = [
        {"club": m.club.name, "slug": m.club.slug, "role": m.role}
        for m in Membership.objects.filter(user=user).select_related("club").order_by("pk")
    ]
    entries = []
    for entry in Entry.objects.filter(user=user).select_related("tournament").order_by("pk"):
        last = EntryResult.objects.filter(entry=entry).order_by("-upto").first()
        result: dict[str, Any] = (
            {
                "rounds": last.upto,
                "total": last.total,
                "result": last.result,
                "rounds_played": last.rounds_played,
                "finished": last.finished,
            }
            if last is not None
            else {}
        )
        entries.append(
            {
                "tournament": entry.tournament.name,
                "tournament_id": entry.tournament_id,
                "game": entry.tournament.game,
                "joined_at": entry.joined_at.isoformat(),
                "closed_at": entry.tournament.closed_at.isoformat()
                if entry.tournament.closed_at
                else None,
                "result": result,
            }
        )
    ratings = [
        {
            "game": r.game,
            "mu": r.mu,
            "sigma": r.sigma,
            "shown": r.shown,
            "tournaments": r.tournaments,
        }
        for r in Rating.objects.filter(user=user).order_by("game")
    ]
    mails = [
        {"kind": m.kind, "object_id": m.object_id, "sent_at": m.sent_at.isoformat()}
        for m in MailSent.objects.filter(user=user).order_by("pk")
    ]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in (
            ("profile.json", profile),
            ("memberships.json", memberships),
            ("entries.json", entries),
            ("ratings.json", ratings),
            ("mails.json", mails),
        ):
            archive.writestr(name, json.dumps(data, indent=1, default=str, ensure_ascii=False))
        games = Game.objects.filter(user=user, status=Game.Status.FINISHED, entry__isnull=False)
        for game in games.select_related("entry__tournament", "user").order_by("pk"):
            record = replay_selectors.game_record(game=game).to_json()
            archive.writestr(f"games/game-{game.pk}.json", json.dumps(record, indent=1))
    return buffer.getvalue()
