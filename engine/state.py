"""The game state that replaying events builds, its phases, and questions asked of it."""

from __future__ import annotations

from dataclasses import dataclass, field

from .maps import CLASSIC_FIRST_HASH, Board, board_by_hash
from .options import Rules
from .pieces import COLORS, NEUTRAL

# Phases as docs/bots/contract.md names them. SETUP_DONE is a moment between the last setup event and
# the first turn_started that the same command always emits; no view ever shows it.
CLAIM, SETUP_PLACE, CAPITAL = "claim", "setup_place", "capital"
REINFORCE, ATTACK, OCCUPY, FORTIFY, NEUTRAL_PLACE = (
    "reinforce", "attack", "occupy", "fortify", "neutral_place",
)
SETUP_DONE = "setup_done"
SETUP_PHASES = (CLAIM, SETUP_PLACE, CAPITAL, SETUP_DONE)

# The engine's version: bump it when GameState's shape or a rule's behaviour changes.
# Snapshots of another version are not used (games.store.append); a game records the version it
# started under (GameState.engine) and plays on by that version's rules, so a stored game
# continues as it began.
# 3: a missed reinforcement leaves the neutral's half to the opponent (2 spread it itself).
ENGINE_VERSION = 3


@dataclass
class Player:
    seat: int
    color: str
    cards: list[int] = field(default_factory=list)
    mission: str | None = None
    capital: str | None = None
    defense: str = "max"
    # Under `neutral_dice: opponent`: the neutral's defence when this seat is not attacking.
    neutral_defense: str = "max"
    # The continents held when this seat's last turn started (`continent_bonus_after_round`).
    held_continents: list[str] = field(default_factory=list)
    eliminated: bool = False
    eliminated_by: int | None = None
    dropped: bool = False
    drop_reason: str | None = None
    missed_turns: int = 0
    setup_armies: int = 0
    submitted: bool = False  # simultaneous placement or capital choice handed in
    hidden_placement: dict | None = None  # simultaneous placement not yet disclosed
    bot: str | None = None  # the level of the computer player that took the seat over

    @property
    def out(self) -> bool:
        return self.eliminated or self.dropped

    def copy(self) -> Player:
        clone = Player.__new__(Player)
        clone.__dict__.update(self.__dict__)
        clone.cards = list(self.cards)
        clone.held_continents = list(self.held_continents)
        if self.hidden_placement is not None:
            clone.hidden_placement = dict(self.hidden_placement)
        return clone


@dataclass
class Occupation:
    source: str
    target: str
    minimum: int


@dataclass
class GameState:
    game_id: str
    rules: Rules
    order: list[int]
    players: list[Player]
    owner: dict  # territory -> seat | NEUTRAL | None
    armies: dict  # territory -> int
    version: int = 0
    phase: str | None = None
    finished: bool = False
    paused: bool = False  # a moderator stopped play (and the clock)
    winner: int | None = None
    finish_reason: str | None = None
    turn: int = 0
    round: int = 0  # rounds of play begun: a round begins when the turn order wraps around
    turn_seat: int | None = None  # whose turn it is
    current: int | None = None  # who must act now (None: every seat at once, or nobody)
    reinforcements: int = 0  # armies the acting seat must place now
    reinforce_value: int = 0  # this reinforce phase's total, for the neutral's half
    trade_down: bool = False  # mid-turn trade owed (elimination, hand limit): trade and place
    trade_limit: int = 4  # ... while the hand holds more than this many cards
    trade_resume: str = "attack"  # where play resumes after it: attack, fortify or end (turn)
    phase_trades: int = 0  # sets traded in this reinforce phase
    conquered: bool = False
    occupation: Occupation | None = None
    deck: list[int] = field(default_factory=list)  # draw pile, top first
    discard: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)  # out of play (`capital_card_out`)
    sets_traded: int = 0
    revealed_capitals: list[str] = field(default_factory=list)
    # The ENGINE_VERSION the game started under; games that do not say started under 2 or
    # before (which play alike).
    engine: int = 2
    # The turn seat's reinforcements were placed for them (a missed deadline): their turn
    # ends as soon as the neutral's half is placed.
    absent_turn: bool = False
    # The map version the game plays (game_started's map_hash); snapshots store its hash.
    board: Board | None = None

    # ---- copying and serialising -------------------------------------------------------
    def copy(self) -> GameState:
        clone = GameState.__new__(GameState)
        clone.__dict__.update(self.__dict__)
        clone.order = list(self.order)
        clone.players = [p.copy() for p in self.players]
        clone.owner = dict(self.owner)
        clone.armies = dict(self.armies)
        clone.deck = list(self.deck)
        clone.discard = list(self.discard)
        clone.removed = list(self.removed)
        clone.revealed_capitals = list(self.revealed_capitals)
        if self.occupation is not None:
            clone.occupation = Occupation(**self.occupation.__dict__)
        return clone

    def to_dict(self) -> dict:
        """A JSON-ready snapshot of the whole state, hidden parts included."""
        data = self.copy().__dict__  # a copy: the caller may keep it while play goes on
        data["rules"] = self.rules.to_dict()
        data["players"] = [dict(p.__dict__) for p in data["players"]]
        data["occupation"] = self.occupation and dict(self.occupation.__dict__)
        board = data.pop("board")
        data["map"], data["map_hash"] = board.id, board.hash
        return data

    @classmethod
    def from_dict(cls, data: dict) -> GameState:
        data = dict(data)
        data["rules"] = Rules.from_dict(data["rules"])
        data["players"] = [Player(**p) for p in data["players"]]
        data["occupation"] = data["occupation"] and Occupation(**data["occupation"])
        data["owner"] = dict(data["owner"])
        data.pop("map", None)
        data["board"] = board_by_hash(data.pop("map_hash", None) or CLASSIC_FIRST_HASH)
        return cls(**data)

    # ---- questions ---------------------------------------------------------------------
    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def has_neutral(self) -> bool:
        return self.rules.has_neutral(self.seats)

    # ---- cards -------------------------------------------------------------------------
    def trade_owed(self, seat: int) -> bool:
        """Whether `seat` must trade a set before placing or going on: in its reinforce
        phase with five cards or more (under `forced_trade: one_set`, until one set is
        traded), or mid-turn while the hand is above the limit it must come down to."""
        if self.phase != REINFORCE or self.turn_seat != seat:
            return False
        held = len(self.players[seat].cards)
        if self.trade_down:
            return held > self.trade_limit
        if held < 5:
            return False
        return self.rules.forced_trade != "one_set" or self.phase_trades == 0

    def may_trade(self, seat: int) -> bool:
        """Whether trading is allowed now (a set in hand aside): in the reinforce phase,
        and mid-turn only down to the limit, never further."""
        if self.phase != REINFORCE or self.turn_seat != seat:
            return False
        return not self.trade_down or len(self.players[seat].cards) > self.trade_limit

    # ---- teams -------------------------------------------------------------------------
    def team_of(self, seat: int) -> int:
        """A seat's team (docs/players/rules.md "Teams": seat s in team s % teams); its own seat without teams."""
        return seat % self.rules.team_count(self.seats)

    def allies(self, seat: int | None) -> frozenset[int]:
        """The seat and its teammates (nobody for a spectator)."""
        return self.rules.allies(self.seats, seat)

    def allied(self, seat: int, owner) -> bool:
        """Whether `owner` (a seat, the neutral or nobody) is `seat` or its teammate."""
        return isinstance(owner, int) and self.team_of(owner) == self.team_of(seat)

    def living_teams(self) -> list[int]:
        """Teams with a seat still in the game, in the turn order of their first seat."""
        return list(dict.fromkeys(self.team_of(s) for s in self.living()))

    def living(self) -> list[int]:
        """Seats still in the game, in turn order."""
        return [s for s in self.order if not self.players[s].out]

    def territories_of(self, owner) -> list[str]:
        return [t for t in self.board.territories if self.owner[t] == owner]

    def territory_count(self, owner) -> int:
        return sum(1 for o in self.owner.values() if o == owner)

    def continents_of(self, seat: int) -> dict[str, int]:
        owner = self.owner
        bonus = self.board.continent_bonus
        return {
            c: bonus[c]
            for c, ts in self.board.continent_territories.items()
            if all(owner[t] == seat for t in ts)
        }

    def border_territories(self, seat: int) -> list[str]:
        """Own territories next to someone else's, in board order (all own if none is)."""
        owner = self.owner
        neighbours = self.board.neighbours
        own = [t for t in self.board.territories if owner[t] == seat]
        border = [t for t in own if any(owner[n] != seat for n in neighbours[t])]
        return border or own

    def capital_holders(self) -> dict[str, object]:
        return {p.capital: self.owner[p.capital] for p in self.players if p.capital}

    def next_seat(self, after: int) -> int | None:
        """The next living seat after `after` in turn order (itself if no one else lives)."""
        order = self.order
        start = order.index(after)
        for step in range(1, len(order) + 1):
            seat = order[(start + step) % len(order)]
            if not self.players[seat].out:
                return seat
        return None

    def starts_a_round(self, seat: int) -> bool:
        """Whether `seat`'s next turn begins a new round: the turn order wraps around."""
        previous = self.turn_seat
        return previous is None or self.order.index(seat) <= self.order.index(previous)

    def opponent_of(self, seat: int) -> int:
        """The other seat of a two-player game."""
        return 1 - seat

    def is_capital(self, territory: str) -> int | None:
        for p in self.players:
            if p.capital == territory:
                return p.seat
        return None

    def colour(self, seat) -> str:
        return NEUTRAL if seat == NEUTRAL else COLORS[seat]
