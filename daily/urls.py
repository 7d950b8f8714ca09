from django.urls import path

import addiction_site.converters  # noqa: F401  (registers id, deal, day)
from daily import views

app_name = "daily"

urlpatterns = [
    path("daily/", views.daily_page, name="daily"),
    path("daily/start/", views.daily_start, name="daily_start"),
    path("daily/calendar/", views.daily_calendar, name="daily_calendar"),
    path("daily/<day:day>/", views.daily_page, name="daily_day"),
    path("daily/<day:day>/start/", views.daily_start, name="daily_day_start"),
    path("daily/<day:day>/picture.png", views.daily_picture, name="daily_picture"),
    path("daily/<day:day>/leaderboard/", views.daily_board, name="daily_board"),
]
