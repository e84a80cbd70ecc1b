"""Bounds on the organizer's numbers and dates (issue 8, item 8): a tournament's opening
and closing times lie in [2000-01-01, 2100-01-01] (UTC) and it takes 1 to 10,000
entrants, checked by the database too.

Rows from before are clamped first, in the database (a time that PostgreSQL holds but
Python cannot read, such as year 1 in Europe/Amsterdam, is never loaded): the opening
time into [from, until - 1 minute], the closing time into [from + 1 minute, until]. Both
clamps are monotone and the second is never below the first, so a window that was
positive stays positive (``tournament_window_positive`` holds at every step)."""

import datetime

import django.core.validators
from django.db import migrations, models
from django.db.models import F, Q, Value
from django.db.models.functions import Greatest, Least

DATES_FROM = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
DATES_UNTIL = datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC)
MAX_ENTRANTS = 10_000
MINUTE = datetime.timedelta(minutes=1)


def clamp_out_of_range(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")

    def moment(value):
        return Value(value, output_field=models.DateTimeField())

    Tournament.objects.filter(
        Q(opens_at__lt=DATES_FROM)
        | Q(opens_at__gt=DATES_UNTIL - MINUTE)
        | Q(closes_at__lt=DATES_FROM + MINUTE)
        | Q(closes_at__gt=DATES_UNTIL)
    ).update(
        opens_at=Least(Greatest(F("opens_at"), moment(DATES_FROM)), moment(DATES_UNTIL - MINUTE)),
        closes_at=Least(Greatest(F("closes_at"), moment(DATES_FROM + MINUTE)), moment(DATES_UNTIL)),
    )
    Tournament.objects.filter(max_entrants__gt=MAX_ENTRANTS).update(max_entrants=MAX_ENTRANTS)
    Tournament.objects.filter(max_entrants__lt=1).update(max_entrants=1)
    if schema_editor.connection.vendor == "postgresql":
        # The updates queued the deferred foreign-key checks of the rows they touched;
        # PostgreSQL alters no table with checks pending: run them now.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_audit"),
    ]

    operations = [
        migrations.RunPython(clamp_out_of_range, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="tournament",
            name="tournament_max_entrants",
        ),
        migrations.AlterField(
            model_name="tournament",
            name="max_entrants",
            field=models.PositiveIntegerField(
                default=10,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(MAX_ENTRANTS),
                ],
                verbose_name="maximum entrants",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=Q(max_entrants__gte=1) & Q(max_entrants__lte=MAX_ENTRANTS),
                name="tournament_max_entrants",
            ),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.CheckConstraint(
                condition=Q(opens_at__gte=DATES_FROM) & Q(closes_at__lte=DATES_UNTIL),
                name="tournament_dates_in_range",
            ),
        ),
    ]
