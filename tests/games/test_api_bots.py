"""Computer players through the API (docs/players/computer-players.md): seating them, their
moves by the service's runner, a dropped seat played on, and no mail to a bot."""

from __future__ import annotations

import random

import pytest
from django.core import mail

from engine.moves import seats_to_act
from games import computer
from games.models import Event, Game, Seat
from games.store.states import load_state
from notifications.models import Notification
from tests.games.api_support import API, assert_error, assert_game_view, game_url, send, unchanged
from tests.games.api_support import play as play_humans

pytestmark = pytest.mark.django_db


def create(client, players=3, bots=("normal", "normal"), **extra):
    return client.post(f"{API}/games/", {"name": "Against the machine", "players": players,
                                         "bots": list(bots), **extra}, format="json")


def test_it_starts_a_game_of_one_player_and_bots_at_once(alice):
    answer = create(alice, rules={"placement_batch": 100})

    assert answer.status_code == 201, answer.content
    view = assert_game_view(answer.json(), seat=0)
    assert view["status"] == "active"
    assert [p["bot"] for p in view["players"]] == [None, "normal", "normal"]
    assert view["players"][1]["username"].startswith("bot-normal-")
    assert len({p["username"] for p in view["players"]}) == 3


@pytest.mark.parametrize("bots, detail", [
    (["normal", "normal", "normal"], "at most players - 1"),
    (["genius"], "bots must be a list of levels"),
    ("hard", "bots must be a list of levels"),
])
def test_it_refuses_bots_that_do_not_fit(alice, bots, detail):
    before = Game.objects.count()
    answer = create(alice, bots=bots) if isinstance(bots, list) else alice.post(
        f"{API}/games/", {"name": "x", "players": 3, "bots": bots}, format="json")

    assert detail in assert_error(answer, 400)["detail"]
    assert Game.objects.count() == before


def test_the_creator_adds_a_bot_to_an_open_game_and_it_starts_when_full(alice, bob):
    game_id = alice.post(f"{API}/games/", {"name": "Open", "players": 3},
                         format="json").json()["id"]
    assert bob.post(game_url(game_id, "join/")).status_code == 200

    assert_error(bob.post(game_url(game_id, "bots/"), {"level": "easy"}, format="json"), 403,
                 "not_creator")
    assert_error(alice.post(game_url(game_id, "bots/"), {"level": "nope"}, format="json"), 400)
    answer = alice.post(game_url(game_id, "bots/"), {"level": "hard"}, format="json")

    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == "active"
    assert answer.json()["players"][2]["bot"] == "hard"
    assert_error(alice.post(game_url(game_id, "bots/"), {"level": "easy"}, format="json"), 400,
                 "game_not_open")


def test_a_bot_account_can_neither_sign_in_nor_be_signed_up_for(alice):
    from rest_framework.test import APIClient
    client = APIClient()
    create(alice)
    bot = Seat.objects.filter(bot="normal").first().user
    assert not bot.is_active and not bot.has_usable_password()

    answer = client.post(f"{API}/accounts/", {"username": "Bot-normal-9", "email": "b@x.org",
                                              "password": "a-long-secret-1"}, format="json")
    assert_error(answer, 400, "username_taken")


def test_the_runner_plays_every_bot_move_and_never_a_humans(alice):
    game_id = create(alice, rules={"placement_batch": 100}).json()["id"]
    game = Game.objects.get(pk=game_id)

    rnd = random.Random(5)
    for _ in range(3):  # through the human's turns, to the bots' and back
        if seats_to_act(load_state(game)) == [0]:
            assert computer.play(game_id) == 0  # the human's turn: nothing to play
            play_humans(game_id, {0: alice}, rnd, until=lambda s: 0 not in seats_to_act(s))
        while seats_to_act(load_state(game)) != [0]:
            assert computer.play(game_id) > 0

    assert seats_to_act(load_state(game)) == [0]
    assert set(Event.objects.filter(game=game, actor__in=[1, 2]).values_list(
        "actor", flat=True)) == {1, 2}


@pytest.mark.slow  # a whole game: CI plays it on the PostgreSQL pass only
def test_a_human_and_two_bots_play_to_the_end(alice):
    game_id = create(alice, rules={"placement_batch": 100}).json()["id"]
    game = Game.objects.get(pk=game_id)
    rnd = random.Random(3)
    for _ in range(400):
        computer.play(game_id)
        game.refresh_from_db()
        if game.status != Game.ACTIVE:
            break
        play_humans(game_id, {0: alice}, rnd, until=lambda s: 0 not in seats_to_act(s),
                    moves=200)
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    # Bots got no mail: every notification of the game went to alice.
    users = set(Notification.objects.filter(game=game).values_list("user_id", flat=True))
    assert users == {alice.user_id}
    assert all(m.to == ["alice@example.com"] for m in mail.outbox)


def test_a_player_dropped_for_missed_turns_is_played_on_by_a_bot(alice, bob):
    game_id = alice.post(f"{API}/games/", {"name": "Absent", "players": 2, "rules": {
        "dropped_seat": "bot", "max_missed_turns": 1, "placement_batch": 100}},
        format="json").json()["id"]
    bob.post(game_url(game_id, "join/"))
    game = Game.objects.get(pk=game_id)
    from games import service
    state = load_state(game)
    seat = seats_to_act(state)[0]
    service.submit_timeout(game, state.version)

    state = load_state(game)
    assert state.players[seat].bot == "normal" and not state.players[seat].out
    view = alice.get(game_url(game_id)).json()
    assert view["players"][seat]["bot"] == "normal"
    assert Event.objects.filter(game=game, type="seat_to_bot").exists()
    absent = alice if seat == 0 else bob
    with unchanged(game_id):
        assert_error(send(absent, game_id, {"type": "resign"}), 403, "played_by_bot")
    present = {1 - seat: bob if seat == 0 else alice}
    play_humans(game_id, present, random.Random(1), until=lambda s: seat in seats_to_act(s))
    assert seat in seats_to_act(load_state(game))
    assert computer.play(game_id) > 0
    assert seat not in seats_to_act(load_state(game))


def test_a_moderator_hands_a_bot_seat_to_a_person_and_the_bot_stops(alice, bob):
    from games.moderation import moderate
    from tests.people import moderator

    game_id = create(alice, rules={"placement_batch": 100}).json()["id"]
    game = Game.objects.get(pk=game_id)
    maud = moderator("maud")
    bot_account = Seat.objects.get(game=game, seat=1).user
    with pytest.raises(Exception, match="no such user"):
        moderate(game, maud, "replace_player", "no", seat=2, replacement=bot_account.username)

    done = moderate(game, maud, "replace_player", "a person wants it", seat=1,
                    replacement="bob")

    # The commit's reactions saw the seat's new holder, and so does the next read.
    assert done.seats.bot_levels() == {2: "normal"}
    from games.store.seats import read_seats
    assert read_seats(game).bot_levels() == {2: "normal"}
    assert not hasattr(game, "_seat_rows")
    assert alice.get(game_url(game_id)).json()["players"][1]["bot"] is None
