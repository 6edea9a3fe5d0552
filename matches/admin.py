from django.contrib import admin

from .models import Game, Match, Player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["handle", "display_name", "user", "created_at"]
    search_fields = ["handle", "display_name", "user__username", "user__email"]
    list_select_related = ["user"]
    raw_id_fields = ["user"]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ["number", "status", "winner", "decided_by", "decided_at"]
    readonly_fields = ["decided_at"]
    raw_id_fields = ["winner"]
    show_change_link = True


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "player_one", "player_two", "ruleset_name", "series", "series_length", "status", "winner"]
    list_filter = ["status", "series", "ruleset_name", "created_at"]
    search_fields = ["player_one__handle", "player_two__handle", "player_one__display_name", "player_two__display_name"]
    list_select_related = ["player_one", "player_two", "winner"]
    raw_id_fields = ["player_one", "player_two", "winner", "created_by"]
    date_hierarchy = "created_at"
    inlines = [GameInline]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["id", "match", "number", "status", "winner", "decided_by", "decided_at"]
    list_filter = ["status", "decided_by"]
    search_fields = ["match__player_one__handle", "match__player_two__handle", "=match__id"]
    list_select_related = ["match", "winner"]
    raw_id_fields = ["match", "winner", "reported_by_one", "reported_by_two"]
