"""Which map a game plays, for the service and its consumers: the one place a map id is
resolved to a board (a new game, a tournament's games, the bot arena), and the board of a
game someone reads (its view's map version).

Maps kept elsewhere than games/rules/maps (stored in the database, imported) are found by
extending board_for_new_game and maps_for_new_games; every other reader goes through them.
"""

from __future__ import annotations

from games.models import Event
from games.rules import maps
from games.rules.events import GAME_STARTED
from games.rules.maps import CLASSIC_FIRST_HASH, DEFAULT_MAP, Board, UnknownMap


def board_for_new_game(map_id=None) -> Board:
    """The current version of the map `map_id` (None: the default map); UnknownMap (a
    refusal, 400) if no map has that id."""
    if map_id is None:
        map_id = DEFAULT_MAP
    if not isinstance(map_id, str):
        raise UnknownMap("map must be a map's id (GET /api/v1/maps/)")
    return maps.shipped(map_id)


def maps_for_new_games() -> list[Board]:
    """Every map a new game may be made on, the default first."""
    boards = maps.shipped_boards()
    return sorted(boards, key=lambda board: (board.id != DEFAULT_MAP, board.id))


def board_of_view(view: dict) -> Board:
    """The map version a game view shows: its `map_hash` once the game has started, else
    the current version of its `map` (an open game starts on that)."""
    map_hash = view.get("map_hash")
    if map_hash:
        return maps.board_by_hash(map_hash)
    return board_for_new_game(view.get("map"))


def board_of_game(game) -> Board:
    """The map version `game` plays (its game_started's; one that recorded none played the
    classic map's first version), or for a game not started yet the one it will start
    on. Read once per Game object."""
    board = game.__dict__.get("_board")
    if board is None:
        started = (Event.objects.filter(game_id=game.pk, type=GAME_STARTED)
                   .values_list("data", flat=True).first())
        if started is None:
            board = board_for_new_game(game.map)
        else:
            board = maps.board_by_hash(started.get("map_hash") or CLASSIC_FIRST_HASH)
        game._board = board
    return board


__all__ = ["UnknownMap", "board_for_new_game", "board_of_game", "board_of_view",
           "maps_for_new_games"]
