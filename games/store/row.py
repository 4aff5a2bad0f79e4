"""A game's row with its seats (and the seat flags the wiring's SEAT_FLAGS declares) read in
one query, as one value (Loaded): the lowest layer of the game core's reads; and what is read
of the row alone: its rule options, its dice, a seat's team."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from django.db import connection

import engine as rules
from games.models import Game
from games.store.seats import Seats, seats_column, seats_of_rows
from lib import sql


class Loaded(NamedTuple):
    """A game as the store reads it for a command or a page: its row, its seats (with
    their flags), and its state once loaded (None before: games.store.states.load_state reads
    it). What changes the seats reads a new value; nothing is kept on the Game."""

    game: Game
    seats: Seats
    state: rules.GameState | None = None


def load_game(pk) -> Loaded | None:
    """The game's row with its seats and their flags in one query, or None: what every
    command and view reads first."""
    if not isinstance(pk, int) or not 0 < pk < 2**63:
        return None  # no such id (and SQLite refuses integers past 64 bits)
    columns, fields = game_columns(connection.vendor)
    found = sql.rows(f"SELECT {', '.join(columns)} FROM {sql.table(Game)} "
                     f"WHERE {sql.table(Game)}.{sql.quote('id')} = %s", [pk], fields)
    return loaded_from_columns(found[0]) if found else None


@lru_cache(maxsize=4)
def game_columns(vendor: str) -> tuple[tuple, tuple]:
    """What load_game reads of a game, for another statement to read it too (the API's
    token lookup does, games.api.auth): the columns' SQL over the game's table, and the
    field of each. loaded_from_columns makes the game of their values."""
    fields = tuple(Game._meta.concrete_fields)
    columns = tuple(f"{sql.table(Game)}.{sql.quote(field.column)}" for field in fields)
    return (*columns, seats_column(vendor)), (*fields, None)


def loaded_from_columns(values) -> Loaded | None:
    """The game of game_columns' values with its seats and their flags
    (the wiring's SEAT_FLAGS), or None if the game's id is NULL (an outer join found
    no such game)."""
    *row, seats = values
    if row[0] is None:
        return None
    _, _, attnames = sql.all_columns(Game, connection.vendor)
    return Loaded(Game.from_db(connection.alias, attnames, row),
                  seats_of_rows(sql.json_rows(seats)))


def rules_of(game: Game) -> rules.Rules:
    """The game's options (defaults filled in), parsed once per read of its row."""
    parsed = game.__dict__.get("_parsed_rules")
    if parsed is None or parsed[0] is not game.rules:
        parsed = game._parsed_rules = (game.rules, rules.Rules.from_dict(game.rules))
    return parsed[1]


def dice_for(game: Game) -> rules.FairDice:
    return rules.FairDice(game.dice_seed, game.game_id)


def team_of(game: Game, seat: int) -> int | None:
    """A seat's team in a team game (docs/players/rules.md "Teams": seat s in team s % teams), else None."""
    game_rules = rules_of(game)
    return None if game_rules.team_size == 1 else seat % game_rules.team_count(game.players)
