"""URLs of the player pages, the leaderboard and the moderators' void of a game's rating,
pages and API."""

from django.urls import path

from ratings import api, views

api_urlpatterns = [
    path("players/<str:username>/", api.PlayerView.as_view(), name="api-player"),
    path("leaderboard/", api.LeaderboardView.as_view(), name="api-leaderboard"),
    path("leaderboard/bots/", api.BotLeaderboardView.as_view(), name="api-leaderboard-bots"),
    path("games/<int:game_id>/void-rating/", api.VoidRatingView.as_view(),
         name="api-void-rating"),
    path("games/<int:game_id>/analysis/", api.AnalysisView.as_view(), name="api-analysis"),
]

urlpatterns = [
    path("players/<str:username>/", views.player_page, name="player"),
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
    path("leaderboard/bots/", views.leaderboard_page, {"bots": True}, name="leaderboard-bots"),
    path("moderation/games/<int:game_id>/void-rating/", views.void_rating, name="void-rating"),
]
