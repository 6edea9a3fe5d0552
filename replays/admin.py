from django.contrib import admin

from core.admin_readonly import HistoryAdmin, HistoryInline

from .models import LogVerdict, MatchLog, ReplaySteps


# Logs are evidence and verdicts are the engine's: all of it is shown read-only.
class LogVerdictInline(HistoryInline):
    model = LogVerdict
    readonly_fields = ["engine_version", "status", "code", "event", "winner_seat", "created_at"]
    fields = readonly_fields


@admin.register(MatchLog)
class MatchLogAdmin(HistoryAdmin):
    list_display = [
        "id",
        "game",
        "status",
        "code",
        "event",
        "winner",
        "engine_version",
        "size",
        "submitted_by",
        "submitted_at",
        "verified_at",
    ]
    list_filter = ["status", "code", "engine_version", "submitted_at"]
    search_fields = [
        "=id",
        "sha256",
        "submitted_by__username",
        "game__match__player_one__handle",
        "game__match__player_two__handle",
        "message",
    ]
    list_select_related = ["game", "winner", "submitted_by"]
    raw_id_fields = ["game", "winner", "submitted_by"]
    readonly_fields = ["sha256", "size", "submitted_at", "verified_at", "engine_version"]
    exclude = ["data"]  # the verbatim document is never edited; download it from /api/logs/<id>/document/
    date_hierarchy = "submitted_at"
    inlines = [LogVerdictInline]


@admin.register(LogVerdict)
class LogVerdictAdmin(HistoryAdmin):
    list_display = ["id", "log", "engine_version", "status", "code", "event", "winner_seat", "created_at"]
    list_filter = ["status", "code", "engine_version"]
    search_fields = ["=log__id", "code"]
    raw_id_fields = ["log"]


@admin.register(ReplaySteps)
class ReplayStepsAdmin(HistoryAdmin):
    list_display = ["log", "engine_version", "created_at"]
    list_filter = ["engine_version"]
    search_fields = ["=log__id"]
    raw_id_fields = ["log"]
    exclude = ["steps"]
