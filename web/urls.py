"""The site's pages. `home`, `login` and `logout` keep the plain names the settings refer to;
everything else is in the "web" namespace."""

from django.contrib.auth import views as auth_views
from django.urls import include, path

from .forms.login import LoginForm
from .views import (
    account_token,
    accounts,
    calendars,
    exports,
    home,
    live,
    lobby,
    logs,
    matches,
    new_match,
    organise,
    organise_edit,
    passwords,
    players,
    solitaire,
    tables,
    tournaments,
)

site_patterns = [
    path("tournaments/", tournaments.tournament_list, name="tournament_list"),
    path("tournaments/<int:tournament_id>/", tournaments.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:tournament_id>/embed/", tournaments.tournament_embed, name="tournament_embed"),
    path("tournaments/<int:tournament_id>/join/", tournaments.tournament_join, name="tournament_join"),
    path("tournaments/<int:tournament_id>/calendar.ics", calendars.tournament_ics, name="tournament_ics"),
    path("tournaments/<int:tournament_id>/standings.csv", exports.standings_csv, name="tournament_standings_csv"),
    path("tournaments/<int:tournament_id>/results.csv", exports.results_csv, name="tournament_results_csv"),
    path("tournaments/<int:tournament_id>/logs.zip", exports.logs_archive, name="tournament_logs_zip"),
    path("calendar/<str:token>.ics", calendars.player_ics, name="player_ics"),
    path("me/calendar/", calendars.calendar_link, name="calendar_link"),
    path("players/", players.player_list_view, name="player_list"),
    path("players/<str:handle>/", players.player_detail, name="player_detail"),
    path("matches/new/", new_match.match_new, name="match_new"),
    path("matches/<int:match_id>/", matches.match_detail, name="match_detail"),
    path("games/<int:game_id>/report/", matches.game_report_view, name="game_report"),
    path("games/<int:game_id>/confirm/", matches.game_confirm_view, name="game_confirm"),
    path("games/<int:game_id>/dispute/", matches.game_dispute_view, name="game_dispute"),
    path("games/<int:game_id>/table/", tables.game_table, name="game_table"),
    path("play/", lobby.play, name="play"),
    path("play/seeks/", lobby.seek_post, name="seek_post"),
    path("play/seeks/<int:seek_id>/accept/", lobby.seek_accept_view, name="seek_accept"),
    path("play/seeks/<int:seek_id>/cancel/", lobby.seek_cancel_view, name="seek_cancel"),
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
    path("accounts/notifications/", accounts.notifications, name="notifications"),
    path("accounts/claim/<str:uidb64>/<str:token>/", accounts.claim, name="claim"),
    path("accounts/token/", account_token.api_token, name="api_token"),
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
    path("organise/tournaments/<int:tournament_id>/edit/", organise_edit.tournament_edit, name="organise_edit"),
    path(
        "organise/tournaments/<int:tournament_id>/delete/",
        organise_edit.tournament_delete_view,
        name="organise_delete",
    ),
    path("organise/tournaments/<int:tournament_id>/start/", organise_edit.tournament_start_view, name="organise_start"),
    path(
        "organise/tournaments/<int:tournament_id>/undo-start/",
        organise_edit.tournament_undo_start,
        name="organise_undo_start",
    ),
    path("organise/matches/<int:match_id>/result/", organise.match_result, name="organise_match_result"),
    path("organise/matches/<int:match_id>/call/", organise.match_call, name="organise_match_call"),
]

urlpatterns = [
    path("", home.home, name="home"),
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True, authentication_form=LoginForm),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's password views keep the plain names they reverse to each other.
    path("accounts/password/change/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/change/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    path("accounts/password/reset/", passwords.PasswordReset.as_view(), name="password_reset"),
    path("accounts/password/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "accounts/password/reset/<str:uidb64>/<str:token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("", include((site_patterns, "web"))),
]
