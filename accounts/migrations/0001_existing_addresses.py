"""Every account's mail address as allauth keeps it: an ``EmailAddress`` (primary, not
verified) for each account that has an address and none yet. Such an address gets no mail
and its entries count for no rating until its owner verifies it (docs/rules.md,
"Accounts")."""

from django.conf import settings
from django.db import migrations


def addresses_create(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    EmailAddress = apps.get_model("account", "EmailAddress")
    have = set(EmailAddress.objects.values_list("user_id", flat=True))
    taken = {e.lower() for e in EmailAddress.objects.values_list("email", flat=True)}
    rows = []
    for user_id, email in User.objects.exclude(email="").order_by("pk").values_list("pk", "email"):
        key = email.lower()
        if user_id in have or key in taken:
            continue  # a second account with the same address keeps none (unique addresses)
        taken.add(key)
        rows.append(EmailAddress(user_id=user_id, email=key, primary=True, verified=False))
    EmailAddress.objects.bulk_create(rows)


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [migrations.RunPython(addresses_create, migrations.RunPython.noop)]
