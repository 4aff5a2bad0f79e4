"""Who reads which chat lines of a game, and which moderator handles a report: the one rule
every surface asks (the chat API, box and page, the report form and API, turn mail, the
moderation pages and the admin).

- Table talk: everyone, as every game is public.
- A team's line: that team's seated players.
- A hidden line: everyone who sees it sees its place, not its text.
- Where moderators work (`moderating`: the moderation pages and the admin) a moderator with
  no stake in the game (games.moderation.stakes: they play in it, or entered its
  tournament) reads every line of it, team lines and hidden text included. A moderator with
  a stake reads there only what they read as a player; and on the players' surfaces every
  moderator reads as anyone else in their place.
- A report is handled (read in full, closed) by a moderator with no stake in its game who
  did not write the reported line.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from games.models import Game, Seat
from games.moderation import has_stake, staked
from games.store.row import team_of
from games.store.seats import Seats
from moderation.models import ChatMessage, Report
from moderation.permissions import can_moderate


@dataclass(frozen=True)
class Reading:
    """What one reader reads of one game's chat: the table talk and the lines of `teams`,
    or (`moderates`) every line, hidden text included."""

    teams: frozenset[int] = frozenset()
    moderates: bool = False

    def sees(self, message: ChatMessage) -> bool:
        """Whether the line has a place in what they read."""
        return self.moderates or message.team is None or message.team in self.teams

    def reads(self, message: ChatMessage) -> bool:
        """Whether they read its text."""
        return self.sees(message) and (self.moderates or not message.hidden)

    def seen(self) -> Q:
        """sees() as a filter of one game's messages."""
        if self.moderates:
            return Q()
        return Q(team__isnull=True) | Q(team__in=sorted(self.teams))

    def read(self) -> Q:
        """reads() as a filter of one game's messages."""
        return self.seen() if self.moderates else self.seen() & Q(hidden=False)


EVERY_LINE = Reading(moderates=True)


def seat_reading(game: Game, seat: int | None) -> Reading:
    """What the player in `seat` (None: anyone not seated) reads of the chat."""
    team = None if seat is None else team_of(game, seat)
    return Reading(frozenset() if team is None else frozenset([team]))


def reading(game: Game, seats: Seats, user, *, moderating: bool = False) -> Reading:
    """What `user` reads of `game`'s chat (seated as `seats`); `moderating` on the
    moderators' surfaces."""
    if moderating and can_moderate(user) and not has_stake(game.pk, user):
        return EVERY_LINE
    return seat_reading(game, seats.seat_of(user))


def readable_message(game: Game, seats: Seats, user,
                     message_id: int | None) -> ChatMessage | None:
    """The line `message_id` of `game` if `user` reads its text as a player, else None:
    a line they may not read answers exactly as one that does not exist."""
    if message_id is None:
        return None
    message = (ChatMessage.objects.select_related("user")
               .filter(pk=message_id, game=game).first())
    return (message if message is not None and reading(game, seats, user).reads(message)
            else None)


def readable_anywhere(user) -> Q:
    """The lines `user` reads where moderators work, in every game at once (the admin's
    list, search and filters): reading(game, seats, user, moderating=True) of each game."""
    where = Q(team__isnull=True, hidden=False)  # anyone's reading of any game
    by_team: dict[frozenset, list[int]] = {}
    for seat in Seat.objects.filter(user_id=user.pk, game__rules__team_size__gt=1) \
            .select_related("game"):
        teams = seat_reading(seat.game, seat.seat).teams
        by_team.setdefault(teams, []).append(seat.game_id)
    for teams, games in by_team.items():
        where |= Q(game_id__in=games) & Reading(teams).read()
    if can_moderate(user):
        where |= ~staked(user, "game_id")
    return where


def about(user, report: Report) -> bool:
    """Whether `report` concerns `user`: on a game they have a stake in, or on their line."""
    return has_stake(report.game_id, user) or (
        report.message_id is not None and report.message.user_id == user.pk)


def handles(user, report: Report) -> bool:
    """Whether `user` may read `report` in full and close it."""
    return can_moderate(user) and not about(user, report)


def handled(user) -> Q:
    """handles() as a filter of reports."""
    if not can_moderate(user):
        return Q(pk__in=[])
    return ~staked(user, "game_id") & ~Q(message__user_id=user.pk)
