"""URLs of the player pages, the leaderboard and the tournaments, pages and API."""

from django.urls import path

from ratings import api, views

api_urlpatterns = [
    path("players/<str:username>/", api.PlayerView.as_view(), name="api-player"),
    path("leaderboard/", api.LeaderboardView.as_view(), name="api-leaderboard"),
]

urlpatterns = [
    path("players/<str:username>/", views.player_page, name="player"),
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
]
