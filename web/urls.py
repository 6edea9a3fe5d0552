"""The site's pages. `home`, `login` and `logout` keep the plain names the settings refer to;
everything else is in the "web" namespace."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from .views import accounts, home, live, logs, matches, new_match, organise, players, solitaire, tables, tournaments

site_patterns = [
    path("tournaments/", tournaments.tournament_list, name="tournament_list"),
    path("tournaments/<int:tournament_id>/", tournaments.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:tournament_id>/embed/", tournaments.tournament_embed, name="tournament_embed"),
    path("tournaments/<int:tournament_id>/join/", tournaments.tournament_join, name="tournament_join"),
    path("players/", players.player_list_view, name="player_list"),
    path("players/<str:handle>/", players.player_detail, name="player_detail"),
    path("matches/new/", new_match.match_new, name="match_new"),
    path("matches/<int:match_id>/", matches.match_detail, name="match_detail"),
    path("games/<int:game_id>/report/", matches.game_report_view, name="game_report"),
    path("games/<int:game_id>/confirm/", matches.game_confirm_view, name="game_confirm"),
    path("games/<int:game_id>/dispute/", matches.game_dispute_view, name="game_dispute"),
    path("games/<int:game_id>/table/", tables.game_table, name="game_table"),
    path("play/", tables.play, name="play"),
    path("tables/<int:table_id>/", tables.table_page, name="table"),
    path("tables/<int:table_id>/replay/", tables.practice_replay, name="practice_replay"),
    path("replays/<int:log_id>/", logs.replay_detail, name="replay"),
    path("solitaire/", solitaire.solitaire_board, name="solitaire"),
    path("solitaire/<int:run_id>/replay/", solitaire.solitaire_replay, name="solitaire_replay"),
    path("submit/", logs.log_submit_view, name="log_submit"),
    path("logs/<int:log_id>/", logs.log_status, name="log_status"),
    path("me/", players.my_matches, name="my_matches"),
    path("live/", live.live_version, name="live"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/claim/<str:uidb64>/<str:token>/", accounts.claim, name="claim"),
    path("organise/", organise.organise, name="organise"),
    path("organise/tournaments/new/", organise.tournament_new, name="organise_new"),
    path("organise/tournaments/<int:tournament_id>/", organise.tournament_manage, name="organise_tournament"),
    path(
        "organise/tournaments/<int:tournament_id>/invite/<str:handle>/",
        organise.invite_link,
        name="organise_invite",
    ),
    path(
        "organise/tournaments/<int:tournament_id>/correct/<str:key>/",
        organise.pairing_correct_view,
        name="organise_correct",
    ),
    path("organise/matches/<int:match_id>/result/", organise.match_result, name="organise_match_result"),
    path("organise/matches/<int:match_id>/call/", organise.match_call, name="organise_match_call"),
]

urlpatterns = [
    path("", home.home, name="home"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("", include((site_patterns, "web"))),
]
