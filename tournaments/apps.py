from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Django's place for it: the receivers connected, the Celery tasks registered
        # (``tournaments.jobs`` queues them by name).
        from tournaments import signals, tasks  # noqa: F401
