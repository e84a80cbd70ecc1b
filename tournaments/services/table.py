"""What the card table keeps for the player beside their games: the bots' pace
(docs/rules.md, "The card table"), remembered on the account."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.errors import InvalidSettings
from tournaments.models import Account, Pace


def account_pace_set(*, user: User, pace: str) -> Account:
    """Keep ``pace`` (a ``Pace``) as the bots' pace of ``user``'s tables; anything else is
    ``InvalidSettings`` (400) and nothing changes."""
    if pace not in Pace.values:
        raise InvalidSettings.of(
            _("No such pace: choose slow, normal, fast or instant."),
        )
    with transaction.atomic():
        account, _created = Account.objects.select_for_update().get_or_create(user=user)
        if account.pace != pace:
            account.pace = pace
            account.save(update_fields=["pace"])
    return account
