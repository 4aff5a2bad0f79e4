"""The API's token lookup reads the game the URL names in the same statement, and the
events since the state this process remembers of it: a command makes one or two round
trips to the database less (found() takes the game from the request, load_state the
events from the game)."""

from __future__ import annotations

from functools import lru_cache

from django.db import connection

from accounts import tokens
from games.models import Game
from games.store import log, states
from games.store.row import Loaded, game_columns, loaded_from_columns
from lib import sql

FOUND = "_conquest_game"  # the request's attribute: (game id, the Loaded game or None)


class TokenAuthentication(tokens.TokenAuthentication):
    def along(self, request) -> tuple[str, tuple, list]:
        game_id = _game_id(request)
        if game_id is None:
            return super().along(request)
        joins, extra = _game_join(connection.vendor)
        self.after = states.remembered_version(game_id)
        if self.after is None:
            return joins, extra, [game_id]
        events = log.events_after_column(connection.vendor)
        upto = self.after + states.snapshot_every()  # recall catches up no further
        return joins, (*extra, (events, None)), [game_id, self.after, upto, game_id]

    def received(self, request, values: list) -> None:
        count = len(_game_join(connection.vendor)[1])
        loaded = loaded_from_columns(values[:count])
        if loaded is not None and len(values) > count:
            log.events_read_with(loaded.game, self.after, values[count])
        # On the request the view reads it from (DRF's, whose attributes are its own).
        setattr(request, FOUND, (_game_id(request), loaded))


def read_with_token(request, game_id: int) -> tuple[bool, Loaded | None]:
    """(True, the game with its seats, or None) if the token's statement read game
    `game_id` for this request; (False, None) if it did not (no token, session sign-in,
    another id). Each read is handed out once: a second call reads afresh."""
    found = vars(request).pop(FOUND, None)
    if found is None or found[0] != game_id:
        return False, None
    return True, found[1]


def _game_id(request) -> int | None:
    game_id = (getattr(request, "parser_context", None) or {}).get("kwargs", {}).get("game_id")
    if isinstance(game_id, int) and not isinstance(game_id, bool) and 0 < game_id < 2**63:
        return game_id
    return None


@lru_cache(maxsize=4)
def _game_join(vendor: str) -> tuple[str, tuple]:
    columns, fields = game_columns(vendor)
    game = sql.table(Game)
    return (f"LEFT JOIN {game} ON {game}.{sql.quote('id')} = %s",
            tuple(zip(columns, fields, strict=True)))
