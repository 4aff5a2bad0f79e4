"""Which of a player's games wait for their decision now (the count every page's title and
the user stream carry: web.context, live.views): one indexed query over their seats in games
under way; the few where every seat acts at once (a simultaneous placement, capitals) are
read from their state."""

from __future__ import annotations

from engine.moves import seats_to_act
from games.models import Game, Seat
from games.store.states import load_states


def games_waiting_for(user_id: int | None) -> list[int]:
    """The ids of the user's games under way that wait for their seat, in id order."""
    if user_id is None:
        return []
    seats = (Seat.objects.filter(user_id=user_id, bot__isnull=True, game__status=Game.ACTIVE)
             .order_by("game_id").values_list("game_id", "seat", "game__current_seat"))
    waiting, at_once = [], {}
    for game_id, seat, current in seats:
        if current == seat:
            waiting.append(game_id)
        elif current is None:
            at_once[game_id] = seat
    if at_once:
        states = load_states(list(Game.objects.filter(pk__in=at_once)))
        waiting += [game_id for game_id, seat in at_once.items()
                    if states.get(game_id) is not None and seat in seats_to_act(states[game_id])]
    return sorted(waiting)
