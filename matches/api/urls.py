from django.urls import path

from . import challenges, views

urlpatterns = [
    path("players/", views.PlayerListCreateApi.as_view(), name="player-list"),
    path("players/<str:handle>/", views.PlayerDetailApi.as_view(), name="player-detail"),
    path("matches/", views.MatchListCreateApi.as_view(), name="match-list"),
    path("matches/<int:match_id>/", views.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:match_id>/history/", views.MatchHistoryApi.as_view(), name="match-history"),
    path("games/<int:game_id>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/report/", views.GameReportApi.as_view(), name="game-report"),
    path("games/<int:game_id>/result/", views.GameResultApi.as_view(), name="game-result"),
    path("games/<int:game_id>/confirm/", views.GameConfirmApi.as_view(), name="game-confirm"),
    path("games/<int:game_id>/dispute/", views.GameDisputeApi.as_view(), name="game-dispute"),
    path("challenges/", challenges.ChallengeListCreateApi.as_view(), name="challenge-list"),
    path("challenges/<int:challenge_id>/", challenges.ChallengeDetailApi.as_view(), name="challenge-detail"),
    path("challenges/<int:challenge_id>/accept/", challenges.ChallengeAcceptApi.as_view(), name="challenge-accept"),
    path("challenges/<int:challenge_id>/decline/", challenges.ChallengeDeclineApi.as_view(), name="challenge-decline"),
    path(
        "challenges/<int:challenge_id>/withdraw/", challenges.ChallengeWithdrawApi.as_view(), name="challenge-withdraw"
    ),
]
