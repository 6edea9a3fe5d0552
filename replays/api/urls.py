from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/logs/", views.GameLogsApi.as_view(), name="game-logs"),
    path("logs/<int:log_id>/", views.LogDetailApi.as_view(), name="log-detail"),
    path("logs/<int:log_id>/steps/", views.LogStepsApi.as_view(), name="log-steps"),
    path("logs/<int:log_id>/steps/compact/", views.LogCompactStepsApi.as_view(), name="log-steps-compact"),
    path("logs/<int:log_id>/document/", views.LogDocumentApi.as_view(), name="log-document"),
]
