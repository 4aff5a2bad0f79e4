"""A game's story read from its log: each seat's territories, armies and income turn by turn,
and what each turn did (conquests with their odds, continents taken and broken, eliminations).

Pure like the engine it replays (no Django): the charts, the win chance's play-outs
(bots.outlook) and the API read the same Story.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from . import events as ev
from .evolve import evolve
from .odds import conquer_probability, defense_of
from .pieces import NEUTRAL


@dataclass
class Conquest:
    """A territory taken in a turn, and the chance an all-out assault had of taking it when
    its first roll was made (the armies on both sides then)."""

    territory: str
    defender: object  # a seat or the neutral
    odds: float


@dataclass
class Turn:
    """One turn: whose, and the board once it was over (a list per seat)."""

    turn: int
    seat: int
    territories: list[int] = field(default_factory=list)
    armies: list[int] = field(default_factory=list)
    income: list[int | None] = field(default_factory=list)  # each seat's latest income
    conquests: list[Conquest] = field(default_factory=list)
    continents_taken: list[str] = field(default_factory=list)
    continents_broken: list[tuple[str, int]] = field(default_factory=list)  # (continent, holder)
    eliminated: list[int] = field(default_factory=list)
    left: list[int] = field(default_factory=list)  # seats that resigned or were dropped
    battles: list[dict] = field(default_factory=list)  # the battle events' data


@dataclass
class Story:
    """A game told turn by turn. `start` is the board after setup (turn 0); `positions`
    (kept on request) the state at the start of each turn, after its turn_started, for play-outs."""

    seats: int
    teams: int
    start: Turn | None = None
    turns: list[Turn] = field(default_factory=list)
    positions: list = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    finished: bool = False
    board: object = None  # the map played (engine.maps.Board)

    def points(self) -> list[Turn]:
        """The board after 0, 1, 2, ... turns."""
        return ([self.start] if self.start else []) + self.turns

    def team_of(self, seat: int) -> int:
        return seat % self.teams


def _count(state, seats: int) -> tuple[list[int], list[int]]:
    territories, armies = [0] * seats, [0] * seats
    owner = state.owner
    for territory, count in state.armies.items():
        holder = owner.get(territory)
        if isinstance(holder, int) and 0 <= holder < seats:
            territories[holder] += 1
            armies[holder] += count
    return territories, armies


def _held(state, seats: int) -> dict[str, int]:
    """continent -> the seat holding all of it."""
    owner, held = state.owner, {}
    for continent, territories in state.board.continent_territories.items():
        holders = {owner[t] for t in territories}
        if len(holders) == 1:
            (holder,) = holders
            if isinstance(holder, int) and holder < seats:
                held[continent] = holder
    return held


def _assault_odds(state, data: dict) -> float:
    source, target, defender = data["from"], data["to"], data.get("defender")
    neutral = defender == NEUTRAL or not isinstance(defender, int)
    policy = "max"
    if not neutral:
        policy = state.players[defender].defense
    elif state.rules.neutral_dice == "opponent":
        policy = state.players[data["seat"]].neutral_defense
    defense = defense_of(policy, neutral, state.rules.neutral_dice)
    return conquer_probability(state.armies[source], state.armies[target],
                               defense if defense in ("max", "one") else "max")


def _close(turn: Turn, state, seats: int, held_before: dict, income: list) -> None:
    turn.territories, turn.armies = _count(state, seats)
    turn.income = list(income)
    held_after = _held(state, seats)
    turn.continents_taken = [c for c, s in held_after.items()
                             if s == turn.seat and held_before.get(c) != s]
    turn.continents_broken = [(c, s) for c, s in held_before.items()
                              if held_after.get(c) != s and s != turn.seat]


class StoryReader:
    """read_story in steps: what reading the events so far left (the state, the turn under
    way, the assault, each seat's income) is kept, so a story can be carried on with the
    events that follow instead of replaying the log again (a running game's page)."""

    def __init__(self, keep_positions: bool = False):
        self.keep_positions = keep_positions
        self.state, self.story, self.turn = None, None, None
        self.held_before: dict = {}
        self.assault: tuple | None = None  # (from, to) of the assault under way, and its odds
        self.income: list = []

    @property
    def version(self) -> int:
        """The seq of the last event read (0 before any)."""
        return 0 if self.state is None else self.state.version

    def read(self, events) -> StoryReader:
        """Read `events` (the engine's Event records, in order, following those read)."""
        for event in events:
            self._read(event)
        return self

    def _read(self, event) -> None:
        kind, data, story, turn = event.type, event.data, self.story, self.turn
        if kind == ev.TURN_STARTED and story is not None:
            if turn is None:
                story.start = Turn(0, -1)
                _close(story.start, self.state, story.seats, {}, self.income)
            else:
                _close(turn, self.state, story.seats, self.held_before, self.income)
                story.turns.append(turn)
            self.held_before = _held(self.state, story.seats)
            turn = self.turn = Turn(data.get("turn", len(story.turns) + 1), data["seat"])
            self.assault = None
        elif kind == ev.BATTLE and turn is not None:
            turn.battles.append(data)
            if self.assault is None or self.assault[0] != (data["from"], data["to"]):
                self.assault = ((data["from"], data["to"]), _assault_odds(self.state, data))
            if data.get("conquered"):
                turn.conquests.append(Conquest(data["to"], data.get("defender"),
                                               self.assault[1]))
                self.assault = None
        elif kind == ev.PLAYER_ELIMINATED and turn is not None and data.get("by") == turn.seat:
            turn.eliminated.append(data["seat"])
        elif kind == ev.PLAYER_DROPPED and turn is not None:
            turn.left.append(data["seat"])
        state = self.state = evolve(self.state, event)
        if kind == ev.GAME_STARTED:
            seats = state.seats
            self.story = Story(seats, state.rules.team_count(seats), board=state.board)
            self.income = [None] * seats
        elif kind == ev.TURN_STARTED:
            self.income[data["seat"]] = data.get("total", 0)
            if self.keep_positions:
                story.positions.append(state.copy())
        elif kind == ev.CARDS_TRADED and turn is not None and data.get("seat") == turn.seat:
            self.income[turn.seat] = (self.income[turn.seat] or 0) + (data.get("value") or 0)

    def story_now(self) -> Story:
        """The story of the events read so far, the turn under way closed as it stands;
        the reader may go on reading after it."""
        if self.story is None:  # a game that never started (cancelled while open)
            return Story(0, 1)
        found = replace(self.story, turns=list(self.story.turns),
                        positions=list(self.story.positions))
        if self.turn is not None:
            turn = replace(self.turn, conquests=list(self.turn.conquests),
                           eliminated=list(self.turn.eliminated), left=list(self.turn.left),
                           battles=list(self.turn.battles))
            _close(turn, self.state, found.seats, self.held_before, self.income)
            found.turns.append(turn)
        found.finished = self.state.finished
        if self.state.finished and self.state.winner is not None:
            found.winners = sorted(s for s in range(found.seats)
                                   if found.team_of(s) == found.team_of(self.state.winner))
        return found


def read_story(events, keep_positions: bool = False) -> Story:
    """Replay `events` (the engine's Event records, in order) into a Story; with
    keep_positions, a copy of the state at each turn's start too."""
    return StoryReader(keep_positions).read(events).story_now()


def series(story: Story) -> dict:
    """The charts' numbers: {turns: [0, 1, ...], territories/armies/income: one list per
    seat, a number per turn (income None before the seat's first turn)}."""
    points = story.points()
    return {
        "turns": [p.turn for p in points],
        "territories": [[p.territories[s] for p in points] for s in range(story.seats)],
        "armies": [[p.armies[s] for p in points] for s in range(story.seats)],
        "income": [[p.income[s] for p in points] for s in range(story.seats)],
    }
