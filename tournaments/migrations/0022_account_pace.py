from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0021_fairplay"),
    ]

    operations = [
        migrations.AddField(
            model_name="account",
            name="pace",
            field=models.CharField(
                blank=True,
                choices=[
                    ("slow", "slow"),
                    ("normal", "normal"),
                    ("fast", "fast"),
                    ("instant", "instant"),
                ],
                default="",
                max_length=8,
                verbose_name="bots' pace at the table",
            ),
        ),
    ]
