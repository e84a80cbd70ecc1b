from django.db import migrations, models


def fill_invites(apps, schema_editor):
    """The invitations made before: a link of their own, valid for 14 days from now."""
    import secrets
    from datetime import timedelta

    from django.utils import timezone

    ClubInvite = apps.get_model("tournaments", "ClubInvite")
    until = timezone.now() + timedelta(days=14)
    for invite in ClubInvite.objects.filter(token__isnull=True):
        invite.token = secrets.token_urlsafe(24)
        invite.expires_at = until
        invite.save(update_fields=["token", "expires_at"])


class Migration(migrations.Migration):
    """The invitations made before get a link of their own (apart from 0025: on
    PostgreSQL a table is not altered in the transaction that wrote its rows)."""

    dependencies = [
        ("tournaments", "0025_clubs_self_service"),
    ]

    operations = [
        migrations.RunPython(fill_invites, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='clubinvite',
            name='token',
            field=models.CharField(max_length=40, unique=True),
        ),
        migrations.AlterField(
            model_name='clubinvite',
            name='expires_at',
            field=models.DateTimeField(verbose_name='expires at'),
        ),
    ]
