"""The signed links of the site's mail: every mail carries one that turns that kind of
mail off for its addressee without logging in (``/mail/off/<token>/``, docs/rules.md,
"Mail", rule 2).

A token is ``django.core.signing`` over ``[user id, kind]`` with a salt of its own per
kind, under ``SECRET_KEY``: a token made for one kind never reads as another's, and no
one can make a token without the key. It does not expire (an old mail's link still
works); what it can do is only turn one kind of mail off for one user.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

from tournaments.models import MailKind

SALT = "tournaments.mail.off"


@dataclass(frozen=True)
class MailOff:
    """What a valid token turns off: ``kind`` mail for the user ``user_id``."""

    user_id: int
    kind: MailKind


def salt_of(kind: str) -> str:
    return f"{SALT}:{kind}"


def mail_off_token(*, user_id: int, kind: MailKind) -> str:
    """The token of the link that turns ``kind`` mail off for ``user_id``."""
    return signing.dumps([user_id, kind.value], salt=salt_of(kind.value))


def mail_off_read(token: str) -> MailOff | None:
    """What ``token`` turns off; ``None`` for a token the site did not sign (forged,
    changed, cut short, another kind's salt)."""
    for kind in MailKind:
        try:
            payload = signing.loads(token, salt=salt_of(kind.value))
        except signing.BadSignature:
            continue
        match payload:
            case [int(user_id), str(named)] if named == kind.value:
                return MailOff(user_id=user_id, kind=kind)
            case _:
                return None
    return None
