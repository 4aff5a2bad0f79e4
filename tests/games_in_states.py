"""Games in each state, made in one place: open, started (with a fixed seed, bots, a clock,
a map), played some turns, finished by resignations; in-process through lobby.open_games and
games.service, or over the API as its clients make them. A directory's support module names its own defaults
(a game's name, its seed) over these."""

from __future__ import annotations

import random

from engine import seed_hash
from engine.moves import seats_to_act
from games import computer, service
from games.models import Game
from games.store.states import load_state
from lobby import open_games
from ratings.counting import MIN_OWN_TURNS
from tests.engine.players import bot_command


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


def play_turns(game: Game, turns: int, seed: int = 1, limit: int = 6000) -> None:
    """Play on until every seat has played `turns` turns of its own (round `turns` + 1 has
    begun): people by their own commands, as a client would send them, computer players
    by theirs; no seat's last territory is attacked, so nobody is eliminated and the game
    goes on. With 0 turns nothing is played."""
    if turns <= 0:
        return
    humans = {seat.seat: seat.user for seat in game.seats.filter(bot__isnull=True)}
    rnd = random.Random(seed)
    for _ in range(limit):
        state = load_state(game)
        assert not state.finished, "the game ended while it was being played"
        if state.round > turns:
            game.refresh_from_db()
            return
        seat = rnd.choice(seats_to_act(state))
        if seat not in humans:
            computer.play(game.pk)
            continue
        command = bot_command(state, seat, rnd)
        if command["type"] == "attack" and len(state.territories_of(
                state.owner[command["to"]])) == 1:
            # Nobody is eliminated: on a small map (the Four Isles' 12 territories) one
            # player could take all the other's before the turns are played.
            command = {"type": "end_attack"}
        try:
            service.submit(service.player(humans[seat]), game, command, state.version)
        except Exception:  # noqa: BLE001 - the bot may ask for a refused move; ask again
            continue
    raise AssertionError(f"the seats did not play {turns} turns each")


def finished_game(users: list, leave: list | None = None, bots=None,
                  turns: int = MIN_OWN_TURNS, seed: int = 1, **rules_and_options) -> Game:
    """A game of `users` (and `bots`, and what started_game takes besides: rules, a name,
    a map) in which every seat played `turns` turns (by moves drawn from `seed`; a rated
    game counts after MIN_OWN_TURNS), ended by resignations: the users in `leave` resign in
    that order (default: every user but the first, last first), then the humans still in,
    until one seat is left."""
    game = started_game(users, bots=bots, **rules_and_options)
    play_turns(game, turns, seed)
    return finish(game, users[:0:-1] if leave is None else leave)


def new_game(creator, *joiners, players=None, name="Test game", options=None, **rules) -> int:
    """A game created over the API by the client `creator` (with the request's other fields
    `options`: private, bots_allowed, ...) and joined by the clients `joiners` (it starts
    when full); its id. `players` defaults to the creator and the joiners."""
    answer = creator.post("/api/v1/games/", {
        "name": name, "players": players or 1 + len(joiners), "rules": rules,
        **(options or {}),
    }, format="json")
    assert answer.status_code == 201, answer.content
    game_id = answer.json()["id"]
    for joiner in joiners:
        joined = joiner.post(f"/api/v1/games/{game_id}/join/")
        assert joined.status_code == 200, joined.content
    return game_id
