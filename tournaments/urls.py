"""URLs of the tournaments' pages and API."""

from django.urls import path

from tournaments import api, views

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

urlpatterns = [
    path("tournaments/", views.tournaments, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:tournament_id>/join/", views.join, name="tournament-join"),
    path("tournaments/<int:tournament_id>/leave/", views.leave, name="tournament-leave"),
    path("tournaments/<int:tournament_id>/moderate/", views.moderate,
         name="tournament-moderate"),
]
