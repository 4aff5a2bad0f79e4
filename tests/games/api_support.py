"""Helpers for the API tests: the error shape, "nothing changed" checks, bots playing over HTTP."""

from __future__ import annotations

import contextlib
import json

from engine.moves import seats_to_act
from games.models import Event, Game
from games.store.states import load_state
from tests.contract import DEFAULT_RULES
from tests.engine.players import bot_command

API = "/api/v1"


def game_url(game_id, tail: str = "") -> str:
    return f"{API}/games/{game_id}/{tail}"


def assert_error(answer, status: int, code: str | None = None) -> dict:
    """A refusal as docs/bots/contract.md has it: JSON {"error": code, "detail": text}."""
    assert answer.status_code == status, (answer.status_code, answer.content)
    assert answer["Content-Type"].startswith("application/json"), answer["Content-Type"]
    body = answer.json()
    assert isinstance(body, dict), body
    assert isinstance(body.get("error"), str) and body["error"], body
    assert isinstance(body.get("detail"), str), body
    if code is not None:
        assert body["error"] == code, body
    return body


def footprint(game_id) -> dict:
    """What any accepted request would change: the log and the projection."""
    game = Game.objects.get(pk=game_id)
    return {
        "version": game.version, "events": Event.objects.filter(game_id=game_id).count(),
        "status": game.status, "players": game.players, "seats": game.seats.count(),
    }


@contextlib.contextmanager
def unchanged(game_id):
    """Assert the block appends no event and changes nothing about the game."""
    before = footprint(game_id)
    yield before
    assert footprint(game_id) == before


def send(client, game_id, command, **extra):
    return client.post(game_url(game_id, "commands/"), command, format="json", **extra)


def send_raw(client, game_id, body: str | bytes, content_type: str = "application/json"):
    return client.generic("POST", game_url(game_id, "commands/"), body,
                          content_type=content_type)


def state_of(game_id):
    return load_state(Game.objects.get(pk=game_id))


def play(game_id, clients: dict, rnd, until=lambda state: False, moves: int = 3000,
         check=None):
    """Bots move, over HTTP, for whichever seat the game waits for until `until(state)` holds
    (or the game ends); returns that state. `check(seat, command, answer)` sees each answer.
    `clients` maps seats to API clients."""
    game = Game.objects.get(pk=game_id)
    for _ in range(moves):
        state = load_state(game)
        if state.finished or until(state):
            return state
        seat = rnd.choice(seats_to_act(state))
        command = bot_command(state, seat, rnd) | {"expected_version": state.version}
        answer = send(clients[seat], game_id, command)
        # 400: the bot sometimes tries a `connected` fortification that is not connected.
        assert answer.status_code in (201, 400), answer.content
        if check is not None:
            check(seat, command, answer)
    raise AssertionError(f"not there after {moves} moves")


def compact(value) -> str:
    """JSON text as DRF renders it (no spaces), for searching answers for secrets."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# ---- the shapes of docs/bots/contract.md ---------------------------------------------------------
GAME_VIEW_KEYS = {
    "id", "name", "status", "version", "rules", "phase", "turn", "current_seat", "deadline",
    "winner", "players", "territories", "pending", "sets_traded", "next_set_value", "seed_hash",
    "you",
}
PLAYER_KEYS = {
    "seat", "username", "color", "territories", "armies", "cards", "eliminated", "dropped",
    "missed_turns",
}
YOU_KEYS = {"seat", "cards", "mission", "capital", "defense"}
EVENT_KEYS = {"seq", "type", "actor", "at", "data"}
STATUSES = {"open", "active", "paused", "finished", "aborted"}
PHASES = {"claim", "setup_place", "capital", "reinforce", "attack", "occupy", "fortify",
          "neutral_place", None}
COLORS = ["red", "blue", "green", "yellow", "black", "white"]


def assert_game_view(view: dict, seat: int | None = None) -> dict:
    """Every field of docs/bots/contract.md "The game view", with the types it gives them."""
    assert GAME_VIEW_KEYS <= set(view), GAME_VIEW_KEYS - set(view)
    assert isinstance(view["id"], int) and isinstance(view["name"], str)
    assert view["status"] in STATUSES
    assert isinstance(view["version"], int) and view["version"] >= 0
    assert set(DEFAULT_RULES) <= set(view["rules"])
    assert view["phase"] in PHASES
    assert isinstance(view["turn"], int)
    assert view["current_seat"] is None or isinstance(view["current_seat"], int)
    assert view["deadline"] is None or isinstance(view["deadline"], str)
    assert view["winner"] is None or isinstance(view["winner"], int)
    assert isinstance(view["seed_hash"], str) and len(view["seed_hash"]) == 64
    assert isinstance(view["sets_traded"], int)
    assert view["next_set_value"] is None or isinstance(view["next_set_value"], int)
    for index, player in enumerate(view["players"]):
        assert PLAYER_KEYS <= set(player), PLAYER_KEYS - set(player)
        assert player["seat"] == index and player["color"] == COLORS[index]
        assert isinstance(player["username"], str)
        assert isinstance(player["cards"], int)  # a count, for everyone
        for key in ("territories", "armies", "missed_turns"):
            assert isinstance(player[key], int)
        assert isinstance(player["eliminated"], bool) and isinstance(player["dropped"], bool)
    assert len(view["territories"]) == 42
    for territory in view["territories"].values():
        assert set(territory) >= {"owner", "armies"}
        assert territory["owner"] is None or territory["owner"] == "neutral" or (
            isinstance(territory["owner"], int))
        assert isinstance(territory["armies"], int)
    pending = view["pending"]
    assert {"reinforcements", "must_trade", "occupy"} <= set(pending)
    assert isinstance(pending["reinforcements"], int)
    assert isinstance(pending["must_trade"], bool)
    if pending["occupy"] is not None:
        assert {"from", "to", "min", "max"} <= set(pending["occupy"])
    if seat is None:
        assert view["you"] is None
    else:
        you = view["you"]
        assert YOU_KEYS <= set(you), YOU_KEYS - set(you)
        assert you["seat"] == seat
        assert you["defense"] in ("max", "one")
        for card in you["cards"]:
            assert {"id", "territory", "symbol"} <= set(card)
    return view


def assert_event(event: dict) -> dict:
    assert EVENT_KEYS <= set(event), EVENT_KEYS - set(event)
    assert isinstance(event["seq"], int) and isinstance(event["type"], str)
    assert isinstance(event["data"], dict) and isinstance(event["at"], str)
    return event
