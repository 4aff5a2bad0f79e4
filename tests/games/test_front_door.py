"""One front door: every way a change reaches a game (the API, the web form, a mail reply,
the deadline sweep, a computer player, a moderator's action, hiding a chat line, the
game's start) goes through games.service.submit, so a stale version is refused and a lost
race is retried (or, where the caller named a version, refused) the same way everywhere."""

from __future__ import annotations

import ast
import time

import pytest

import engine as rules
from games import computer, service
from games.models import Event, Game
from games.moderation import moderate
from games.store.append import VersionConflict
from games.store.states import load_state
from lobby import open_games
from moderation.chat import hide_message, post_message
from moderation.models import ChatMessage
from notifications import links
from tests.games_in_states import open_game
from tests.moderation.support import started_game
from tests.people import client_for, moderator, token_client_for, user
from tests.source import production_modules
from web import mail_moves

pytestmark = pytest.mark.django_db
DEFENSE_ONE = {"type": "set_defense", "policy": "one"}


@pytest.fixture
def three():
    alice, bob, charlie = user("alice"), user("bob"), user("charlie")
    return started_game([alice, bob, charlie]), [alice, bob, charlie]


@pytest.fixture
def race(monkeypatch):
    """race(someone): the next append loses to `someone`'s change of defence policy, landed
    in the game just before it (a move committed between the read and the write)."""
    real, armed = service.append, []

    def append(game, *args, **kwargs):
        if armed:
            other = armed.pop()
            service.submit(service.player(other), Game.objects.get(pk=game.pk), DEFENSE_ONE)
        return real(game, *args, **kwargs)

    monkeypatch.setattr(service, "append", append)
    return armed.append


def kinds_after(game, version) -> list[str]:
    return list(Event.objects.filter(game=game, seq__gt=version).order_by("seq")
                .values_list("type", flat=True))


def mover_and_other(game, users):
    state = load_state(game)
    return users[state.current], users[(state.current + 1) % len(users)], state


# ---- the API and the web form (a player) -----------------------------------------------
def test_the_api_refuses_a_stale_version_and_retries_a_race_without_one(three, race):
    game, users = three
    alice, other, state = mover_and_other(game, users)
    url = f"/api/v1/games/{game.pk}/commands/"
    stale = token_client_for(alice).post(url, {**DEFENSE_ONE, "expected_version": state.version - 1},
                            format="json")
    assert stale.status_code == 409 and stale.json()["error"] == "version_conflict"
    assert kinds_after(game, state.version) == []

    race(other)
    raced = token_client_for(alice).post(url, {**DEFENSE_ONE, "expected_version": state.version},
                            format="json")
    assert raced.status_code == 409  # it named a version: the race is a conflict
    race(other)
    retried = token_client_for(alice).post(url, {"type": "set_defense", "policy": "max"}, format="json")
    assert retried.status_code == 201, retried.json()
    assert kinds_after(game, state.version) == ["defense_set", "defense_set", "defense_set"]


def test_the_web_form_refuses_a_stale_version_and_a_race(three, race):
    game, users = three
    alice, other, state = mover_and_other(game, users)
    url = f"/games/{game.pk}/play/"
    form = {"type": "set_defense", "policy": "one"}
    stale = client_for(alice).post(url, {**form, "version": state.version - 1})
    assert stale.status_code == 409
    race(other)
    raced = client_for(alice).post(url, {**form, "version": state.version})
    assert raced.status_code == 409
    assert kinds_after(game, state.version) == ["defense_set"]  # only the other's


# ---- the mail reply (a player, who names no version) -----------------------------------
def test_a_mail_reply_is_retried_after_a_race(three, race):
    game, users = three
    mover, other, state = mover_and_other(game, users)
    game.refresh_from_db()
    address = links.reply_address(game.pk, state.current, mover.pk, game.turn)
    race(other)
    received = mail_moves.receive(f"Someone <{mover.email}>", [address],
                               f"<{time.monotonic_ns()}@example.com>", "defense one")
    assert received.status == "applied", received.detail
    assert kinds_after(game, state.version) == ["defense_set", "defense_set"]


# ---- the deadline sweep (the clock) ----------------------------------------------------
def test_the_deadline_sweep_refuses_a_stale_version_and_a_race(three, race):
    game, users = three
    _, other, state = mover_and_other(game, users)
    with pytest.raises(VersionConflict):
        service.submit_timeout(game, state.version - 1)
    race(other)
    with pytest.raises(VersionConflict):
        service.submit_timeout(Game.objects.get(pk=game.pk), state.version)
    assert kinds_after(game, state.version) == ["defense_set"]


# ---- a computer player -----------------------------------------------------------------
def test_a_computer_player_names_the_version_it_read_and_stops_on_a_race(race):
    alice = user("alice")
    game = open_game(alice, 2, "Against a bot", rules={"setup": "random"}, bots=["easy"])
    game.refresh_from_db()
    state = load_state(game)
    while state.current != 1:  # until the bot owes the move
        service.submit(service.player(alice), game, {"type": "end_turn"}
                     if state.phase != "reinforce" else _place_all(state, 0))
        game.refresh_from_db()
        state = load_state(game)
    race(alice)
    assert computer.play(game.pk) == 0  # it lost the race: nothing of the bot's landed
    assert kinds_after(game, state.version) == ["defense_set"]
    assert computer.play(game.pk) > 0  # read again, it plays


def _place_all(state, seat) -> dict:
    mine = next(t for t, owner in state.owner.items() if owner == seat)
    return {"type": "place", "placements": {mine: state.reinforcements}}


# ---- a moderator, and hiding a chat line -----------------------------------------------
def test_a_moderator_action_refuses_a_stale_version_and_retries_a_race_without_one(three,
                                                                                   race):
    game, users = three
    maud = moderator("maud")
    _, other, state = mover_and_other(game, users)
    with pytest.raises(VersionConflict):
        moderate(game, maud, "pause", "checking", expected_version=state.version - 1)
    race(other)
    moderate(Game.objects.get(pk=game.pk), maud, "pause", "checking")
    assert kinds_after(game, state.version) == ["defense_set", "game_paused"]


def test_hiding_a_chat_line_is_retried_after_a_race(three, race):
    game, users = three
    maud = moderator("maud")
    _, other, state = mover_and_other(game, users)
    line = post_message(game, users[0], "rude")
    race(other)
    hide_message(line, maud, "rude")
    assert kinds_after(game, state.version) == ["defense_set", "chat_hidden"]
    assert ChatMessage.objects.get(pk=line.pk).hidden


# ---- the game's start (the lobby) ------------------------------------------------------
def test_the_start_names_the_version_it_locked():
    alice, bob = user("alice"), user("bob")
    game = open_game(alice, 2, "Soon", rules={"setup": "random"})
    open_games.join_game(game, bob)
    game.refresh_from_db()
    start = rules.StartGame(game.game_id, 2, rules.validate_rules(game.rules, 2), ())
    with pytest.raises(VersionConflict):  # a second start: the game has moved on
        service.submit(service.Actor(service.LOBBY), game, start, 0)


# ---- one door, one commit step ---------------------------------------------------------
def test_submit_is_the_only_caller_of_the_commit_step():
    callers = set()
    for path, tree in production_modules():
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                calls = {inner.func.id for inner in ast.walk(node)
                         if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name)}
                calls |= {inner.func.attr for inner in ast.walk(node)
                          if isinstance(inner, ast.Call)
                          and isinstance(inner.func, ast.Attribute)
                          and isinstance(inner.func.value, ast.Name)
                          and inner.func.value.id == "write"}
                if "commit" in calls:
                    callers.add(f"{path}:{node.name}")
    assert callers == {"games/service.py:submit"}


# ---- issue 28: another seat's hand-in in a simultaneous phase is not a conflict ---------
def _own(state, seat) -> list[str]:
    return [t for t, owner in state.owner.items() if owner == seat]


def _hand_in_placement(state, seat) -> dict:
    return {"type": "place", f"place-{_own(state, seat)[0]}": str(
        state.players[seat].setup_armies)}


def test_another_seats_simultaneous_placement_does_not_make_the_form_stale():
    users = [user("alice"), user("bob"), user("charlie")]
    game = started_game(users, setup="deal", initial_placement="simultaneous")
    state = load_state(game)
    assert state.phase == "setup_place"
    seen = state.version
    service.submit(service.player(users[1]), game, {"type": "place", "placements": {
        _own(state, 1)[0]: state.players[1].setup_armies}})

    answer = client_for(users[0]).post(f"/games/{game.pk}/play/",
                                {**_hand_in_placement(state, 0), "version": seen})
    assert answer.status_code == 302
    assert load_state(game).players[0].submitted
    # The API keeps the strict expected_version docs/bots/contract.md promises.
    stale = token_client_for(users[2]).post(f"/api/v1/games/{game.pk}/commands/", {
        "type": "place", "placements": {_own(state, 2)[0]: state.players[2].setup_armies},
        "expected_version": seen}, format="json")
    assert stale.status_code == 409


def test_another_seats_capital_does_not_make_the_form_stale_but_a_round_end_does():
    users = [user("alice"), user("bob"), user("charlie")]
    game = started_game(users, setup="random", objective="capitals")
    state = load_state(game)
    assert state.phase == "capital"
    seen = state.version
    service.submit(service.player(users[1]), game,
                 {"type": "choose_capital", "territory": _own(state, 1)[0]})
    answer = client_for(users[0]).post(f"/games/{game.pk}/play/", {
        "type": "choose_capital", "territory": _own(state, 0)[0], "version": seen})
    assert answer.status_code == 302
    assert load_state(game).players[0].capital == _own(state, 0)[0]
    # Charlie's choice ends the phase: a form from before it is stale for anyone.
    service.submit(service.player(users[2]), game,
                 {"type": "choose_capital", "territory": _own(state, 2)[0]})
    assert not service.only_others_policies(game, seen, load_state(game).version, 0)
