"""A game's seats as a value (games.store.seats.Seats): read with the row by the store
(games.store.row), carried by a commit (Committed.seats), never kept on the Game; a change of
seats is seen by the next read with nothing to forget."""

from __future__ import annotations

import pytest

from accounts.models import BotAccount
from games import service
from games.store.row import load_game
from games.store.seats import Seated, Seats, read_seats, seats_of_games
from games.store.states import load_state
from lobby import open_games
from tests.games_in_states import open_game, started_game
from tests.people import players, user

# What the Game instances once carried as a hidden cache.
HIDDEN = {"_seat_rows", "_seat_flags", "_bot_owners"}


@pytest.fixture
def three(db):
    return players(3, email="")


def test_a_command_leaves_no_seat_data_on_the_game_and_carries_its_seats(three):
    game = started_game(three, placement_batch=100)
    loaded = load_game(game.pk)
    mover = three[0]

    done = service.submit(service.player(mover), loaded, {"type": "resign"})

    assert not HIDDEN & set(vars(done.game)) and done.game is loaded.game
    assert done.seats == loaded.seats == read_seats(game)
    assert done.seat == loaded.seats.seat_of(mover)
    # A bare row is read with its seats by the front door, and left as bare.
    bare = load_game(game.pk).game
    again = service.submit(service.player(three[1]), bare, {"type": "resign"})
    assert not HIDDEN & set(vars(bare)) and again.seats == loaded.seats


def test_a_seat_change_in_the_lobby_is_seen_by_the_next_read(three):
    alice, bob, dave = three
    game = open_game(alice, players=3)
    before = load_game(game.pk)
    assert before.seats.usernames() == {0: "alice"}

    open_games.join_game(before.game, bob)
    assert read_seats(game).usernames() == {0: "alice", 1: "bob"}
    assert load_game(game.pk).seats.seat_of(bob) == 1
    assert before.seats.usernames() == {0: "alice"}  # a value: what was read stays read

    open_games.leave_game(game, bob)
    assert read_seats(game).usernames() == {0: "alice"}
    open_games.join_game(game, dave)
    open_games.add_bot(game, alice, "easy")  # the last seat: the game starts
    after = load_game(game.pk)
    assert after.game.status == after.game.ACTIVE
    assert after.seats.usernames()[1] == "dave" and after.seats.bot_levels() == {2: "easy"}
    assert not HIDDEN & set(vars(game)) and not HIDDEN & set(vars(after.game))


def test_the_seats_answer_what_is_known_of_them(three, django_assert_num_queries):
    alice, bob, _ = three
    game = started_game([alice, bob], bots=["hard"], placement_batch=100)
    seats = read_seats(game)
    with django_assert_num_queries(0):
        # The computer player sits after the creator, who seats it; bob joins after.
        assert seats.rows == (Seated(0, alice.pk, "alice", None),
                              Seated(1, seats.user_at(1), seats.usernames()[1], "hard"),
                              Seated(2, bob.pk, "bob", None))
        assert [seats.seat_of(alice), seats.seat_of(bob), seats.seat_of(None)] == [0, 2, None]
        assert seats.seat_of_user(-1) is None and seats.user_at(7) is None
        assert seats.bot_levels() == {1: "hard"}
        assert seats.rated(game) is False  # a computer player is seated
        assert seats.flagged("digest") == frozenset() and seats.flagged("nothing") is None
        assert seats.bot_owners == {}  # the flag says no seat is a bot account's
    # A dropped seat a bot took over counts with the state that says so.
    state = load_state(game)
    state.players[2].bot = "normal"
    assert seats.bot_levels(state) == {1: "hard", 2: "normal"}
    many = seats_of_games([game, game.pk + 1000])
    assert many[game.pk] == seats and not many[game.pk + 1000].rows  # no such game: no one


def test_a_bot_accounts_owner_is_read_once_per_value(three, django_assert_num_queries):
    alice, bob, _ = three
    robo = user("robo", email="")
    BotAccount.objects.create(user=robo, owner=alice)
    game = started_game([bob, robo], placement_batch=100, bots_allowed=True)
    seats = read_seats(game)
    assert seats.flagged("bot_account") == {robo.pk}
    with django_assert_num_queries(1):
        assert seats.bot_owners == {1: "alice"}
        assert seats.bot_owners == {1: "alice"}
    # Seats read without their flags ask once too.
    bare = Seats.of(seats.rows)
    with django_assert_num_queries(1):
        assert bare.bot_owners == bare.bot_owners == {1: "alice"}
