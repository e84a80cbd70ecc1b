"""The Celery app. Configuration comes from Django's settings (``CELERY_*``): late
acknowledgement, requeue on a lost worker, time limits and the broker's visibility timeout
are set there (see deploy/README.md, Operations)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "jokeren.settings")

app = Celery("jokeren")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
