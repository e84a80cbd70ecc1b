"""Admin of the play checks (docs/rules.md, "Fair play"; ``services.playcheck`` writes
them after the close): read only. A flag they raise is decided on the tournament's
entries page, never here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import PlayCheck

if TYPE_CHECKING:
    _PlayCheckAdmin = admin.ModelAdmin[PlayCheck]
else:
    _PlayCheckAdmin = admin.ModelAdmin


@admin.register(PlayCheck)
class PlayCheckAdmin(_PlayCheckAdmin):
    list_display = (
        "entry",
        "user",
        "game",
        "status",
        "flagged",
        "figure",
        "account_figure",
        "opportunities",
        "telling_count",
        "decisions",
        "created_at",
        "checked_at",
        "seconds",
    )
    list_filter = ("status", "flagged", "game")
    search_fields = ("user__username", "entry__tournament__name")
    list_select_related = ("entry__tournament", "user")
    readonly_fields = [f.name for f in PlayCheck._meta.fields]
    ordering = ("-created_at", "-pk")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: PlayCheck | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: PlayCheck | None = None) -> bool:
        return False
