"""A game's seats and what is known of them (their users, computer players, bot accounts and
their owners), and reading them: the seats are a value (Seats), read with the game's row by
the store (games.store.row) or alone (read_seats), and handed along explicitly: nothing is
kept on the Game."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from functools import cached_property, lru_cache
from typing import NamedTuple

from django.contrib.auth import get_user_model
from django.db import connection

import engine as rules
from accounts.bots import owners
from games.models import Game, Seat
from lib import sql
from lib.reactions import wired


class Seated(NamedTuple):
    """One seat as the store reads it: its number, its user, their username, and the level
    of the computer player it was made for (None: a person, or a bot account)."""

    seat: int
    user_id: int
    username: str
    bot: str | None


@dataclasses.dataclass(frozen=True)
class Seats:
    """Everyone seated in a game, in seat order, and the seat flags read with them
    (the wiring's SEAT_FLAGS: {name: the user ids it holds for}; a flag not read is
    absent, and whoever asks for it reads it themselves). A value: whatever changes the
    seats reads a new one (read_seats)."""

    rows: tuple[Seated, ...] = ()
    flags: Mapping[str, frozenset[int]] = dataclasses.field(default_factory=dict)

    @classmethod
    def of(cls, rows: Iterable, flags: Mapping[str, Iterable[int]] | None = None) -> Seats:
        """Seats of rows (seat, user id, username, bot level or None), in seat order."""
        return cls(tuple(sorted(Seated(*row[:4]) for row in rows)),
                   {name: frozenset(ids) for name, ids in (flags or {}).items()})

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def seat_of(self, user) -> int | None:
        """The seat of `user` (a user object; None or anonymous: no seat)."""
        if user is None or not user.is_authenticated:
            return None
        return self.seat_of_user(user.pk)

    def seat_of_user(self, user_id: int | None) -> int | None:
        return next((row.seat for row in self.rows if row.user_id == user_id), None)

    def user_at(self, seat: int | None) -> int | None:
        """The user id at `seat`, or None."""
        return next((row.user_id for row in self.rows if row.seat == seat), None)

    def user_ids(self) -> dict[int, int]:
        """{seat: user id}."""
        return {row.seat: row.user_id for row in self.rows}

    def usernames(self) -> dict[int, str]:
        """{seat: username}."""
        return {row.seat: row.username for row in self.rows}

    def bot_levels(self, state: rules.GameState | None = None) -> dict[int, str]:
        """The seats computer players play, with their levels: seats made for a bot, and
        (with `state`) seats a bot took over under the dropped_seat rule."""
        levels = {row.seat: row.bot for row in self.rows if row.bot}
        if state is not None:
            for player in state.players:
                if player.bot and not player.out:
                    levels.setdefault(player.seat, player.bot)
        return levels

    def flagged(self, name: str) -> frozenset[int] | None:
        """The seated users flag `name` holds for, or None if it was not read with them."""
        return self.flags.get(name)

    @cached_property
    def bot_owners(self) -> dict[int, str]:
        """{seat: owner's username} of the seats bot accounts hold (docs/bots/contract.md
        "Bot accounts"): read at most once per value, and not at all when the bot_account
        flag was read with the seats and holds for none."""
        flagged = self.flagged("bot_account")
        if flagged is not None and not flagged:
            return {}
        by_user = owners([row.user_id for row in self.rows if not row.bot])
        return {row.seat: by_user[row.user_id] for row in self.rows if row.user_id in by_user}

    def rated(self, game: Game) -> bool:
        """Whether the game moves ratings: the creator's choice, else true unless a
        computer player was seated (a dropped seat a bot plays on does not change it)."""
        if game.rated is not None:
            return game.rated
        return not any(row.bot for row in self.rows)


def seats_of_rows(found: list[tuple]) -> Seats:
    """Seats of the seats column's rows: (seat, user id, username, bot, *flags)."""
    # {flag: user ids it holds for}: a reaction asks on nearly every command (the outbox,
    # who takes a daily digest), so it is read with the seats.
    return Seats.of(found, {name: {seat[1] for seat in found if seat[4 + n]}
                            for n, name in enumerate(_declared_flags())})


def read_seats(game: Game | int) -> Seats:
    """The seats of `game` (a game or its id) with their flags, in one query, as
    games.store.row.load_game reads them with the row: for a caller that has the row alone,
    or whose change moved the seats (the lobby's)."""
    pk = game if isinstance(game, int) else game.pk
    found = sql.rows(f"SELECT {seats_column(connection.vendor)} FROM {sql.table(Game)} "
                     f"WHERE {sql.table(Game)}.{sql.quote('id')} = %s", [pk], (None,))
    return seats_of_rows(sql.json_rows(found[0][0] if found else None))


def seats_of_games(games) -> dict[int, Seats]:
    """{game id: Seats} of all `games` (games or their ids), with their flags, in one
    query, as games.store.row.load_game reads them with a row."""
    ids = list(dict.fromkeys(game if isinstance(game, int) else game.pk for game in games))
    if not ids:
        return {}
    q = sql.quote
    found = dict(sql.rows(
        f"SELECT {sql.table(Game)}.{q('id')}, {seats_column(connection.vendor)} "
        f"FROM {sql.table(Game)} WHERE {sql.table(Game)}.{q('id')} IN "
        f"({', '.join(['%s'] * len(ids))})", ids, (None, None), prepare=False))
    return {pk: seats_of_rows(sql.json_rows(found.get(pk))) for pk in ids}


def _declared_flags() -> dict:
    """The wiring's SEAT_FLAGS: {name: the function giving its SQL}."""
    return wired("SEAT_FLAGS", {})


@lru_cache(maxsize=4)
def seats_column(vendor: str) -> str:
    """The seats as one JSON column of the game's row, [[seat, user id, username, bot,
    *flags], ...], each of the wiring's SEAT_FLAGS for the seat's user: a join would
    repeat the whole row once per seat. Each seat's user is looked up by its key: a join
    lets the planner scan the users' table (and the generic plan of a prepared statement,
    which guesses tables' sizes, did)."""
    User = get_user_model()
    q = sql.quote
    seat, user, bot = (q(Seat._meta.get_field(name).column) for name in ("seat", "user", "bot"))
    name = q(User._meta.get_field(User.USERNAME_FIELD).column)
    aggregate, array = sql.json_functions(vendor)
    values = [f"s.{seat}", f"s.{user}",
              f"(SELECT u.{name} FROM {sql.table(User)} u "
              f"WHERE u.{q(User._meta.pk.column)} = s.{user})", f"s.{bot}"]
    values += [flag_sql(f"s.{user}") for flag_sql in _declared_flags().values()]
    return (f"(SELECT {aggregate}({array}({', '.join(values)})) FROM {sql.table(Seat)} s "
            f"WHERE s.{q('game_id')} = {sql.table(Game)}.{q('id')})")
