"""A game's seats and what is known of them (their users, computer players, bot accounts and
their owners, teams), its rule options and its dice. The seats are a value (Seats), read
with the game's row by the store (games.rows) and handed along explicitly: nothing is kept
on the Game."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import NamedTuple

import engine as rules
from accounts.bots import owners
from games.models import Game


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
    seats reads a new one (games.rows.read_seats)."""

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
