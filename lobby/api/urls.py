"""URLs of the lobby's JSON API under /api/v1/ (config/urls.py puts them after the game's)."""

from django.urls import path

from lobby.api import invitations, rematch, seeds, views

urlpatterns = [
    path("games/", views.GamesView.as_view(), name="api-games"),
    path("games/<int:game_id>/join/", views.JoinView.as_view(), name="api-join"),
    path("games/<int:game_id>/seats/", views.SeatsView.as_view(), name="api-seats"),
    path("games/<int:game_id>/bots/", views.BotsView.as_view(), name="api-bots"),
    path("account/bot/", views.BotAccountView.as_view(), name="api-account-bot"),
    path("account/next-seed/", seeds.NextSeedView.as_view(), name="api-next-seed"),
    path("games/<int:game_id>/start/", views.StartView.as_view(), name="api-start"),
    path("games/<int:game_id>/leave/", views.LeaveView.as_view(), name="api-leave"),
    path("games/<int:game_id>/cancel/", views.CancelView.as_view(), name="api-cancel"),
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
