import os

from django.urls import path, register_converter

import addiction_site.converters  # noqa: F401  (registers id, deal, day)
from games import views
from games.converters import ActionConverter

app_name = "games"
register_converter(ActionConverter, "action")

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.game_new, name="new"),
    path("new/drawn/", views.drawn_start, name="drawn_start"),
    path("deal/<deal:deal_number>/", views.deal_page, name="deal"),
    path("deal/<deal:deal_number>/start/", views.deal_start, name="deal_start"),
    path("game/<id:pk>/", views.game_detail, name="detail"),
    path("game/<id:pk>/<action:kind>/", views.game_action, name="act"),
    path("game/<id:pk>/delete/", views.game_delete_page, name="delete"),
    path("game/<id:pk>/verify/", views.game_verify_page, name="verify"),
    path("game/<id:pk>/replay/", views.game_replay_page, name="replay_start"),
    path("game/<id:pk>/replay/<id:step>/", views.game_replay_page, name="replay"),
    path("game/<id:pk>/replay/<id:step>/picture.png", views.game_picture, name="picture"),
    path("game/<id:pk>/verdict/", views.game_verdict_page, name="verdict"),
    path("my-games/", views.my_games_page, name="my_games"),
    path("settings/", views.settings_page, name="settings"),
    path("settings/mark-movable/", views.mark_movable, name="mark_movable"),
    path("how-to-play/", views.rules, name="rules"),
    path("sw.js", views.service_worker, name="service_worker"),
    path("offline/", views.offline_page, name="offline"),
]

# The load benchmark's baseline (benchmarks/load.py): routed only in the server that
# benchmark starts, never in a normal deployment.
if os.environ.get("ADDICTION_BENCHMARK") == "1":
    from games import views_benchmark

    urlpatterns.append(path("benchmark/update/<id:pk>/", views_benchmark.update_one_row, name="benchmark_update"))
