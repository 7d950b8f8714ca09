from django.urls import path, register_converter

from games import views
from games.converters import DealNumberConverter, IdConverter

app_name = "games"
register_converter(IdConverter, "id")
register_converter(DealNumberConverter, "deal")

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.game_new, name="new"),
    path("deal/<deal:deal_number>/", views.deal_start, name="deal"),
    path("game/<id:pk>/", views.game_detail, name="detail"),
    path("game/<id:pk>/move/", views.game_move, name="move"),
    path("game/<id:pk>/undo/", views.game_undo, name="undo"),
    path("game/<id:pk>/shuffle/", views.game_shuffle, name="shuffle"),
    path("game/<id:pk>/resign/", views.game_resign, name="resign"),
    path("settings/mark-movable/", views.mark_movable, name="mark_movable"),
    path("how-to-play/", views.rules, name="rules"),
]
