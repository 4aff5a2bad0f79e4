"""POST /api/v1/games/{id}/rematch/ (offer or accept), …/rematch/decline/ and GET …/rematch/
(issue 28, item 10): same players in the same seats and the same rules with a new seed,
each human accepts once, computer players' seats filled by themselves, one "no" ends it."""

from __future__ import annotations

from games.models import Game, Rematch
from notifications.models import Notification
from tests.games.api_support import assert_error, game_url
from tests.games_in_states import new_game


def finished(*clients, **rules) -> int:
    """A game of `clients` that the last one wins: the others resign in turn."""
    game_id = new_game(*clients, **rules)
    for client in clients[:-1]:
        answer = client.post(game_url(game_id, "commands/"), {"type": "resign"}, format="json")
        assert answer.status_code == 201, answer.content
    assert Game.objects.get(pk=game_id).status == Game.FINISHED
    return game_id


def test_it_starts_the_rematch_when_every_player_has_accepted(alice, bob, charlie):
    game_id = finished(alice, bob, charlie, fog=True, deadline_seconds=3600)
    old = Game.objects.get(pk=game_id)

    offered = alice.post(game_url(game_id, "rematch/"), {"entropy": "alice again"},
                         format="json")

    assert offered.status_code == 201, offered.content
    body = offered.json()
    assert body["status"] == "open" and body["offered_by"] == "alice" and body["game"] is None
    assert body["waiting_for"] == ["bob", "charlie"] and body["you"] == {"accepted": True}
    told = Notification.objects.filter(kind=Notification.REMATCH, game_id=game_id)
    assert sorted(told.values_list("user__username", flat=True)) == ["bob", "charlie"]
    assert all(row.payload == {"what": "offered", "by": "alice"} for row in told)
    listed = bob.get("/api/v1/notifications/").json()["results"]
    assert listed[0]["text"] == "alice offers a rematch of Test game"

    assert bob.post(game_url(game_id, "rematch/")).status_code == 200
    assert bob.post(game_url(game_id, "rematch/")).json()["waiting_for"] == ["charlie"]
    assert Game.objects.count() == 1
    done = charlie.post(game_url(game_id, "rematch/")).json()

    assert done["status"] == "started" and done["waiting_for"] == []
    new = Game.objects.get(pk=done["game"])
    assert new.status == Game.ACTIVE and new.name == "Test game #2"
    assert new.rules == old.rules and new.deadline_seconds == 3600 and new.rules["fog"]
    assert new.seed != old.seed and new.seed_hash != old.seed_hash
    assert [(s.seat, s.user.username) for s in new.seats.order_by("seat")] == [
        (s.seat, s.user.username) for s in old.seats.order_by("seat")]
    assert new.contributions == ["alice again"]  # the entropy sent with the offer
    view = alice.get(game_url(game_id, "rematch/")).json()
    assert view["game"] == new.pk and view["status"] == "started"


def test_computer_players_take_their_seats_again_by_themselves(alice):
    answer = alice.post("/api/v1/games/", {"name": "Versus", "players": 2,
                                           "bots": ["hard"]}, format="json")
    game_id = answer.json()["id"]
    assert alice.post(game_url(game_id, "commands/"), {"type": "resign"},
                      format="json").status_code == 201
    assert Game.objects.get(pk=game_id).status == Game.FINISHED

    done = alice.post(game_url(game_id, "rematch/")).json()  # the only person: at once

    assert done["status"] == "started"
    new = Game.objects.get(pk=done["game"])
    assert new.status == Game.ACTIVE
    assert list(new.seats.order_by("seat").values_list("bot", flat=True)) == [None, "hard"]
    assert new.seats.get(seat=1).user.username.startswith("bot-hard-")


def test_one_player_declining_calls_it_off(alice, bob, charlie):
    game_id = finished(alice, bob, charlie)
    alice.post(game_url(game_id, "rematch/"))

    declined = bob.post(game_url(game_id, "rematch/decline/"))

    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert declined.json()["declined_by"] == "bob"
    assert_error(charlie.post(game_url(game_id, "rematch/")), 400, "rematch_declined")
    assert_error(charlie.post(game_url(game_id, "rematch/decline/")), 400, "rematch_declined")
    told = Notification.objects.filter(kind=Notification.REMATCH, payload__what="declined")
    assert sorted(told.values_list("user__username", flat=True)) == ["alice", "charlie"]
    assert Game.objects.count() == 1


def test_it_refuses_what_is_not_a_players_to_answer(alice, bob, charlie, anonymous):
    running = new_game(alice, bob)
    assert_error(alice.post(game_url(running, "rematch/")), 400, "game_not_finished")
    game_id = finished(alice, bob)
    assert_error(charlie.post(game_url(game_id, "rematch/")), 403, "not_seated")
    assert_error(anonymous.post(game_url(game_id, "rematch/")), 401)
    assert_error(alice.post(game_url(game_id, "rematch/decline/")), 400, "no_rematch")
    assert_error(alice.get(game_url(game_id, "rematch/")), 404, "no_rematch")
    assert_error(alice.post(game_url(game_id, "rematch/"), {"entropy": "é"}, format="json"),
                 400, "bad_entropy")
    assert_error(alice.post(game_url(9999, "rematch/")), 404)
    assert not Rematch.objects.exists()

    alice.post(game_url(game_id, "rematch/"))
    bob.post(game_url(game_id, "rematch/"))
    assert_error(bob.post(game_url(game_id, "rematch/decline/")), 400, "rematch_started")
    assert Game.objects.count() == 3


def test_a_rematch_offer_reaches_no_player_who_blocks_its_maker(alice, bob, charlie):
    game_id = finished(alice, bob, charlie)
    assert bob.post("/api/v1/messages/alice/block/").status_code in (200, 201, 204)

    offered = alice.post(game_url(game_id, "rematch/"))

    assert offered.status_code == 201
    assert offered.json()["waiting_for"] == ["bob", "charlie"]  # as if bob had not answered
    told = Notification.objects.filter(kind=Notification.REMATCH, game_id=game_id)
    assert list(told.values_list("user__username", flat=True)) == ["charlie"]
    # bob's own word still reaches alice: the block is his, not hers
    bob.post(game_url(game_id, "rematch/decline/"))
    assert Notification.objects.filter(kind=Notification.REMATCH, user__username="alice",
                                       payload__what="declined").exists()
