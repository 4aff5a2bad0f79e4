"""A game's row with its seats (and the seat flags the wiring's SEAT_FLAGS declares) read in
one query, as one value (Loaded): the lowest layer of the game core's reads."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection

import engine as rules
from games.models import Game, Seat
from games.seating import Seats
from lib import sql
from lib.reactions import wired


class Loaded(NamedTuple):
    """A game as the store reads it for a command or a page: its row, its seats (with
    their flags), and its state once loaded (None before: games.states.load_state reads
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
    return (*columns, _seats_column(vendor)), (*fields, None)


def loaded_from_columns(values) -> Loaded | None:
    """The game of game_columns' values with its seats and their flags
    (the wiring's SEAT_FLAGS), or None if the game's id is NULL (an outer join found
    no such game)."""
    *row, seats = values
    if row[0] is None:
        return None
    _, _, attnames = sql.all_columns(Game, connection.vendor)
    return Loaded(Game.from_db(connection.alias, attnames, row), _seats(json_rows(seats)))


def _seats(found: list[tuple]) -> Seats:
    """Seats of the seats column's rows: (seat, user id, username, bot, *flags)."""
    # {flag: user ids it holds for}: a reaction asks on nearly every command (the outbox,
    # who takes a daily digest), so it is read with the seats.
    return Seats.of(found, {name: {seat[1] for seat in found if seat[4 + n]}
                            for n, name in enumerate(_declared_flags())})


def read_seats(game: Game | int) -> Seats:
    """The seats of `game` (a game or its id) with their flags, in one query, as load_game
    reads them with the row: for a caller that has the row alone, or whose change moved
    the seats (the lobby's)."""
    pk = game if isinstance(game, int) else game.pk
    found = sql.rows(f"SELECT {_seats_column(connection.vendor)} FROM {sql.table(Game)} "
                     f"WHERE {sql.table(Game)}.{sql.quote('id')} = %s", [pk], (None,))
    return _seats(json_rows(found[0][0] if found else None))


def seats_of_games(games) -> dict[int, Seats]:
    """{game id: Seats} of all `games` (games or their ids), with their flags, in one
    query, as load_game reads them with a row."""
    ids = list(dict.fromkeys(game if isinstance(game, int) else game.pk for game in games))
    if not ids:
        return {}
    q = sql.quote
    found = dict(sql.rows(
        f"SELECT {sql.table(Game)}.{q('id')}, {_seats_column(connection.vendor)} "
        f"FROM {sql.table(Game)} WHERE {sql.table(Game)}.{q('id')} IN "
        f"({', '.join(['%s'] * len(ids))})", ids, (None, None), prepare=False))
    return {pk: _seats(json_rows(found.get(pk))) for pk in ids}


def json_functions(vendor: str) -> tuple[str, str]:
    """The SQL functions that gather rows into one JSON array of arrays."""
    if vendor == "postgresql":
        return "json_agg", "json_build_array"
    return "json_group_array", "json_array"  # SQLite


def json_rows(column) -> list[tuple]:
    """The rows of a JSON column of arrays (the seats, the events after a version), in
    order (SQLite's JSON aggregate keeps none)."""
    if isinstance(column, str | bytes):  # SQLite answers JSON as text
        column = json.loads(column)
    return sorted(tuple(row) for row in column or ())


def _declared_flags() -> dict:
    """The wiring's SEAT_FLAGS: {name: the function giving its SQL}."""
    return wired("SEAT_FLAGS", {})


@lru_cache(maxsize=4)
def _seats_column(vendor: str) -> str:
    """The seats as one JSON column of the game's row, [[seat, user id, username, bot,
    *flags], ...], each of the wiring's SEAT_FLAGS for the seat's user: a join would
    repeat the whole row once per seat. Each seat's user is looked up by its key: a join
    lets the planner scan the users' table (and the generic plan of a prepared statement,
    which guesses tables' sizes, did)."""
    User = get_user_model()
    q = sql.quote
    seat, user, bot = (q(Seat._meta.get_field(name).column) for name in ("seat", "user", "bot"))
    name = q(User._meta.get_field(User.USERNAME_FIELD).column)
    aggregate, array = json_functions(vendor)
    values = [f"s.{seat}", f"s.{user}",
              f"(SELECT u.{name} FROM {sql.table(User)} u "
              f"WHERE u.{q(User._meta.pk.column)} = s.{user})", f"s.{bot}"]
    values += [flag_sql(f"s.{user}") for flag_sql in _declared_flags().values()]
    return (f"(SELECT {aggregate}({array}({', '.join(values)})) FROM {sql.table(Seat)} s "
            f"WHERE s.{q('game_id')} = {sql.table(Game)}.{q('id')})")
