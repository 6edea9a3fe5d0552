from django.contrib import admin

from core.admin_readonly import HistoryAdmin, HistoryInline

from .models import Challenge, Game, Match, NotificationPreference, OutboxEmail, Player, ResultChange


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["handle", "display_name", "user", "created_at"]
    search_fields = ["handle", "display_name", "user__username", "user__email"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]


# Results change only through the services, which keep every change in ResultChange:
# games and their results are read-only here, and so are a match's outcome fields.
class GameInline(HistoryInline):
    model = Game
    fields = ["number", "status", "winner", "decided_by", "decided_at"]
    readonly_fields = fields
    show_change_link = True


_SEATS = ["player_one", "player_two", "player_three", "player_four"]


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "player_one", "player_two", "player_three", "player_four", "ruleset_name", "series"]
    list_display += ["series_length", "status", "winner"]
    list_filter = ["status", "series", "ruleset_name", "created_at"]
    search_fields = [f"{seat}__{name}" for seat in _SEATS for name in ("handle", "display_name")]
    list_select_related = [*_SEATS, "winner"]
    raw_id_fields = [*_SEATS, "winner", "created_by"]
    date_hierarchy = "created_at"
    inlines = [GameInline]
    # What the results are derived from, and the results themselves, change only through the services.
    readonly_fields = ["status", "winner", "finished_at", "series", "series_length", *_SEATS]
    readonly_fields += ["ruleset", "points_per_place", "time_limit_ms"]


@admin.register(Game)
class GameAdmin(HistoryAdmin):
    list_display = ["id", "match", "number", "status", "winner", "decided_by", "decided_at"]
    list_filter = ["status", "decided_by"]
    search_fields = [*(f"match__{seat}__handle" for seat in _SEATS), "=match__id"]
    list_select_related = ["match", "winner"]
    raw_id_fields = ["match", "winner", "reported_by_one", "reported_by_two"]


@admin.register(ResultChange)
class ResultChangeAdmin(HistoryAdmin):
    list_display = ["id", "match", "game", "kind", "made_by", "made_at"]
    list_filter = ["kind", "made_at"]
    search_fields = ["=match__id", "made_by__username", "reason"]
    list_select_related = ["match", "game", "made_by"]


@admin.register(NotificationPreference)
class NotificationPreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "claim_waiting", "match_called", "registration_approved", "dispute", "waiting_list"]
    list_filter = ["claim_waiting", "match_called", "registration_approved", "dispute", "waiting_list"]
    search_fields = ["user__username", "user__email"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]


# What was sent, to whom and when, or why not: written and marked only by matches.services.outbox.
@admin.register(OutboxEmail)
class OutboxEmailAdmin(HistoryAdmin):
    list_display = ["id", "kind", "user", "address", "subject", "created_at", "sent_at", "attempts", "skipped"]
    list_filter = ["kind", "skipped", "created_at"]
    search_fields = ["user__username", "user__email", "address", "subject"]
    list_select_related = ["user"]
    date_hierarchy = "created_at"


# Made and answered only through matches.services.challenges (an accept makes a match): read-only here.
@admin.register(Challenge)
class ChallengeAdmin(HistoryAdmin):
    list_display = ["id", "challenger", "challenged", "ruleset_name", "series", "series_length", "status"]
    list_display += ["created_at", "expires_at", "match"]
    list_filter = ["status", "created_at"]
    search_fields = ["challenger__handle", "challenged__handle", "=match__id"]
    list_select_related = ["challenger", "challenged"]
    date_hierarchy = "created_at"
