"""A game's seats and what is known of them (their users, computer players, bot accounts and
their owners, teams), its rule options and its dice: read with the game's row
(games.rows) and kept on it for the request."""

from __future__ import annotations

import engine as rules
from accounts.bots import owners
from games.models import Game
from games.rows import read_seats


def rules_of(game: Game) -> rules.Rules:
    """The game's options (defaults filled in), parsed once per read of its row."""
    parsed = game.__dict__.get("_parsed_rules")
    if parsed is None or parsed[0] is not game.rules:
        parsed = game._parsed_rules = (game.rules, rules.Rules.from_dict(game.rules))
    return parsed[1]


def dice_for(game: Game) -> rules.FairDice:
    return rules.FairDice(game.dice_seed, game.game_id)


def seat_rows(game: Game) -> list[tuple[int, int, str, str | None]]:
    """(seat, user id, username, bot level or None) of everyone seated, read once per Game object: a command
    asks for them several times. Whatever changes the seats calls forget_seats()."""
    rows = getattr(game, "_seat_rows", None)
    if rows is None:
        rows = game._seat_rows = read_seats(game)
    return rows


def forget_seats(game: Game) -> None:
    game.__dict__.pop("_seat_rows", None)
    game.__dict__.pop("_seat_flags", None)  # read with the seats (games.rows.fetch_game)
    game.__dict__.pop("_bot_owners", None)


def seat_of(game: Game, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((row[0] for row in seat_rows(game) if row[1] == user.pk), None)


def usernames(game: Game) -> dict[int, str]:
    return {row[0]: row[2] for row in seat_rows(game)}


def bot_levels(game: Game, state: rules.GameState | None = None) -> dict[int, str]:
    """The seats computer players play, with their levels: seats made for a bot, and (with
    `state`) seats a bot took over under the dropped_seat rule."""
    levels = {row[0]: row[3] for row in seat_rows(game) if row[3]}
    if state is not None:
        for player in state.players:
            if player.bot and not player.out:
                levels.setdefault(player.seat, player.bot)
    return levels


def bot_owners(game: Game) -> dict[int, str]:
    """{seat: owner's username} of the seats bot accounts hold (docs/bots/contract.md "Bot
    accounts"), read once per Game object; no query when the seats were read with their
    flags and none is a bot account's."""
    found = game.__dict__.get("_bot_owners")
    if found is None:
        rows = seat_rows(game)
        flagged = game.__dict__.get("_seat_flags", {}).get("bot_account")
        by_user = {} if flagged is not None and not flagged else owners(
            [row[1] for row in rows if not row[3]])
        found = game._bot_owners = {row[0]: by_user[row[1]] for row in rows
                                    if row[1] in by_user}
    return found


def rated(game: Game) -> bool:
    """Whether the game moves ratings: the creator's choice, else true unless a computer
    player was seated (a dropped seat a bot plays on does not change it)."""
    if game.rated is not None:
        return game.rated
    return not any(row[3] for row in seat_rows(game))


def team_of(game: Game, seat: int) -> int | None:
    """A seat's team in a team game (docs/players/rules.md "Teams": seat s in team s % teams), else None."""
    game_rules = rules_of(game)
    return None if game_rules.team_size == 1 else seat % game_rules.team_count(game.players)
