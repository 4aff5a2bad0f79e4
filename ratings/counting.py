"""What a finished game counts for the ratings: whether it was really played, and how much
a game between the same opponents or against a newcomer counts. Rules of the ratings, read
from the log alone (no Django here).

A seat played a game when its player made decisions of their own in at least
MIN_OWN_TURNS of its turns: in a turn of that seat, a battle, an occupation, a
fortification, a trade of cards, the end of the attack or the end of the turn, made by a
command the player sent. The clock's decisions (timeouts), a computer player's, a
moderator's and a resignation's are not the player's own. Seats that did not play are left
out of the rating; the others are rated if they are still on two sides or more.

A game between two players who already met as opponents in counted games within
PAIR_WINDOW before it moves each rating by half as much for every such game: 1, 1/2, 1/4...
so one pair can never move a rating by more than two full games' worth in any window.

A player with fewer than `established_at` earlier counted games (whatever share each had)
is provisional: what a game against them gives their opponents is scaled by k/N, k of N
games. A seat's share is the mean establishment of its opponents (the seats of the other
sides), times the pair discount: Plackett-Luce moves a seat by the sum of what each
comparison with an opponent says, so the mean counts each opponent for the part of the
change it brings. Fresh accounts are worth nothing to a farmer, while one newcomer at a
table of established players costs them only its own share (the minimum would void the
whole table's game), and an established accomplice beside throwaways brings no more than
a game against it alone (the maximum would bring the whole table). A newcomer's own share
against established players is full.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import timedelta

from engine import events as ev

MIN_OWN_TURNS = 2
PAIR_WINDOW = timedelta(days=30)

# What a seat's own command does in its own turn: playing, not merely being seated.
TURN_DECISIONS = frozenset({ev.BATTLE, ev.OCCUPIED, ev.FORTIFIED, ev.CARDS_TRADED,
                            ev.ATTACK_ENDED, ev.TURN_ENDED})
# A seat's own decisions stop when it leaves: the turn its resignation ends is not played.
LEAVING = frozenset({ev.PLAYER_DROPPED, ev.PLAYER_ELIMINATED, ev.SEAT_TO_BOT})
# The events the rule reads (with their actor and whether a person sent the command).
PLAYED_EVENTS = (ev.TURN_STARTED, *TURN_DECISIONS, *LEAVING)


def own_turns(events: Iterable[tuple[str, dict, int | None, bool]]) -> Counter:
    """{seat: turns in which it made a decision of its own} from a game's (type, data,
    actor, sent_by_a_person) events in log order; `actor` is the seat whose command made
    the event, `sent_by_a_person` whether a person sent that command."""
    counted: Counter = Counter()
    turn, turn_seat, counted_turn = 0, None, None
    gone: set = set()
    for kind, data, actor, by_person in events:
        if kind == ev.TURN_STARTED:
            turn, turn_seat = turn + 1, data.get("seat")
        elif kind in LEAVING:
            gone.add(data.get("seat"))
        elif (by_person and actor is not None and actor == turn_seat and actor not in gone
              and counted_turn != turn):
            counted[actor] += 1
            counted_turn = turn
    return counted


def played_seats(events, seats: Iterable[int]) -> set[int]:
    """The seats among `seats` that played the game (see the module's rule)."""
    turns = own_turns(events)
    return {seat for seat in seats if turns[seat] >= MIN_OWN_TURNS}


def weight(earlier_meetings: int) -> float:
    """The share of a full game's rating change for a player who met this game's most
    frequent opponent `earlier_meetings` times in counted games within the window."""
    return 0.5 ** earlier_meetings


def establishment(counted_games: int, established_at: int) -> float:
    """How much a game against a player with `counted_games` earlier counted games is
    worth: k/N until N, then 1 (with N = 0 everyone is established)."""
    if established_at <= 0:
        return 1.0
    return min(counted_games, established_at) / established_at


def opponents_share(establishments: list[float]) -> float:
    """A seat's share of a full change for opponents this established: their mean."""
    return sum(establishments) / len(establishments) if establishments else 1.0


def meetings(met: list, finished_at) -> int:
    """How many of the finishing moments in `met` (oldest first) fall within the window
    before `finished_at`; forgets, in place, those that never will again."""
    since = finished_at - PAIR_WINDOW
    stale = 0
    while stale < len(met) and met[stale] < since:
        stale += 1
    del met[:stale]
    return len(met)
