from django.urls import path

import addiction_site.converters  # noqa: F401  (registers id, deal, day)
from records import views

app_name = "records"

urlpatterns = [
    path("leaderboards/", views.leaderboard, name="leaderboard"),
    path("deal/<deal:deal_number>/leaderboard/", views.deal_leaderboard, name="deal_leaderboard"),
    path("players/<str:username>/", views.profile, name="profile"),
]
