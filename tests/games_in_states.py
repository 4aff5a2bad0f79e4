"""Games in each state, made in one place: open, started (with a fixed seed, bots, a clock,
a map), finished by resignations; in-process through lobby.open_games and games.service, or
over the API as its clients make them. A directory's support module names its own defaults
(a game's name, its seed) over these."""

from __future__ import annotations

from engine import seed_hash
from games import service
from games.models import Game
from games.states import load_state
from lobby import open_games


def open_game(creator, players: int = 2, name: str = "Test game", seed: str | None = None,
              rules: dict | None = None, **options) -> Game:
    """A game `creator` made for `players` seats (bots among them, if `options` seat some),
    waiting for the others; dealt from `seed` (a secret of 64 hex digits) if given, so that
    the dice, and the tests, repeat. `options` go to lobby.open_games.create_game (clock,
    bots, rated, private, map_id, ...)."""
    game = open_games.create_game(creator, name, players, rules, **options)
    if seed is not None:
        Game.objects.filter(pk=game.pk).update(seed=seed, seed_hash=seed_hash(seed))
        game.refresh_from_db()
    return game


def started_game(users: list, name: str = "Test game", seed: str | None = None,
                 bots: list | None = None, **rules_and_options) -> Game:
    """A game created by users[0] (with `bots` in the seats after hers) and joined by the
    other users in order, so that it has started. Keywords that lobby.open_games.create_game
    takes (clock, rated, map_id, private, ...) go to it; the others are rules."""
    options = {key: rules_and_options.pop(key) for key in CREATE_OPTIONS
               if key in rules_and_options}
    game = open_game(users[0], len(users) + len(bots or []), name, seed, rules_and_options,
                     bots=bots, **options)
    for user in users[1:]:
        open_games.join_game(game, user)
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    return game


# What create_game takes besides the rules (no rule has one of these names; deadline_seconds,
# which create_game also takes, stays a rule, as the tests have always given it).
CREATE_OPTIONS = ("clock", "rated", "entropy", "private", "map_id", "bots_allowed", "speed",
                  "seed_ahead")


def finish(game: Game, leave: list = ()) -> Game:
    """The users in `leave` resign in that order; if that leaves more than one seat, the
    people still in resign in seat order until one seat is left (computer players never
    resign)."""
    for user in leave:
        service.submit(service.player(user), game, {"type": "resign"})
    people = {seat.seat: seat.user for seat in game.seats.filter(bot__isnull=True)}
    for seat in load_state(game).living():
        if game.status == Game.FINISHED:
            break
        if seat in people:
            service.submit(service.player(people[seat]), game, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED
    return game


def new_game(creator, *joiners, players=None, **rules) -> int:
    """A game created over the API by the client `creator` and joined by the clients
    `joiners` (it starts when full); its id."""
    answer = creator.post("/api/v1/games/", {
        "name": "Test game", "players": players or 1 + len(joiners), "rules": rules,
    }, format="json")
    assert answer.status_code == 201, answer.content
    game_id = answer.json()["id"]
    for joiner in joiners:
        joined = joiner.post(f"/api/v1/games/{game_id}/join/")
        assert joined.status_code == 200, joined.content
    return game_id
