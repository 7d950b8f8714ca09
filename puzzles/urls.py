from django.urls import path

from puzzles import views

app_name = "puzzles"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("next/", views.next_puzzle, name="next"),
    path("daily/", views.daily_puzzle, name="daily"),
    path("picture/<int:pk>.png", views.puzzle_picture, name="picture"),
    path("<int:pk>/", views.attempt_page, name="attempt"),
    path("<int:pk>/move/", views.attempt_action, {"kind": "move"}, name="move"),
    path("<int:pk>/give-up/", views.attempt_action, {"kind": "give_up"}, name="give_up"),
]
