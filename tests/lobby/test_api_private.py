"""Private games and invitations through the API: create with `private`, invite by name,
withdraw, decline, join by invitation or with the link's token; nobody else learns of it."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission

from games import visibility
from games.models import Game, Invitation
from notifications.models import Notification
from tests import people
from tests.games.api_support import API, assert_error, compact, game_url, unchanged


def private_game(client, players=3, **extra) -> dict:
    answer = client.post(f"{API}/games/", {"name": "Just us", "players": players,
                                           "private": True, **extra}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def test_it_creates_a_private_game_whose_token_only_its_creator_sees(alice, bob):
    view = private_game(alice)
    assert view["private"] is True
    token = view["invitation_token"]
    assert token.startswith(f"{view['id']}-") and len(token) > 30
    assert alice.get(game_url(view["id"])).json()["invitation_token"] == token
    public = alice.post(f"{API}/games/", {"name": "Open", "players": 3}, format="json").json()
    assert public["private"] is False and "invitation_token" not in public


def test_it_hides_a_private_game_from_everyone_not_invited(alice, bob, anonymous):
    game_id = private_game(alice)["id"]
    for client in (bob, anonymous):
        for tail in ("", "events/", "record/", "chat/"):
            assert_error(client.get(game_url(game_id, tail)), 404, "not_found")
        listed = client.get(f"{API}/games/?status=open").json()
        assert game_id not in [g["id"] for g in listed]
    with unchanged(game_id):
        assert_error(bob.post(game_url(game_id, "join/")), 404, "not_found")
    # A game that does not exist answers the same
    missing = bob.get(game_url(game_id + 1000)).json()
    assert bob.get(game_url(game_id)).json() == missing
    assert_error(bob.post(f"{API}/reports/", {"game": game_id, "reason": "x"},
                          format="json"), 404, "not_found")


def test_it_lists_a_private_game_to_its_own_players(alice, bob):
    game_id = private_game(alice)["id"]
    mine = alice.get(f"{API}/games/?mine=1").json()
    assert [g["private"] for g in mine if g["id"] == game_id] == [True]
    assert game_id not in [g["id"] for g in alice.get(f"{API}/games/?status=open").json()]


def test_it_invites_by_name_and_the_invitee_sees_joins_and_is_notified(alice, bob, charlie):
    game_id = private_game(alice)["id"]
    answer = alice.post(game_url(game_id, "invite/"), {"username": "BOB"}, format="json")
    assert answer.status_code == 201, answer.content
    invitation = answer.json()
    assert (invitation["username"], invitation["invited_by"], invitation["status"]) == (
        "bob", "alice", "pending")
    notice = Notification.objects.get(user_id=bob.user_id, kind=Notification.INVITATION)
    assert notice.game_id == game_id and notice.payload["by"] == "alice"
    inbox = bob.get(f"{API}/notifications/").json()
    assert any(entry["kind"] == "invitation" and "alice" in entry["text"]
               for entry in inbox["results"])
    assert [i["game"] for i in bob.get(f"{API}/invitations/").json()] == [game_id]
    view = bob.get(game_url(game_id)).json()
    assert "invitation_token" not in view and view["private"] is True
    assert_error(charlie.get(game_url(game_id)), 404)
    joined = bob.post(game_url(game_id, "join/"))
    assert joined.status_code == 200, joined.content
    assert Invitation.objects.get(game_id=game_id, user_id=bob.user_id).status == "accepted"
    for seated in (alice, bob):  # told what anyone seated is told
        assert_error(seated.post(game_url(game_id, "join/")), 400, "already_seated")
    assert bob.get(f"{API}/invitations/").json() == []
    assert game_id in [g["id"] for g in bob.get(f"{API}/games/?mine=1").json()]


def test_it_joins_with_the_links_token_and_refuses_a_bad_one(alice, bob, charlie):
    view = private_game(alice)
    game_id, token = view["id"], view["invitation_token"]
    found = bob.get(f"{API}/invitations/{token}/")
    assert found.status_code == 200 and found.json()["id"] == game_id
    for bad in (token[:-1] + ("A" if token[-1] != "A" else "B"), "nonsense", f"{game_id}-x"):
        assert_error(bob.get(f"{API}/invitations/{bad}/"), 404, "not_found")
        with unchanged(game_id):
            assert_error(bob.post(game_url(game_id, "join/"), {"token": bad}, format="json"),
                         404, "not_found")
    with unchanged(game_id):
        assert_error(bob.post(game_url(game_id, "join/"), {"token": 5}, format="json"), 400)
    answer = bob.post(game_url(game_id, "join/"), {"token": token}, format="json")
    assert answer.status_code == 200, answer.content
    assert [p["username"] for p in answer.json()["players"]] == ["alice", "bob"]
    # A renewed link: the old token opens nothing any more
    renewed = alice.post(game_url(game_id, "invite-link/")).json()["invitation_token"]
    assert renewed != token
    assert_error(charlie.post(game_url(game_id, "join/"), {"token": token}, format="json"), 404)
    assert charlie.post(game_url(game_id, "join/"), {"token": renewed},
                        format="json").status_code == 200


def test_it_refuses_bad_invitations_and_changes_nothing(alice, bob, charlie):
    game_id = private_game(alice, players=2)["id"]

    def refused(client, body, status, code):
        before = list(Invitation.objects.values_list("game_id", "user_id", "status"))
        assert_error(client.post(game_url(game_id, "invite/"), body, format="json"), status,
                     code)
        assert list(Invitation.objects.values_list("game_id", "user_id", "status")) == before

    refused(alice, {"username": "alice"}, 400, "cannot_invite_yourself")
    refused(alice, {"username": "nobody-here"}, 400, "unknown_player")
    refused(alice, {}, 400, "bad_request")
    refused(bob, {"username": "charlie"}, 404, "not_found")  # bob may not know of it
    assert alice.post(game_url(game_id, "invite/"), {"username": "bob"},
                      format="json").status_code == 201
    refused(alice, {"username": "bob"}, 400, "already_invited")
    refused(bob, {"username": "charlie"}, 403, "not_creator")
    assert bob.post(game_url(game_id, "join/")).status_code == 200  # full: it starts
    refused(alice, {"username": "charlie"}, 400, "game_not_open")
    assert Game.objects.get(pk=game_id).status == Game.ACTIVE


def test_it_refuses_to_invite_to_a_full_open_game(alice, bob, charlie):
    game = private_game(alice, players=2)
    game_id = game["id"]
    Game.objects.filter(pk=game_id).update(players=1)  # every seat taken, not started
    assert_error(alice.post(game_url(game_id, "invite/"), {"username": "bob"}, format="json"),
                 400, "game_full")
    assert not Invitation.objects.exists()


def test_it_withdraws_and_declines_invitations(alice, bob, charlie):
    game_id = private_game(alice)["id"]
    for name in ("bob", "charlie"):
        alice.post(game_url(game_id, "invite/"), {"username": name}, format="json")
    withdrawn = alice.post(game_url(game_id, "withdraw/"), {"username": "bob"}, format="json")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    assert_error(bob.get(game_url(game_id)), 404)
    assert_error(bob.post(game_url(game_id, "join/")), 404)
    assert Notification.objects.get(user_id=bob.user_id,
                                    kind=Notification.INVITATION).read_at is not None
    assert_error(alice.post(game_url(game_id, "withdraw/"), {"username": "bob"},
                            format="json"), 400, "not_invited")
    declined = charlie.post(game_url(game_id, "decline/"))
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert_error(charlie.post(game_url(game_id, "join/")), 404)
    assert_error(alice.post(game_url(game_id, "invite/"), {"username": "charlie"},
                            format="json"), 400, "invitation_declined")
    # Invited again after a withdrawal: a new notification
    assert alice.post(game_url(game_id, "invite/"), {"username": "bob"},
                      format="json").status_code == 201
    assert Notification.objects.filter(user_id=bob.user_id,
                                       kind=Notification.INVITATION).count() == 2
    listing = alice.get(game_url(game_id, "invite/")).json()
    assert {(i["username"], i["status"]) for i in listing} == {
        ("bob", "pending"), ("charlie", "declined")}


def test_the_token_never_reaches_anyone_but_the_creator(alice, bob):
    view = private_game(alice)
    game_id, token = view["id"], view["invitation_token"]
    alice.post(game_url(game_id, "invite/"), {"username": "bob"}, format="json")
    bob.post(game_url(game_id, "join/"))
    secret = token.split("-", 1)[1]
    for url in (game_url(game_id), f"{API}/games/?mine=1", game_url(game_id, "invite/"),
                f"{API}/notifications/", f"{API}/players/alice/"):
        assert secret not in compact(bob.get(url).json()), url


def test_a_name_with_a_control_character_is_refused_not_looked_up(alice, bob):
    """PostgreSQL refuses a NUL in a query (a 500): such a name is no player's, refused
    before any lookup, by invitation, withdrawal and challenge alike."""
    game_id = private_game(alice)["id"]
    for name in ("bob\x00", "b\x00ob", "bob\x07"):
        for tail in ("invite/", "withdraw/"):
            assert_error(alice.post(game_url(game_id, tail), {"username": name},
                                    format="json"), 400, "bad_request")
    assert not Invitation.objects.exists()


def test_seeing_answers_for_many_callers_as_may_see_does_for_each(alice, bob, charlie,
                                                                  django_assert_max_num_queries):
    hushed = private_game(alice)["id"]
    seated = private_game(alice)["id"]
    public = alice.post(f"{API}/games/", {"name": "Open", "players": 3}, format="json").json()
    alice.post(game_url(hushed, "invite/"), {"username": "bob"}, format="json")
    alice.post(game_url(hushed, "invite/"), {"username": "charlie"}, format="json")
    alice.post(game_url(hushed, "withdraw/"), {"username": "charlie"}, format="json")
    alice.post(game_url(seated, "invite/"), {"username": "charlie"}, format="json")
    assert charlie.post(game_url(seated, "join/")).status_code == 200
    users = get_user_model().objects.in_bulk([c.user_id for c in (alice, bob, charlie)])
    moderator = people.user("dana")
    moderator.user_permissions.add(Permission.objects.get(codename="moderate_game"))
    users[moderator.pk] = get_user_model().objects.get(pk=moderator.pk)
    pairs = {(g, u) for g in (hushed, seated, public["id"], public["id"] + 1000) for u in users}

    with django_assert_max_num_queries(4):
        found = visibility.seeing(pairs)

    games = Game.objects.in_bulk([hushed, seated, public["id"]])
    assert found == {(g, u) for g, u in pairs
                     if g in games and visibility.may_see(games[g], users[u])}
    assert (hushed, bob.user_id) in found and (hushed, charlie.user_id) not in found
    assert (seated, bob.user_id) not in found and (seated, charlie.user_id) in found
    assert (hushed, moderator.pk) in found
