"""URLs of the web pages: home, lobby, game pages and their forms, accounts, language."""

from django.urls import include, path

from web import views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/", views.lobby, name="lobby"),
    path("games/new/", views.create_game, name="game-create"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("games/<int:game_id>/join/", views.join_game, name="game-join"),
    path("games/<int:game_id>/start/", views.start_game, name="game-start"),
    path("games/<int:game_id>/leave/", views.leave_game, name="game-leave"),
    path("games/<int:game_id>/cancel/", views.cancel_game, name="game-cancel"),
    path("games/<int:game_id>/bots/", views.add_bot, name="game-bot"),
    path("games/against-the-computer/", views.play_the_computer, name="play-computer"),
    path("games/<int:game_id>/play/", views.game_play, name="game-play"),
    path("games/<int:game_id>/live/", views.game_live, name="game-live"),
    path("accounts/signup/", views.signup, name="signup"),
    path("accounts/profile/", views.profile, name="profile"),
    path("accounts/vacations/", views.declare_vacation, name="vacation-declare"),
    path("accounts/vacations/<int:vacation_id>/cancel/", views.cancel_vacation,
         name="vacation-cancel"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/setlang/", views.set_language, name="set_language"),
]
