"""An open game's seating: the teams a joiner may choose (the lobby's and the game page's
join forms) and the seats the creator may move players to before the start."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.models import Game
from lobby.open_games import team_count
from words.vocabulary import color_name, seat_color


def team_choices(game: Game, seated: dict[int, str]) -> list[dict]:
    """Each team of an open team game with its players and whether a seat is free in it
    (seat s plays in team s % teams); none in a game without teams."""
    teams = team_count(game)
    return [{
        "value": team, "number": team + 1,
        "members": ", ".join(seated[s] for s in sorted(seated) if s % teams == team),
        "full": all(s in seated for s in range(team, game.players, teams)),
    } for team in range(teams)]


def seat_choices(game: Game, seated: dict[int, str]) -> dict:
    """The creator's form: every seat in words (its colour and team), and the players seated
    but the creator, who keeps seat 0."""
    teams = team_count(game)
    seats = []
    for seat in range(game.players):
        words = _("Seat %(number)d, %(color)s") % {
            "number": seat + 1, "color": color_name(seat_color(seat))}
        if teams:
            words += ", " + _("team %(number)d") % {"number": seat % teams + 1}
        seats.append({"seat": seat, "words": words})
    return {"seats": seats,
            "players": [{"seat": s, "username": seated[s]} for s in sorted(seated) if s != 0]}
