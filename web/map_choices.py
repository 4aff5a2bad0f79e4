"""The maps the pages offer and the board a game plays: the one place the web reads the list
of maps and finds a game's board, all through games.boards (the shipped maps and the enabled
imports; a game's board by the map version it records)."""

from __future__ import annotations

from engine.maps import Board, UnknownMap
from games import boards


def available_maps() -> list[Board]:
    """Every map a game may be created on, the classic one first."""
    return boards.maps_for_new_games()


def map_by_id(map_id: str | None) -> Board | None:
    """The current version of an offered map, or None if there is none by that id (or a
    moderator disabled it)."""
    try:
        return boards.board_for_new_game(map_id)
    except UnknownMap:
        return None


def kept_map(map_id: str | None) -> Board | None:
    """The current version of any map kept, disabled imports too (games on it still show
    it), or None."""
    try:
        return boards.board_of_map(map_id)
    except UnknownMap:
        return None


def board_of(view: dict) -> Board:
    """The board a game view is played on: the exact version its game started with (the
    view's map_hash); an open game's, not started yet, is its map's current version."""
    return boards.board_of_view(view)


def board_of_game(game) -> Board:
    """The board a game plays: the version its game_started recorded, else (a game not
    started yet) its map's current version."""
    return boards.board_of_game(game)
