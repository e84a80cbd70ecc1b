"""Admin of clubs: series, accounts and API tokens (read-mostly; a token's key is never
stored, so the admin shows only its prefix)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin

from tournaments.models import Account, ApiToken, Series

if TYPE_CHECKING:
    _SeriesAdmin = admin.ModelAdmin[Series]
    _AccountAdmin = admin.ModelAdmin[Account]
    _TokenAdmin = admin.ModelAdmin[ApiToken]
else:
    _SeriesAdmin = _AccountAdmin = _TokenAdmin = admin.ModelAdmin


@admin.register(Series)
class SeriesAdmin(_SeriesAdmin):
    list_display = ("name", "game", "preset", "kind", "time_of_day", "window_minutes", "best_k")
    readonly_fields = ("created_by", "created_at")


@admin.register(Account)
class AccountAdmin(_AccountAdmin):
    list_display = ("user", "is_bot")
    list_filter = ("is_bot",)


@admin.register(ApiToken)
class ApiTokenAdmin(_TokenAdmin):
    list_display = ("user", "name", "prefix", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("user", "name", "prefix", "key_hash", "created_at", "last_used_at")
