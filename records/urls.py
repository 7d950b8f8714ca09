from django.urls import path

import addiction_site.converters  # noqa: F401  (registers id, deal, day)
from records import views

app_name = "records"

urlpatterns = [
    path("leaderboards/", views.leaderboard, name="leaderboard"),
    path("deal/<deal:deal_number>/leaderboard/", views.deal_leaderboard, name="deal_leaderboard"),
    path("players/<str:username>/", views.profile, name="profile"),
    path("game/<id:pk>/verify/", views.game_verify_page, name="verify"),
    path("game/<id:pk>/replay/", views.game_replay_page, name="replay_start"),
    path("game/<id:pk>/replay/<id:step>/", views.game_replay_page, name="replay"),
    path("game/<id:pk>/verdict/", views.game_verdict_page, name="verdict"),
]
