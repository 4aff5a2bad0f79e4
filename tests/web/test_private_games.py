"""Private games on the pages: created from the lobby, listed nowhere, a 404 to whoever
is not invited; the invitation link, inviting by name, withdrawing, declining."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils.translation import trans_real

from games import visibility
from games.models import Game, Invitation, Seat
from lobby import invitations, open_games
from notifications.models import Notification
from tests.games_in_states import open_game
from tests.people import client_for, with_password
from tests.web.support import started_game
from tests.web.test_czech_polish import (
    LANGUAGE_NAMES,
    untranslated,  # noqa: F401 - the fixture, asked for by name below
)


def private(creator, players=3) -> Game:
    return open_game(creator, players, "Secret table", private=True)


def test_it_creates_a_private_game_from_the_lobby_and_shows_its_link(as_alice, alice):
    answer = as_alice.post("/games/new/", {
        "name": "Friends only", "players": "3", "preset": "classic",
        "deadline_seconds": "86400", "rated": "auto", "private": "on"}, follow=True)
    assert answer.status_code == 200, answer.content.decode()[:3000]
    game = Game.objects.get(name="Friends only")
    assert game.private and game.invite_token
    page = answer.content.decode()
    assert f"/games/invite/{visibility.link_token(game)}/" in page
    assert "Invite a player by name" in page


def test_it_lists_a_private_game_nowhere_and_hides_it_from_strangers(alice, bob, as_bob):
    game = private(alice)
    public = open_game(alice, 3, "Everyone welcome")
    running = started_game([alice, with_password("dora")])
    Game.objects.filter(pk=running.pk).update(private=True, name="Hidden running game")
    lobby_page = as_bob.get("/games/").content.decode()
    assert "Everyone welcome" in lobby_page
    assert "Secret table" not in lobby_page and "Hidden running game" not in lobby_page
    for client in (as_bob, Client()):
        for url in (f"/games/{game.pk}/", f"/games/{game.pk}/live/", f"/games/{game.pk}/chat/",
                    f"/games/{running.pk}/", f"/reports/new/?game={game.pk}"):
            answer = client.get(url)
            assert answer.status_code in (404, 302), (url, answer.status_code)
            if answer.status_code == 302:  # anonymous: sign in first, then the same 404
                assert "/login/" in answer["Location"]
    joined = as_bob.post(f"/games/{game.pk}/join/")
    assert joined.status_code == 404
    assert not Seat.objects.filter(game=game, user=bob).exists()
    assert client_for(alice).get(f"/games/{public.pk}/").status_code == 200


def test_the_invitation_link_opens_the_game_and_lets_its_holder_join(alice, bob, as_bob):
    game = private(alice)
    link = f"/games/invite/{visibility.link_token(game)}/"
    opened = as_bob.get(link, follow=True)
    assert opened.redirect_chain[-1][0] == f"/games/{game.pk}/"
    page = opened.content.decode()
    assert "alice invites you to this game." in page and "Join this game" in page
    assert visibility.link_token(game) not in page  # the link is the creator's to show
    joined = as_bob.post(f"/games/{game.pk}/join/", follow=True)
    assert "You joined the game." in joined.content.decode()
    assert Seat.objects.filter(game=game, user=bob).exists()


def test_a_visitor_signs_in_after_following_the_link_and_joins(alice, bob):
    game = private(alice)
    visitor = Client()
    assert visitor.get(f"/games/invite/{visibility.link_token(game)}/").status_code == 302
    assert visitor.get(f"/games/{game.pk}/").status_code == 200
    visitor.force_login(bob)
    assert visitor.post(f"/games/{game.pk}/join/").status_code == 302
    assert Seat.objects.filter(game=game, user=bob).exists()


def test_a_bad_or_renewed_link_says_so_and_opens_nothing(alice, as_alice, as_bob):
    game = private(alice)
    old = visibility.link_token(game)
    as_alice.post(f"/games/{game.pk}/invite-link/")
    game.refresh_from_db()
    assert visibility.link_token(game) != old
    for token in (old, "nonsense", f"{game.pk}-"):
        answer = as_bob.get(f"/games/invite/{token}/")
        assert answer.status_code == 404
        assert "Invitation link not valid" in answer.content.decode()
        assert as_bob.get(f"/games/{game.pk}/").status_code == 404


def test_the_creator_invites_by_name_and_withdraws(alice, bob, as_alice, as_bob):
    game = private(alice)
    answer = as_alice.post(f"/games/{game.pk}/invite/", {"username": "bob"}, follow=True)
    page = answer.content.decode()
    assert "bob is invited" in page and "invited, no answer yet" in page
    assert Notification.objects.filter(user=bob, kind=Notification.INVITATION).exists()
    lobby_page = as_bob.get("/games/").content.decode()
    assert "Invitations for you" in lobby_page and "Secret table" in lobby_page
    assert as_bob.get(f"/games/{game.pk}/").status_code == 200
    inbox = as_bob.get("/notifications/").content.decode()
    assert "alice invites you to Secret table" in inbox
    withdrawn = as_alice.post(f"/games/{game.pk}/withdraw/", {"username": "bob"}, follow=True)
    assert "The invitation of bob is withdrawn." in withdrawn.content.decode()
    assert as_bob.get(f"/games/{game.pk}/").status_code == 404
    assert "Invitations for you" not in as_bob.get("/games/").content.decode()


def test_the_page_explains_a_refused_invitation_and_changes_nothing(alice, charlie, as_alice):
    game = private(alice, players=2)
    for name, words in (("alice", "You cannot invite or challenge yourself."),
                        ("ghost", "There is no player named ghost."),
                        ("", "Type the name of a player.")):
        answer = as_alice.post(f"/games/{game.pk}/invite/", {"username": name}, follow=True)
        assert words in answer.content.decode(), name
    open_games.join_game(game, with_password("bob"), token=visibility.link_token(game))  # full: started
    answer = as_alice.post(f"/games/{game.pk}/invite/", {"username": "charlie"}, follow=True)
    assert "invitations are closed" in answer.content.decode()
    assert not Invitation.objects.exists()


def test_the_invitee_declines_from_the_lobby(alice, bob, as_bob):
    game = private(alice)
    invitations.invite(game, alice, "bob")
    answer = as_bob.post(f"/games/{game.pk}/decline/", follow=True)
    assert "You declined the invitation." in answer.content.decode()
    assert Invitation.objects.get(game=game, user=bob).status == Invitation.DECLINED
    assert as_bob.get(f"/games/{game.pk}/").status_code == 404
    again = as_bob.post(f"/games/{game.pk}/decline/")
    assert again.status_code == 404


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_every_new_page_part_speaks_czech_and_polish(alice, bob, request, language):
    missing = request.getfixturevalue("untranslated")
    game = private(alice)
    invitations.invite(game, alice, "bob")
    with_password("carol")
    invitations.invite(game, alice, "carol")
    invitations.withdraw(game, alice, "carol")
    pages = {}
    for who, paths in ((alice, [f"/games/{game.pk}/", "/players/bob/?games=won",
                                "/games/?seats=9"]),
                       (bob, ["/games/", f"/games/{game.pk}/", "/notifications/",
                              "/games/invite/nonsense/"])):
        client = client_for(who)
        client.post("/i18n/setlang/", {"language": language, "next": "/"})
        for path in paths:
            pages[(who.username, path)] = client.get(path).content.decode()
    words = {"cs": "Pozvat přítele", "pl": "Zaproś znajomego"}[language]
    assert words in pages[("alice", f"/games/{game.pk}/")]
    # (Django looks up the language switcher's names, some already translated, in every
    # catalogue: as tests/web/test_czech_polish.py leaves them out.)
    already = {str(v) for _, v in trans_real.translation(language)._catalog.items()}
    assert sorted(missing - LANGUAGE_NAMES - already) == []
