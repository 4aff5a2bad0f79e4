"""URLs of the web pages: home, lobby, game pages and their forms, accounts, language."""

from django.urls import include, path

from web.views import account, game, invitations, lobby, maps, rematch

urlpatterns = [
    path("", lobby.home, name="home"),
    path("games/", lobby.lobby, name="lobby"),
    path("games/new/", lobby.create_game, name="game-create"),
    path("games/<int:game_id>/", game.game_page, name="game"),
    path("games/<int:game_id>/join/", lobby.join_game, name="game-join"),
    path("games/<int:game_id>/start/", lobby.start_game, name="game-start"),
    path("games/<int:game_id>/seats/", lobby.arrange_seats, name="game-seats"),
    path("games/<int:game_id>/leave/", lobby.leave_game, name="game-leave"),
    path("games/<int:game_id>/cancel/", lobby.cancel_game, name="game-cancel"),
    path("games/<int:game_id>/bots/", lobby.add_bot, name="game-bot"),
    path("games/against-the-computer/", lobby.play_the_computer, name="play-computer"),
    path("games/<int:game_id>/play/", game.game_play, name="game-play"),
    path("games/<int:game_id>/neutral-question/", account.neutral_question,
         name="neutral-question"),
    path("games/<int:game_id>/live/", game.game_live, name="game-live"),
    path("games/<int:game_id>/rematch/", rematch.offer_or_accept, name="game-rematch"),
    path("games/<int:game_id>/rematch/decline/", rematch.decline, name="game-rematch-decline"),
    path("games/<int:game_id>/board/", game.game_board_list, name="game-board-list"),
    path("maps/", maps.map_index, name="maps"),
    path("maps/<str:map_id>/", maps.map_page, name="map"),
    path("maps/<str:map_id>/thumbnail.svg", maps.map_thumbnail, name="map-thumbnail"),
    path("games/invite/<str:token>/", invitations.invite_link, name="invite-link"),
    path("games/<int:game_id>/invite/", invitations.invite, name="game-invite"),
    path("games/<int:game_id>/withdraw/", invitations.withdraw, name="game-withdraw"),
    path("games/<int:game_id>/decline/", invitations.decline, name="game-decline"),
    path("games/<int:game_id>/invite-link/", invitations.renew_link, name="game-invite-link"),
    path("players/<str:username>/challenge/", invitations.challenge, name="challenge"),
    path("accounts/signup/", account.signup, name="signup"),
    path("accounts/profile/", account.profile, name="profile"),
    path("accounts/vacations/", account.declare_vacation, name="vacation-declare"),
    path("accounts/vacations/<int:vacation_id>/cancel/", account.cancel_vacation,
         name="vacation-cancel"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/setlang/", account.set_language, name="set_language"),
]
