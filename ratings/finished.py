"""A finished game's facts as recording reads them (ratings.recording): its seats, who
played it, placements, winners, dice luck and why it moves no rating, read from its row,
seats and log in a few queries for a batch of games."""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass, field

from accounts.bots import other_owners
from engine import events as ev
from games.models import Event, Game, Seat
from ratings import counting
from ratings.luck import Luck, luck_by_seat
from ratings.models import RatingVoid
from ratings.placement import PLACEMENT_EVENTS, placements

# Why a game moved a player's rating not at all (PlayerResult.why), or, for NEWCOMERS, less
# than a full game; the pages and the end mail say it in words (ratings.changes).
WHY_UNRATED = "unrated"  # its creator chose so
WHY_COMPUTERS = "computers"  # computer players seated, and nobody chose it rated
WHY_OWNER_BOT = "owner_bot"  # a bot account at its owner's table
WHY_VOIDED = "voided"  # a moderator voided it
WHY_NOT_PLAYED = "not_played"  # the player made no decisions of their own in enough turns
WHY_ONE_SIDE = "one_side"  # nobody else who played it was on another side
WHY_NEWCOMERS = "newcomers"  # rated, scaled down for opponents new to rated games
WHY_PROVISIONAL = "provisional"  # a newcomer's game: their provisional rating moved
WHY_COMPUTER_SEAT = "computer"  # the seat of a computer player: it has no rating


@dataclass
class Finished:
    """What recording one finished game needs, read from its row, seats and log."""

    game_id: int
    finished_at: object
    seats: int
    team_size: int
    rated: bool
    humans: dict[int, int]  # seat -> user id
    places: dict[int, int]
    winners: set[int]
    luck: dict[int, Luck] = field(default_factory=dict)
    played: set[int] = field(default_factory=set)  # human seats that played it
    voided: bool = False  # a moderator voided its rating
    unrated_because: str = ""  # WHY_UNRATED, WHY_COMPUTERS or WHY_OWNER_BOT if not rated
    map: str = ""  # noqa: A003
    rules_key: str = ""
    private: bool = False
    computers: dict[int, int] = field(default_factory=dict)  # seat -> its account's user id

    def side(self, seat: int) -> int:
        teams = self.seats // self.team_size if self.team_size > 1 else self.seats
        return seat % teams

    @property
    def rated_seats(self) -> set[int]:
        """The human seats whose ratings this game moves (none, or two sides or more)."""
        if not self.rated or self.voided:
            return set()
        seats = {seat for seat in self.humans if seat in self.played}
        return seats if len({self.side(seat) for seat in seats}) >= 2 else set()

    @property
    def moves_ratings(self) -> bool:
        return bool(self.rated_seats)

    def why_not_rated(self, seat: int, rated_seats: set[int]) -> str:
        """Why the game moves no rating of `seat` (WHY_*), or "" if it moves it."""
        if not self.rated:
            return self.unrated_because or WHY_UNRATED
        if self.voided:
            return WHY_VOIDED
        if seat not in self.played:
            return WHY_NOT_PLAYED
        return "" if seat in rated_seats else WHY_ONE_SIDE


def rules_key(rules: dict | None) -> str:
    """A fingerprint of a game's rules: equal for equal rules, whatever their keys' order."""
    text = json.dumps(rules or {}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


READ_EVENTS = tuple(dict.fromkeys((*PLACEMENT_EVENTS, ev.BATTLE, *counting.PLAYED_EVENTS)))


def read_finished(games: list[Game]) -> list[Finished]:
    """The facts of these finished games, in the order given, in five queries."""
    ids = [game.pk for game in games]
    seated: dict[int, list[tuple[int, int, str | None]]] = defaultdict(list)
    for game_id, seat, user_id, bot in Seat.objects.filter(game_id__in=ids).values_list(
            "game_id", "seat", "user_id", "bot"):
        seated[game_id].append((seat, user_id, bot))
    logged: dict[int, list[tuple[str, dict, int | None, bool]]] = defaultdict(list)
    for game_id, kind, data, actor, user_id in (Event.objects.filter(
            game_id__in=ids, type__in=READ_EVENTS).order_by("game_id", "seq")
            .values_list("game_id", "type", "data", "actor", "user_id")):
        logged[game_id].append((kind, data, actor, user_id is not None))
    voided = set(RatingVoid.objects.filter(game_id__in=ids).values_list("game_id", flat=True))
    run_by = other_owners({user_id for rows in seated.values() for _, user_id, _ in rows})
    found = []
    for game in games:
        rows = seated[game.pk]
        team_size = int((game.rules or {}).get("team_size") or 1)
        events = logged[game.pk]
        places = placements([e[:2] for e in events if e[0] in PLACEMENT_EVENTS],
                            game.players, team_size)
        winners = set()
        for kind, data, _, _ in events:
            if kind == ev.GAME_FINISHED:
                named = data.get("winners")
                if named is None:
                    named = [] if data.get("winner") is None else [data["winner"]]
                winners = {seat for seat in named if places.get(seat) == 1}
        rated = game.rated if game.rated is not None else not any(bot for _, _, bot in rows)
        unrated_because = "" if rated else (
            WHY_UNRATED if game.rated is not None else WHY_COMPUTERS)
        humans = {seat: user_id for seat, user_id, bot in rows if not bot}
        computers = {seat: user_id for seat, user_id, bot in rows if bot and user_id}
        if any(run_by.get(user_id) in humans.values() for user_id in humans.values()):
            # A bot account at its owner's table could lose on purpose for them: the game
            # moves no rating, for anyone.
            rated, unrated_because = False, WHY_OWNER_BOT
        found.append(Finished(
            game_id=game.pk, finished_at=game.finished_at, seats=game.players,
            team_size=team_size, rated=rated, humans=humans, computers=computers,
            places=places, winners=winners,
            luck=luck_by_seat([e[1] for e in events if e[0] == ev.BATTLE], game.players),
            played=counting.played_seats(
                [e for e in events if e[0] in counting.PLAYED_EVENTS], humans),
            voided=game.pk in voided, unrated_because=unrated_because,
            map=game.map, rules_key=rules_key(game.rules), private=game.private,
        ))
    return found
