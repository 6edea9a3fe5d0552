"""The tournaments API, mounted at /api/tournaments/."""

from django.urls import path

from .api import views

app_name = "tournaments"

urlpatterns = [
    path("", views.TournamentListCreateApi.as_view(), name="tournament-list"),
    path("ratings/", views.RatingListApi.as_view(), name="rating-list"),
    path("ratings/<str:handle>/", views.RatingDetailApi.as_view(), name="rating-detail"),
    path("<int:tournament_id>/", views.TournamentDetailApi.as_view(), name="tournament-detail"),
    path("<int:tournament_id>/entrants/", views.EntrantListAddApi.as_view(), name="entrant-list"),
    path("<int:tournament_id>/entrants/<str:handle>/", views.EntrantRemoveApi.as_view(), name="entrant-detail"),
    path("<int:tournament_id>/entry-rules/", views.EntryRulesApi.as_view(), name="entry-rules"),
    path("<int:tournament_id>/start/", views.TournamentStartApi.as_view(), name="tournament-start"),
    path("<int:tournament_id>/start/undo/", views.TournamentStartUndoApi.as_view(), name="tournament-start-undo"),
    path("<int:tournament_id>/matches/", views.PairingListApi.as_view(), name="pairing-list"),
    path("<int:tournament_id>/matches/<str:key>/", views.PairingDetailApi.as_view(), name="pairing-detail"),
    path("<int:tournament_id>/matches/<str:key>/correct/", views.PairingCorrectApi.as_view(), name="pairing-correct"),
    path("<int:tournament_id>/standings/", views.StandingsApi.as_view(), name="standings"),
    path("<int:tournament_id>/corrections/", views.CorrectionHistoryApi.as_view(), name="correction-list"),
]
