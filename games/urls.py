import os

from django.contrib.auth import views as auth_views
from django.urls import path, register_converter

from games import views, views_accounts, views_daily, views_records, views_settings
from games.converters import DayConverter, DealNumberConverter, IdConverter

app_name = "games"
register_converter(IdConverter, "id")
register_converter(DealNumberConverter, "deal")
register_converter(DayConverter, "day")

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.game_new, name="new"),
    path("deal/<deal:deal_number>/", views.deal_page, name="deal"),
    path("deal/<deal:deal_number>/start/", views.deal_start, name="deal_start"),
    path("game/<id:pk>/", views.game_detail, name="detail"),
    path("game/<id:pk>/move/", views.game_move, name="move"),
    path("game/<id:pk>/undo/", views.game_undo, name="undo"),
    path("game/<id:pk>/redo/", views.game_redo, name="redo"),
    path("game/<id:pk>/shuffle/", views.game_shuffle, name="shuffle"),
    path("game/<id:pk>/resign/", views.game_resign, name="resign"),
    path("game/<id:pk>/hint/", views.game_hint, name="hint"),
    path("settings/", views_settings.settings_page, name="settings"),
    path("settings/mark-movable/", views.mark_movable, name="mark_movable"),
    path("how-to-play/", views.rules, name="rules"),
    path("my-games/", views_records.my_games_page, name="my_games"),
    path("game/<id:pk>/delete/", views_records.game_delete_page, name="delete"),
    path("game/<id:pk>/verify/", views_records.game_verify_page, name="verify"),
    path("game/<id:pk>/replay/", views_records.game_replay_page, name="replay_start"),
    path("game/<id:pk>/replay/<id:step>/", views_records.game_replay_page, name="replay"),
    path("game/<id:pk>/verdict/", views_records.game_verdict_page, name="verdict"),
    path("leaderboards/", views_records.leaderboard, name="leaderboard"),
    path("daily/", views_daily.daily_page, name="daily"),
    path("daily/start/", views_daily.daily_start, name="daily_start"),
    path("daily/calendar/", views_daily.daily_calendar, name="daily_calendar"),
    path("daily/<day:day>/", views_daily.daily_page, name="daily_day"),
    path("daily/<day:day>/start/", views_daily.daily_start, name="daily_day_start"),
    path("daily/<day:day>/leaderboard/", views_daily.daily_board, name="daily_board"),
    path("deal/<deal:deal_number>/leaderboard/", views_records.deal_leaderboard, name="deal_leaderboard"),
    path("players/<str:username>/", views_records.profile, name="profile"),
    path("accounts/signup/", views_accounts.signup, name="signup"),
    path("accounts/", views_accounts.account, name="account"),
    path("accounts/email/", views_accounts.email_change, name="email_change"),
    path("accounts/email/confirm/<str:token>/", views_accounts.email_change_confirm_page, name="email_change_confirm"),
    path("accounts/data/", views_accounts.account_data_download, name="account_data"),
    path("accounts/delete/", views_accounts.account_delete_page, name="account_delete"),
    path("privacy/", views_accounts.privacy, name="privacy"),
]

# The load benchmark's baseline (benchmarks/load.py): routed only in the server that
# benchmark starts, never in a normal deployment.
if os.environ.get("ADDICTION_BENCHMARK") == "1":
    from games import views_benchmark

    urlpatterns.append(path("benchmark/update/<id:pk>/", views_benchmark.update_one_row, name="benchmark_update"))

# django.contrib.auth's own views, under names without the app namespace so that its
# templates and settings (LOGIN_URL = "login") find them.
auth_urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path("accounts/password/done/", auth_views.PasswordChangeDoneView.as_view(), name="password_change_done"),
    # Password reset: Django's views; ours only refuses when the site cannot send mail.
    path("accounts/password/reset/", views_accounts.PasswordResetView.as_view(), name="password_reset"),
    path("accounts/password/reset/done/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "accounts/password/reset/complete/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
]
