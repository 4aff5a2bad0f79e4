"""The streams' URLs under /api/v1/ (config.asgi sends them to the ASGI handler)."""

from django.urls import path

from live import views

urlpatterns = [
    path("stream/", views.user_stream, name="api-user-stream"),
    path("games/<int:game_id>/stream/", views.game_stream, name="api-game-stream"),
]
