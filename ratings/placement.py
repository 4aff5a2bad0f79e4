"""Where each seat finished, from a game's log alone: no Django here, like engine.

The winner (or winning team) is first; seats still in the game at the end share the next
place; the others are placed by when they left (eliminated, resigned, dropped, or handed
to a computer player), the last to leave best. A team shares one placement: it leaves when
its last member does.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine import events as ev

# The events that decide placements: the only ones a rebuild needs to read.
DEPARTURES = (ev.PLAYER_ELIMINATED, ev.PLAYER_DROPPED, ev.SEAT_TO_BOT)
PLACEMENT_EVENTS = (*DEPARTURES, ev.GAME_FINISHED)


def placements(events: Iterable[tuple[str, dict]], seats: int,
               team_size: int = 1) -> dict[int, int]:
    """{seat: place} for a finished game's (type, data) events in log order; place 1 is
    the best, and tied seats share a place (1, 2, 2, 4)."""
    teams = seats // team_size if team_size > 1 else seats
    left: dict[int, int] = {}
    winners: set[int] = set()
    for index, (kind, data) in enumerate(events):
        if kind in DEPARTURES:
            left.setdefault(data["seat"], index)
        elif kind == ev.GAME_FINISHED:
            won = data.get("winners")
            if won is None:
                won = [] if data.get("winner") is None else [data["winner"]]
            winners = {seat % teams for seat in won}
    # What decides a team's place: (0,) won, (1,) still in at the end, (2, -t) left at t.
    standing = {}
    for team in range(teams):
        members = range(team, seats, teams)
        if team in winners and (team_size > 1 or team not in left):
            standing[team] = (0, 0)
        elif all(seat in left for seat in members):
            standing[team] = (2, -max(left[seat] for seat in members))
        else:
            standing[team] = (1, 0)
    place = {team: 1 + sum(1 for other in standing.values() if other < mine)
             for team, mine in standing.items()}
    return {seat: place[seat % teams] for seat in range(seats)}
