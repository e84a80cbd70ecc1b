"""The accounts app's signals.

``account_deleted`` is sent (``user_id=``) inside the transaction that deletes an
account, before its row is made anonymous: another app removes what it keeps of the
account there (the fair-play data: docs/rules.md, "Accounts", rule 7)."""

from django.dispatch import Signal

account_deleted = Signal()
