from django.urls import path

import addiction_site.converters  # noqa: F401  (registers id)
from races import views

app_name = "races"

urlpatterns = [
    path("race/new/", views.race_new, name="new"),
    path("race/<slug:code>/", views.race_page, name="race"),
    path("race/<slug:code>/standings/", views.race_standings, name="standings"),
    # Served by daphne as a live stream (addiction_site/asgi.py, races/stream.py); by WSGI, one snapshot.
    path("race/<slug:code>/stream/", views.race_stream_once, name="stream"),
    path("race/<slug:code>/join/", views.race_join_page, name="join"),
    path("race/<slug:code>/start/", views.race_start_page, name="start"),
    path("race/<slug:code>/players/", views.race_players, name="players"),
    path("race/<slug:code>/remove/<id:entry_id>/", views.race_remove_page, name="remove"),
]
