"""A game's row with its seats (and the seat flags settings.CONQUEST_SEAT_FLAGS declares) read in
one query: the lowest layer of the game core's reads."""

from __future__ import annotations

import json
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils.module_loading import import_string

from games.models import Game, Seat
from lib import sql


def fetch_game(pk) -> Game | None:
    """The game's row with its seats (see games.seating.seat_rows) in one query, or None:
    what every command and view reads first."""
    if not isinstance(pk, int) or not 0 < pk < 2**63:
        return None  # no such id (and SQLite refuses integers past 64 bits)
    columns, fields = game_columns(connection.vendor)
    found = sql.rows(f"SELECT {', '.join(columns)} FROM {sql.table(Game)} "
                     f"WHERE {sql.table(Game)}.{sql.quote('id')} = %s", [pk], fields)
    return game_from_columns(found[0]) if found else None


@lru_cache(maxsize=4)
def game_columns(vendor: str) -> tuple[tuple, tuple]:
    """What fetch_game reads of a game, for another statement to read it too (the API's
    token lookup does, games.api.auth): the columns' SQL over the game's table, and the
    field of each. game_from_columns makes the game of their values."""
    fields = tuple(Game._meta.concrete_fields)
    columns = tuple(f"{sql.table(Game)}.{sql.quote(field.column)}" for field in fields)
    return (*columns, _seats_column(vendor, with_flags=True)), (*fields, None)


def game_from_columns(values) -> Game | None:
    """The game of game_columns' values (None if the game's id is NULL: an outer join
    found no such game), with its seats and their flags (settings.CONQUEST_SEAT_FLAGS)."""
    *row, seats = values
    if row[0] is None:
        return None
    _, _, attnames = sql.all_columns(Game, connection.vendor)
    game = Game.from_db(connection.alias, attnames, row)
    _keep_seats(game, json_rows(seats))
    return game


def _keep_seats(game: Game, seats: list[tuple]) -> None:
    game._seat_rows = [seat[:4] for seat in seats]
    # {flag: user ids it holds for}: a reaction asks on nearly every command (the outbox,
    # who takes a daily digest), so it is read with the seats.
    game._seat_flags = {name: {seat[1] for seat in seats if seat[4 + n]}
                        for n, name in enumerate(_seat_flags())}


def attach_seats(games: list[Game]) -> None:
    """Read the seats of all `games`, with their flags, in one query, as fetch_game reads
    them with a row."""
    if not games:
        return
    q = sql.quote
    found = dict(sql.rows(
        f"SELECT {sql.table(Game)}.{q('id')}, {_seats_column(connection.vendor, True)} "
        f"FROM {sql.table(Game)} WHERE {sql.table(Game)}.{q('id')} IN "
        f"({', '.join(['%s'] * len(games))})", [game.pk for game in games], (None, None),
        prepare=False))
    for game in games:
        _keep_seats(game, json_rows(found.get(game.pk)))


def json_functions(vendor: str) -> tuple[str, str]:
    """The SQL functions that gather rows into one JSON array of arrays."""
    if vendor == "postgresql":
        return "json_agg", "json_build_array"
    return "json_group_array", "json_array"  # SQLite


def read_seats(game: Game) -> list[tuple[int, int, str, str | None]]:
    """[(seat, user id, username, bot level or None)] in seat order, as fetch_game reads
    them with the row."""
    found = sql.rows(f"SELECT {_seats_column(connection.vendor)} FROM {sql.table(Game)} "
                     f"WHERE {sql.table(Game)}.{sql.quote('id')} = %s", [game.pk], (None,))
    return json_rows(found[0][0] if found else None)


def json_rows(column) -> list[tuple]:
    """The rows of a JSON column of arrays (the seats, the events after a version), in
    order (SQLite's JSON aggregate keeps none)."""
    if isinstance(column, str | bytes):  # SQLite answers JSON as text
        column = json.loads(column)
    return sorted(tuple(row) for row in column or ())


def _seat_flags() -> dict:
    """settings.CONQUEST_SEAT_FLAGS: {name: dotted path of its SQL's function}."""
    return getattr(settings, "CONQUEST_SEAT_FLAGS", {})


@lru_cache(maxsize=4)
def _seats_column(vendor: str, with_flags: bool = False) -> str:
    """The seats as one JSON column of the game's row, [[seat, user id, username, bot],
    ...]: a join would repeat the whole row once per seat. `with_flags` adds each of
    settings.CONQUEST_SEAT_FLAGS for the seat's user. Each seat's user is looked up by its
    key: a join lets the planner scan the users' table (and the generic plan of a prepared
    statement, which guesses tables' sizes, did)."""
    User = get_user_model()
    q = sql.quote
    seat, user, bot = (q(Seat._meta.get_field(name).column) for name in ("seat", "user", "bot"))
    name = q(User._meta.get_field(User.USERNAME_FIELD).column)
    aggregate, array = json_functions(vendor)
    values = [f"s.{seat}", f"s.{user}",
              f"(SELECT u.{name} FROM {sql.table(User)} u "
              f"WHERE u.{q(User._meta.pk.column)} = s.{user})", f"s.{bot}"]
    if with_flags:
        values += [import_string(path)(f"s.{user}") for path in _seat_flags().values()]
    return (f"(SELECT {aggregate}({array}({', '.join(values)})) FROM {sql.table(Seat)} s "
            f"WHERE s.{q('game_id')} = {sql.table(Game)}.{q('id')})")
