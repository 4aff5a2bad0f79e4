"""URLs of a game's JSON API under /api/v1/ (the lobby's are lobby.api.urls')."""

from django.urls import path, re_path

from games.api import odds, views
from lib.api.errors import not_found

urlpatterns = [
    # First: the URL resolved most often.
    path("games/<int:game_id>/commands/", views.CommandsView.as_view(), name="api-commands"),
    path("maps/", views.MapsView.as_view(), name="api-maps"),
    path("maps/<str:map_id>/", views.MapView.as_view(), name="api-map"),
    path("maps/<str:map_id>/versions/<str:map_hash>/", views.MapVersionView.as_view(),
         name="api-map-version"),
    path("games/<int:game_id>/", views.GameView.as_view(), name="api-game"),
    path("games/<int:game_id>/events/", views.EventsView.as_view(), name="api-events"),
    path("games/<int:game_id>/record/", views.RecordView.as_view(), name="api-record"),
    path("odds/", odds.OddsView.as_view(), name="api-odds"),
]

# Anything else under /api/v1/ answers JSON, not an HTML page.
fallback = [re_path(r"^api/v1/.*$", not_found)]
