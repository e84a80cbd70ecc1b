"""The Django project: settings, URLs, the Celery app and the site pages."""

from jokeren.celery import app as celery_app

__all__ = ("celery_app",)
