"""API URLs of the tournaments (their pages are web.views.tournaments')."""

from django.urls import path

from tournaments import api

api_urlpatterns = [
    path("tournaments/", api.TournamentsView.as_view(), name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", api.TournamentView.as_view(),
         name="api-tournament"),
    path("tournaments/<int:tournament_id>/join/", api.JoinView.as_view(),
         name="api-tournament-join"),
    path("tournaments/<int:tournament_id>/leave/", api.LeaveView.as_view(),
         name="api-tournament-leave"),
    path("tournaments/<int:tournament_id>/cancel/", api.CancelView.as_view(),
         name="api-tournament-cancel"),
    path("tournaments/<int:tournament_id>/retry/", api.RetryView.as_view(),
         name="api-tournament-retry"),
    path("tournaments/<int:tournament_id>/replace/", api.ReplaceView.as_view(),
         name="api-tournament-replace"),
]
