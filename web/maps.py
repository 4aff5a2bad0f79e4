"""The maps the pages offer and the board a game plays: the one place the web reads the list
of maps (games.maps: the shipped ones and the enabled imports) and finds a game view's
board by the map version it records."""

from __future__ import annotations

from games import maps as game_maps
from games.rules import maps
from games.rules.maps import DEFAULT_MAP, Board, UnknownMap
from games.store import load_state


def available_maps() -> list[Board]:
    """Every map a game may be created on, the classic one first."""
    boards = game_maps.available_boards()
    return sorted(boards, key=lambda b: (b.id != DEFAULT_MAP, len(b.territories), b.id))


def map_by_id(map_id: str | None) -> Board | None:
    """The current version of an offered map, or None if there is none by that id (or a
    moderator disabled it)."""
    try:
        return game_maps.board_for_new_game(map_id)
    except UnknownMap:
        return None


def kept_map(map_id: str | None) -> Board | None:
    """The current version of any map kept, disabled imports too (games on it still show
    it), or None."""
    try:
        return game_maps.board_of_map(map_id)
    except UnknownMap:
        return None


def board_of(view: dict) -> Board:
    """The board a game view is played on: the exact version its game started with (the
    view's map_hash); an open game's, not started yet, is its map's current version."""
    if view.get("map_hash"):
        return maps.board_by_hash(view["map_hash"])
    return kept_map(view.get("map") or DEFAULT_MAP) or maps.classic()


def board_of_game(game) -> Board:
    """The board a game plays: its started state's (the version it recorded), else its map's
    current version (a game not started yet)."""
    state = load_state(game)
    if state is not None:
        return state.board
    return kept_map(game.map) or maps.classic()
