"""URLs that mails link to."""

from django.urls import path

from notifications import views

urlpatterns = [
    path("game/<int:game_id>/", views.game, name="mail-game"),
    path("open/<str:token>/", views.open_game, name="mail-open"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="mail-unsubscribe"),
    path("neutral/<str:token>/", views.neutral_answer, name="mail-neutral"),
]
