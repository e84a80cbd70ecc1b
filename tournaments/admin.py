"""Admin: read-mostly views of tournaments, entries, games and the move log."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from tournaments import services
from tournaments.models import Entry, Game, Move, Tournament


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    readonly_fields = ("user", "joined_at")
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "game", "preset", "rounds", "opens_at", "closes_at", "closed_at")
    list_filter = ("game", "preset")
    search_fields = ("name",)
    readonly_fields = ("commitment", "closed_at", "created_by", "created_at", "updated_at")
    inlines = [EntryInline]
    actions = ["close_now"]

    @admin.action(description=_("Close now (the bot finishes open games)"))
    def close_now(self, request, queryset):  # type: ignore[no-untyped-def]
        for tournament in queryset.filter(closed_at__isnull=True):
            services.tournament_close_early(tournament=tournament)

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        # New tournaments get their secret from services.tournament_create (the site form).
        return False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("pk", "user", "game", "preset", "status", "round_index", "seq", "bot_finished")
    list_filter = ("status", "game", "bot_finished")
    readonly_fields = [f.name for f in Game._meta.fields]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "round_index", "seat", "by_bot", "created_at")
    readonly_fields = [f.name for f in Move._meta.fields]

    def has_add_permission(self, request):  # type: ignore[no-untyped-def]
        return False

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False
