"""API URLs of the players, the leaderboards and the moderators' void of a game's rating
(their pages are web.views.players')."""

from django.urls import path

from ratings import api

api_urlpatterns = [
    path("players/<str:username>/", api.PlayerView.as_view(), name="api-player"),
    path("leaderboard/", api.LeaderboardView.as_view(), name="api-leaderboard"),
    path("leaderboard/bots/", api.BotLeaderboardView.as_view(), name="api-leaderboard-bots"),
    path("games/<int:game_id>/void-rating/", api.VoidRatingView.as_view(),
         name="api-void-rating"),
    path("games/<int:game_id>/analysis/", api.AnalysisView.as_view(), name="api-analysis"),
]
