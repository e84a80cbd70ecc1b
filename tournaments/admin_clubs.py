"""Admin of clubs: the clubs themselves (site staff create them and name their owner as a
member), series, accounts and API tokens (read-mostly; a token's key is never stored, so
the admin shows only its prefix)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.models import Account, ApiToken, Club, Membership, Series
from tournaments.services import clubs as club_services

if TYPE_CHECKING:
    _SeriesAdmin = admin.ModelAdmin[Series]
    _AccountAdmin = admin.ModelAdmin[Account]
    _TokenAdmin = admin.ModelAdmin[ApiToken]
    _ClubAdmin = admin.ModelAdmin[Club]
    _MembershipInline = admin.TabularInline[Membership, Club]
else:
    _SeriesAdmin = _AccountAdmin = _TokenAdmin = _ClubAdmin = admin.ModelAdmin
    _MembershipInline = admin.TabularInline


class MembershipInline(_MembershipInline):
    model = Membership
    extra = 1
    autocomplete_fields = ("user",)
    readonly_fields = ("joined_at",)


@admin.register(Club)
class ClubAdmin(_ClubAdmin):
    """Staff create a club here and add its owner as a member with the role "owner"."""

    list_display = ("name", "slug", "join_mode", "created_by", "suspended_at", "created_at")
    list_filter = ("join_mode",)
    prepopulated_fields = {"slug": ("name",)}
    readonly_fields = ("invite_code", "created_by", "created_at")
    search_fields = ("name", "slug")
    inlines = (MembershipInline,)

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        if not obj.invite_code:
            obj.invite_code = club_services.new_invite_code()
        super().save_model(request, obj, form, change)


@admin.register(Series)
class SeriesAdmin(_SeriesAdmin):
    list_display = (
        "name",
        "club",
        "access",
        "game",
        "preset",
        "kind",
        "time_of_day",
        "window_minutes",
        "best_k",
    )
    readonly_fields = ("created_by", "created_at")


@admin.register(Account)
class AccountAdmin(_AccountAdmin):
    list_display = ("user", "is_bot")
    list_filter = ("is_bot",)


@admin.register(ApiToken)
class ApiTokenAdmin(_TokenAdmin):
    list_display = ("user", "name", "prefix", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("user", "name", "prefix", "key_hash", "created_at", "last_used_at")
