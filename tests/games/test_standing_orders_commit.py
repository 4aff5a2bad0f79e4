"""A standing order runs inside the commit that leaves its decision to the player: the
mover's command and the order's events are appended together (one append, one version
check, one Committed for the reactions, one set of mail rows), each event stored with the
user it comes from; a race between them is impossible, and a race with the whole commit is
lost or retried as one; an order the engine refuses is logged and left to the player, and
the move before it stands."""

from __future__ import annotations

import random

import pytest

import engine as rules
from engine.board import NEUTRAL
from games import service
from games.models import Event, Game
from games.standing_orders import neutral_placement
from lib.reactions import rewired, wired
from notifications.models import Notification
from tests.games.api_support import assert_error, play, send
from tests.games_in_states import new_game

PREFERENCES = "/api/v1/preferences/"
DEFENSE_ONE = {"type": "set_defense", "policy": "one"}

_told: list = []


def remember(done):
    """An after-commit reaction of these tests': every Committed it is told of."""
    _told.append(done)


@pytest.fixture
def told():
    """The Committed values the after-commit reactions are told of, from now on."""
    declared = dict(wired("REACTIONS"))
    declared["after_commit"] = [*declared["after_commit"], remember]
    with rewired(REACTIONS=declared):
        _told.clear()
        yield _told
    _told.clear()


@pytest.fixture
def appends(monkeypatch):
    """Each call of the event store's append: (the version it expects, the seqs, the user
    ids), whether it succeeds or not."""
    real, calls = service.append, []

    def append(game, events, before, after, **kwargs):
        calls.append((before.version if before else 0, [e.seq for e in events], list(kwargs["user_ids"])))
        return real(game, events, before, after, **kwargs)

    monkeypatch.setattr(service, "append", append)
    return calls


@pytest.fixture
def race(monkeypatch):
    """race(client, command): the next append loses to `client`'s command, landed in the
    game just before it (between the engine's decisions and the write)."""
    real, armed = service.append, []

    def append(game, *args, **kwargs):
        if armed:
            client, command = armed.pop()
            assert send(client, game.pk, command).status_code == 201
        return real(game, *args, **kwargs)

    monkeypatch.setattr(service, "append", append)
    return lambda client, command: armed.append((client, command))


def _to_reinforcement(alice, bob, borders=True):
    """A two-player game with the neutral at a reinforce phase, the player not moving
    having chosen "borders" (or not); (game id, state, mover's client, placer's client)."""
    game_id = new_game(alice, bob, initial_placement="simultaneous")
    clients = {0: alice, 1: bob}
    state = play(game_id, clients, random.Random(7), until=lambda s: s.phase == "reinforce"
                 and not s.trade_owed(s.current))
    mover, placer = clients[state.current], clients[1 - state.current]
    if borders:
        assert placer.patch(PREFERENCES, {"neutral_placement": "borders"},
                            format="json").status_code == 200
    return game_id, state, mover, placer


def _place_all(client, game_id, state, **version):
    """The mover places all their reinforcement on their first territory."""
    own = state.territories_of(state.current)[0]
    return send(client, game_id, {"type": "place", "placements": {own: state.reinforcements},
                                  **version})


def _stored(game_id, after):
    return list(Event.objects.filter(game_id=game_id, seq__gt=after).order_by("seq"))


def test_the_move_and_the_placement_are_one_append_and_one_committed(alice, bob, told,
                                                                     appends):
    game_id, state, mover, placer = _to_reinforcement(alice, bob)
    deadline = Game.objects.get(pk=game_id).deadline
    appends.clear()
    told.clear()

    answer = _place_all(mover, game_id, state, expected_version=state.version)

    assert answer.status_code == 201, answer.content
    game = Game.objects.get(pk=game_id)
    assert game.phase == "attack" and game.current_seat == state.current
    stored = _stored(game_id, state.version)
    # One append, against the version the mover saw, of every event, versions consecutive.
    assert [(expected, seqs) for expected, seqs, _ in appends] == [
        (state.version, list(range(state.version + 1, game.version + 1)))]
    assert [e.seq for e in stored] == list(range(state.version + 1, game.version + 1))
    assert len({e.created_at for e in stored}) == 1  # one moment: one transaction
    # One Committed, from the state the mover saw to the state after the placement.
    [done] = told
    assert (done.before.version, done.after.version) == (state.version, game.version)
    assert done.actor == service.Actor(service.PLAYER, mover.user_id, state.current)
    assert [e.seq for e in done.events] == [e.seq for e in stored]
    assert answer.json()["version"] == game.version
    assert [e["seq"] for e in answer.json()["events"]] == [e.seq for e in stored]
    # Each event stored with its own user: the mover's, then the placer's placement.
    placed = [e for e in stored if e.type == "armies_placed"]
    assert [e.data["seat"] for e in placed] == [state.current, NEUTRAL]
    neutral = placed[1]
    assert neutral.data["by"] == 1 - state.current and neutral.actor == 1 - state.current
    assert neutral.user_id == placer.user_id
    assert all(e.user_id == mover.user_id for e in stored if e.seq < neutral.seq)
    assert [e.user_id for e in stored] == appends[0][2]
    # The mover's turn never closed: their clock runs on.
    assert game.deadline == deadline


def test_one_set_of_mail_rows_and_no_turn_mail_for_the_orders_decision(alice, bob, told):
    game_id, state, mover, placer = _to_reinforcement(alice, bob)
    known = set(Notification.objects.filter(game_id=game_id).values_list("pk", flat=True))
    told.clear()

    assert _place_all(mover, game_id, state).status_code == 201

    new = Notification.objects.filter(game_id=game_id).exclude(pk__in=known)
    assert not new.filter(kind=Notification.TURN).exists()  # neither the placer nor the mover
    assert {row.event_seq for row in new} <= {Game.objects.get(pk=game_id).version}
    assert len(told) == 1


def test_a_missed_turn_and_the_order_are_one_commit_with_one_set_of_mails(alice, bob, told):
    game_id, state, mover, placer = _to_reinforcement(alice, bob)
    known = set(Notification.objects.filter(game_id=game_id).values_list("pk", flat=True))
    told.clear()

    service.submit_timeout(Game.objects.get(pk=game_id), state.version)

    game = Game.objects.get(pk=game_id)
    assert game.phase == "reinforce" and game.current_seat == 1 - state.current
    [done] = told
    assert done.actor.kind == service.CLOCK and done.before.version == state.version
    assert done.after.version == game.version
    new = list(Notification.objects.filter(game_id=game_id).exclude(pk__in=known))
    # All caused by the one append: the missed deadline to both, the placer's own turn.
    assert {row.event_seq for row in new} == {game.version}
    assert sorted((row.kind, row.user_id) for row in new) == sorted([
        (Notification.TIMED_OUT, mover.user_id), (Notification.TIMED_OUT, placer.user_id),
        (Notification.TURN, placer.user_id)])
    # The clock's events with no user; the placement's (the turn's end it brings with it)
    # with the placer's.
    stored = _stored(game_id, state.version)
    neutral = next(e for e in stored if e.type == "armies_placed" and e.data["seat"] == NEUTRAL)
    assert {e.user_id for e in stored if e.seq < neutral.seq} == {None}
    assert {e.user_id for e in stored if e.seq >= neutral.seq} == {placer.user_id}


def test_a_race_with_the_commit_loses_the_move_and_the_order_together(alice, bob, race):
    game_id, state, mover, placer = _to_reinforcement(alice, bob)

    race(placer, DEFENSE_ONE)
    assert_error(_place_all(mover, game_id, state, expected_version=state.version), 409,
                 "version_conflict")

    # Only the racer's change landed: neither the move nor the placement.
    assert [e.type for e in _stored(game_id, state.version)] == ["defense_set"]
    game = Game.objects.get(pk=game_id)
    assert game.phase == "reinforce" and game.version == state.version + 1


def test_a_race_with_the_commit_retries_the_move_and_the_order_together(alice, bob, race,
                                                                        appends, told):
    game_id, state, mover, placer = _to_reinforcement(alice, bob)
    appends.clear()
    told.clear()

    race(placer, DEFENSE_ONE)
    answer = _place_all(mover, game_id, state)

    assert answer.status_code == 201, answer.content
    game = Game.objects.get(pk=game_id)
    assert game.phase == "attack" and game.current_seat == state.current
    stored = _stored(game_id, state.version)
    assert stored[0].type == "defense_set" and stored[0].user_id == placer.user_id
    # The lost append, the racer's own, then the retried move with its placement as one.
    assert [expected for expected, _, _ in appends] == [
        state.version, state.version, state.version + 1]
    assert appends[-1][1] == list(range(state.version + 2, game.version + 1))
    mine = told[-1]
    assert mine.before.version == state.version + 1 and mine.after.version == game.version
    assert [e.data["seat"] for e in mine.events if e.type == "armies_placed"] == [
        state.current, NEUTRAL]


def refused_order(done):
    """The borders order, but placing one army too many: the engine refuses it."""
    made = neutral_placement(done)
    if made is None:
        return None
    actor, command = made
    placements = dict(command.placements)
    first = next(iter(placements))
    placements[first] += 1
    return actor, rules.parse_command({"type": "place_neutral", "placements": placements},
                                      actor.seat)


def test_an_order_the_engine_refuses_is_left_to_the_player_and_the_move_stands(
        alice, bob, told, caplog):
    game_id, state, mover, placer = _to_reinforcement(alice, bob)
    with rewired(STANDING_ORDERS=[refused_order]):
        _refused_order_left_to_the_player(game_id, state, mover, placer, told, caplog)


def _refused_order_left_to_the_player(game_id, state, mover, placer, told, caplog):
    known = set(Notification.objects.filter(game_id=game_id).values_list("pk", flat=True))
    told.clear()

    answer = _place_all(mover, game_id, state, expected_version=state.version)

    assert answer.status_code == 201, answer.content
    game = Game.objects.get(pk=game_id)
    assert game.phase == "neutral_place" and game.current_seat == 1 - state.current
    stored = _stored(game_id, state.version)
    assert [e.data.get("seat") for e in stored if e.type == "armies_placed"] == [state.current]
    assert {e.user_id for e in stored} == {mover.user_id}
    assert "standing order" in caplog.text and "not made" in caplog.text
    [done] = told
    assert done.after.version == game.version == answer.json()["version"]
    # Left to the placer, who is told it is theirs as if they had not chosen.
    new = Notification.objects.filter(game_id=game_id, kind=Notification.TURN).exclude(
        pk__in=known)
    assert list(new.values_list("user_id", flat=True)) == [placer.user_id]


def always_defend_one(done):
    """An order that always applies: the placer's defence policy, flipped each time."""
    seat = next(s for s in (0, 1) if s != done.after.turn_seat)
    policy = "max" if done.after.players[seat].defense == "one" else "one"
    user_id = Game.objects.get(pk=done.game.pk).seats.get(seat=seat).user_id
    return (service.Actor(service.STANDING, user_id, seat),
            rules.parse_command({"type": "set_defense", "policy": policy}, seat))


def test_orders_are_asked_again_on_the_state_after_them_a_bounded_number_of_rounds(
        alice, bob):
    game_id, state, mover, placer = _to_reinforcement(alice, bob, borders=False)

    with rewired(STANDING_ORDERS=[always_defend_one]):
        assert send(mover, game_id,
                    {"type": "set_defense", "policy": "max"}).status_code == 201

    stored = _stored(game_id, state.version)
    orders = stored[1:]
    assert len(orders) == service.ORDER_ROUNDS  # each round saw the one before
    assert [e.data["policy"] for e in orders] == ["one", "max"] * (service.ORDER_ROUNDS // 2)
    assert {e.user_id for e in orders} == {placer.user_id}
    assert stored[0].user_id == mover.user_id
