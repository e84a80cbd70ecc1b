"""Admin: read-mostly views of tournaments, entries, games and their stored rounds."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from tournaments import tasks
from tournaments.models import Entry, Game, GameRound, Tournament
from tournaments.services import audit as audit_services
from tournaments.services import closing as closing_services

# The admin classes are generic only in django-stubs (Django's own are not subscriptable).
if TYPE_CHECKING:
    _EntryInline = admin.TabularInline[Entry, Tournament]
    _EntryAdmin = admin.ModelAdmin[Entry]
    _TournamentAdmin = admin.ModelAdmin[Tournament]
    _GameAdmin = admin.ModelAdmin[Game]
    _GameRoundAdmin = admin.ModelAdmin[GameRound]
else:
    _EntryInline = admin.TabularInline
    _TournamentAdmin = _EntryAdmin = _GameAdmin = _GameRoundAdmin = admin.ModelAdmin


AUDIT_FIELDS = ("audit_status", "audited_at", "audit_detail", "audit_resolved_by")
#: Fair play (docs/rules.md, "Fair play"): decided on the entries page, never edited here.
FAIR_PLAY_FIELDS = ("fair_play", "fair_play_decided_by", "fair_play_decided_at")


class EntryInline(_EntryInline):
    model = Entry
    extra = 0
    fields = ("user", "joined_at", *AUDIT_FIELDS)
    readonly_fields = fields
    can_delete = False


@admin.register(Tournament)
class TournamentAdmin(_TournamentAdmin):
    list_display = (
        "name",
        "club",
        "access",
        "game",
        "preset",
        "rounds",
        "opens_at",
        "closes_at",
        "closed_at",
    )
    list_filter = ("game", "preset")
    search_fields = ("name",)
    readonly_fields = ("commitment", "closed_at", "created_by", "created_at", "updated_at")
    inlines = [EntryInline]
    actions = ["close_now", "audit_games"]

    @admin.action(description=_("Close now (the bot finishes open games)"))
    def close_now(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset.filter(closed_at__isnull=True):
            closing_services.tournament_close_early(tournament=tournament)

    @admin.action(description=_("Audit the finished games by replay (queued)"))
    def audit_games(self, request: HttpRequest, queryset: QuerySet[Tournament]) -> None:
        for tournament in queryset:
            # A DjangoTask at run time (see closing_services.tournament_close_early).
            tasks.tournament_audit.delay_on_commit(tournament.pk)  # type: ignore[attr-defined]

    def has_add_permission(self, request: HttpRequest) -> bool:
        # New tournaments get their secret from tournament_create (the site form).
        return False


@admin.register(Entry)
class EntryAdmin(_EntryAdmin):
    """Entries and their replay audit: one under review is not ranked until the audit
    passes again or an organizer resolves it."""

    list_display = (
        "pk",
        "user",
        "tournament",
        "joined_at",
        "audit_status",
        "audited_at",
        "fair_play",
    )
    list_filter = ("audit_status", "fair_play")
    search_fields = ("user__username", "tournament__name")
    readonly_fields = ("tournament", "user", "joined_at", *AUDIT_FIELDS, *FAIR_PLAY_FIELDS)
    actions = ["audit_again", "resolve_audit"]

    @admin.action(description=_("Audit again (after a repair)"))
    def audit_again(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for game_id in Game.objects.filter(
            entry__in=queryset, status=Game.Status.FINISHED
        ).values_list("pk", flat=True):
            audit_services.game_audit(game_id=game_id)

    @admin.action(description=_("Resolve: the stored scores stand"))
    def resolve_audit(self, request: HttpRequest, queryset: QuerySet[Entry]) -> None:
        for entry in queryset.filter(audit_status=Entry.AuditStatus.MISMATCH):
            audit_services.entry_audit_resolve(entry_id=entry.pk, user=request.user)  # type: ignore[arg-type]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Game)
class GameAdmin(_GameAdmin):
    list_display = ("pk", "user", "game", "preset", "status", "round_index", "seq", "bot_finished")
    list_filter = ("status", "game", "bot_finished")
    readonly_fields = [f.name for f in Game._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(GameRound)
class GameRoundAdmin(_GameRoundAdmin):
    list_display = ("game", "round_index", "moves", "bot_from")
    readonly_fields = [f.name for f in GameRound._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: GameRound | None = None) -> bool:
        return False


# Series, accounts and API tokens; the ratings; the play checks.
from tournaments import admin_clubs, admin_fairplay, admin_ratings  # noqa: E402, F401
