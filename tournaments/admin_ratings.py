"""Admin of the ratings: read only (``services.ratings`` writes them; ``manage.py
recompute_ratings`` computes them again from the closed tournaments)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Rating, RatingChange

if TYPE_CHECKING:
    _RatingAdmin = admin.ModelAdmin[Rating]
    _ChangeAdmin = admin.ModelAdmin[RatingChange]
else:
    _RatingAdmin = _ChangeAdmin = admin.ModelAdmin


@admin.register(Rating)
class RatingAdmin(_RatingAdmin):
    list_display = ("user", "game", "shown", "mu", "sigma", "tournaments", "updated_at")
    list_filter = ("game",)
    search_fields = ("user__username",)
    readonly_fields = ("user", "game", "mu", "sigma", "ordinal", "tournaments", "updated_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Rating | None = None) -> bool:
        return False


@admin.register(RatingChange)
class RatingChangeAdmin(_ChangeAdmin):
    list_display = ("tournament", "user", "game", "rank", "shown_before", "shown_after")
    list_filter = ("game",)
    search_fields = ("user__username", "tournament__name")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: RatingChange | None = None) -> bool:
        return False
