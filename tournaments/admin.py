from django.contrib import admin

from core.admin_readonly import HistoryAdmin

from .models import CorrectionRecord, Entrant, PlayerRating, RatingChange, Tournament, TournamentMatch


class EntrantInline(admin.TabularInline):
    model = Entrant
    extra = 0
    fields = ["player", "seed", "place", "place_to"]
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "format", "status", "series", "series_length", "created_at", "finished_at"]
    list_filter = ["format", "status"]
    search_fields = ["name"]
    inlines = [EntrantInline]
    # Pairings and results change only through the services (advancement, corrections); the
    # format's options and the times at the tables only through tournament_create and tournament_update,
    # which check them (the format's schema, tournaments.table_settings).
    readonly_fields = ["status", "options", "table_settings", "started_at", "finished_at"]


@admin.register(TournamentMatch)
class TournamentMatchAdmin(HistoryAdmin):
    list_display = ["tournament", "key", "bracket", "round", "position", "status", "winner", "match"]
    list_filter = ["bracket", "status"]
    list_select_related = ["tournament", "winner", "match"]
    search_fields = ["tournament__name", "key"]
    raw_id_fields = ["player_one", "player_two", "winner", "match"]
    # Corrections go through the API, which keeps their history.


@admin.register(CorrectionRecord)
class CorrectionRecordAdmin(HistoryAdmin):
    list_display = ["tournament", "key", "made_by", "made_at"]
    list_select_related = ["tournament", "made_by"]
    readonly_fields = ["tournament", "key", "made_by", "made_at", "before", "after"]


@admin.register(PlayerRating)
class PlayerRatingAdmin(HistoryAdmin):  # derived from the results, recomputed by the services
    list_display = ["player", "rating", "deviation", "volatility", "games", "updated_at"]
    list_select_related = ["player"]
    search_fields = ["player__handle"]


@admin.register(RatingChange)
class RatingChangeAdmin(HistoryAdmin):
    list_display = ["player", "match", "rating_before", "rating_after", "created_at"]
    list_select_related = ["player"]
    raw_id_fields = ["player", "match"]
