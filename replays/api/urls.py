from django.urls import path

from . import solitaire, views

urlpatterns = [
    path("games/<int:game_id>/logs/", views.GameLogsApi.as_view(), name="game-logs"),
    path("logs/<int:log_id>/", views.LogDetailApi.as_view(), name="log-detail"),
    path("logs/<int:log_id>/steps/", views.LogStepsApi.as_view(), name="log-steps"),
    path("logs/<int:log_id>/steps/compact/", views.LogCompactStepsApi.as_view(), name="log-steps-compact"),
    path("logs/<int:log_id>/document/", views.LogDocumentApi.as_view(), name="log-document"),
    path("solitaire/", solitaire.SolitaireListSubmitApi.as_view(), name="solitaire-list"),
    path("solitaire/leaderboard/", solitaire.SolitaireLeaderboardApi.as_view(), name="solitaire-leaderboard"),
    path("solitaire/<int:run_id>/", solitaire.SolitaireDetailApi.as_view(), name="solitaire-detail"),
    path(
        "solitaire/<int:run_id>/steps/compact/",
        solitaire.SolitaireCompactStepsApi.as_view(),
        name="solitaire-steps-compact",
    ),
]
