"""URLs of the JSON API under /api/v1/."""

from django.urls import path, re_path

from games.api import invitations, rematch, seeds, views
from lib.api.errors import not_found

urlpatterns = [
    # First: the URL resolved most often.
    path("games/<int:game_id>/commands/", views.CommandsView.as_view(), name="api-commands"),
    path("maps/", views.MapsView.as_view(), name="api-maps"),
    path("maps/<str:map_id>/", views.MapView.as_view(), name="api-map"),
    path("maps/<str:map_id>/versions/<str:map_hash>/", views.MapVersionView.as_view(),
         name="api-map-version"),
    path("games/", views.GamesView.as_view(), name="api-games"),
    path("games/<int:game_id>/", views.GameView.as_view(), name="api-game"),
    path("games/<int:game_id>/join/", views.JoinView.as_view(), name="api-join"),
    path("games/<int:game_id>/seats/", views.SeatsView.as_view(), name="api-seats"),
    path("games/<int:game_id>/bots/", views.BotsView.as_view(), name="api-bots"),
    path("account/bot/", views.BotAccountView.as_view(), name="api-account-bot"),
    path("account/next-seed/", seeds.NextSeedView.as_view(), name="api-next-seed"),
    path("games/<int:game_id>/start/", views.StartView.as_view(), name="api-start"),
    path("games/<int:game_id>/leave/", views.LeaveView.as_view(), name="api-leave"),
    path("games/<int:game_id>/cancel/", views.CancelView.as_view(), name="api-cancel"),
    path("games/<int:game_id>/events/", views.EventsView.as_view(), name="api-events"),
    path("games/<int:game_id>/record/", views.RecordView.as_view(), name="api-record"),
    path("games/<int:game_id>/rematch/", rematch.RematchView.as_view(), name="api-rematch"),
    path("games/<int:game_id>/rematch/decline/", rematch.DeclineView.as_view(),
         name="api-rematch-decline"),
    path("games/<int:game_id>/invite/", invitations.InviteView.as_view(), name="api-invite"),
    path("games/<int:game_id>/withdraw/", invitations.WithdrawView.as_view(),
         name="api-withdraw"),
    path("games/<int:game_id>/decline/", invitations.DeclineView.as_view(), name="api-decline"),
    path("games/<int:game_id>/invite-link/", invitations.RenewLinkView.as_view(),
         name="api-invite-link"),
    path("invitations/", invitations.MyInvitationsView.as_view(), name="api-invitations"),
    path("invitations/<str:token>/", invitations.ByTokenView.as_view(),
         name="api-invitation-token"),
]

# Anything else under /api/v1/ answers JSON, not an HTML page.
fallback = [re_path(r"^api/v1/.*$", not_found)]
