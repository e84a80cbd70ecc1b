"""Use cases of the accounts app that write (docs/rules.md, "Accounts"): a verified mail
address and a second factor set up without the mail and the authenticator app (the demo
data, the tests' factories, staff's tools)."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.db import transaction


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
