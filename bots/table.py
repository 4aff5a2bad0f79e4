"""What a computer player knows: one seat's view of the game (the game view of docs/bots/contract.md,
`you` included) and the game's public rules, read into the few facts its choices need.

Nothing else comes in: no seed, no deck order, no other seat's cards or mission.
"""

from __future__ import annotations

from collections import deque
from functools import cache, cached_property

from engine.maps import DEFAULT_MAP, Board, board_by_hash, shipped
from engine.odds import armies_left, conquer_probability
from engine.pieces import NEUTRAL


@cache
def board_facts(board: Board) -> tuple[dict, dict, frozenset]:
    """What a player reads of a map, worked out once per map version: each continent's
    entries (its territories with a neighbour in another continent, the ones a holder must
    guard), the conquer missions' continents, and the occupy missions."""
    entries = {
        continent: frozenset(x for x in members if any(
            board.continent_of[n] != continent for n in board.neighbours[x]))
        for continent, members in board.continent_territories.items()
    }
    conquer = {m["id"]: tuple(m["continents"]) for m in board.missions
               if m["kind"] == "conquer"}
    occupy = frozenset(m["id"] for m in board.missions if m["kind"] == "occupy")
    return entries, conquer, occupy


class Table:
    """The board from one seat, with the measures every level reads."""

    def __init__(self, view: dict, rules: dict) -> None:
        you = view["you"]
        self.view, self.rules = view, rules
        # The board the view's game plays, by its hash (a bot reads no database: the
        # service's own lookup is games.boards.board_of_view); a view without one: classic.
        map_hash = view.get("map_hash")
        board = self.board = (board_by_hash(map_hash) if map_hash
                              else shipped(view.get("map") or DEFAULT_MAP))
        self.territories = board.territories
        self.neighbours = board.neighbours
        self.continent_of = board.continent_of
        self.continent_bonus = board.continent_bonus
        self.continent_territories = board.continent_territories
        self.cards = board.cards
        self.entries, self.conquer_missions, self.occupy_missions = board_facts(board)
        self.me: int = you["seat"]
        self.phase: str | None = view["phase"]
        self.pending: dict = view["pending"]
        self.may: dict = you["may"]
        self.commands: list[str] = self.may["commands"]
        self.hand: list[int] = [card["id"] for card in you["cards"]]
        self.sets: list[list[int]] = you["tradeable_sets"]
        mission = you.get("mission")
        self.mission: str | None = mission["effective"] if mission else None
        self.capital: str | None = you.get("capital")
        # Under fog a territory out of sight has no owner or armies: the player reads it as
        # nobody's, with no armies, and plans with what it sees.
        self.owner: dict = {t: v["owner"] for t, v in view["territories"].items()}
        self.armies: dict = {t: v["armies"] or 0 for t, v in view["territories"].items()}
        self.fogged = frozenset(t for t, v in view["territories"].items() if v.get("fog"))
        # Fogged totals (another team's territories) read as "still many".
        self.players: list[dict] = [
            p if p["territories"] is not None else dict(p, territories=len(self.territories))
            for p in view["players"]]
        team = you.get("team")
        self.allies = frozenset([self.me]) | frozenset(
            p["seat"] for p in view["players"] if team is not None and p.get("team") == team)
        self.defense = {p["seat"]: p["defense"] for p in view["players"]}
        self.capitals: dict = view.get("capitals") or {}
        self.mine = [t for t in self.territories if self.owner[t] == self.me]

    # ---- who holds what -----------------------------------------------------------
    def enemy(self, territory: str) -> bool:
        """Held by another team or the neutral (a teammate's is never attacked)."""
        owner = self.owner[territory]
        return owner is not None and owner not in self.allies

    def hostile(self, territory: str) -> bool:
        """Held by a player who can attack (the neutral never does)."""
        owner = self.owner[territory]
        return owner is not None and owner not in self.allies and owner != NEUTRAL

    def defense_of(self, territory: str) -> str:
        owner = self.owner[territory]
        return "max" if owner == NEUTRAL else self.defense.get(owner, "max")

    @cached_property
    def living(self) -> list[int]:
        return [p["seat"] for p in self.players
                if not p["eliminated"] and not p["dropped"] and p["territories"] > 0]

    def player(self, seat) -> dict | None:
        if isinstance(seat, int) and 0 <= seat < len(self.players):
            return self.players[seat]
        return None

    @cached_property
    def holds(self) -> dict[str, object]:
        """Each continent's sole holder (a seat or the neutral), if anyone holds it all."""
        held = {}
        for continent, territories in self.continent_territories.items():
            owners = {self.owner[t] for t in territories}
            if len(owners) == 1:
                held[continent] = owners.pop()
        return held

    def share(self, continent: str, seat=None) -> float:
        seat = self.me if seat is None else seat
        territories = self.continent_territories[continent]
        return sum(1 for t in territories if self.owner[t] == seat) / len(territories)

    # ---- fronts ---------------------------------------------------------------------
    def threat(self, territory: str) -> int:
        """Armies that could attack `territory` next turn from its hostile neighbours."""
        return sum(self.armies[n] - 1 for n in self.neighbours[territory]
                   if self.hostile(n) and self.armies[n] > 1)

    @cached_property
    def borders(self) -> list[str]:
        """Own territories with an enemy (or neutral) neighbour."""
        return [t for t in self.mine if any(self.enemy(n) for n in self.neighbours[t])]

    @cached_property
    def front_distance(self) -> dict[str, int]:
        """For own territories: steps through own territories to the nearest border."""
        distance = {t: 0 for t in self.borders}
        queue = deque(self.borders)
        while queue:
            here = queue.popleft()
            for there in self.neighbours[here]:
                if self.owner[there] == self.me and there not in distance:
                    distance[there] = distance[here] + 1
                    queue.append(there)
        return distance

    # ---- odds -------------------------------------------------------------------------
    def odds(self, armies: int, target: str) -> float:
        return conquer_probability(armies, self.armies[target], self.defense_of(target))

    def left_after(self, armies: int, target: str) -> float:
        return armies_left(armies, self.armies[target], self.defense_of(target))

    # ---- cards ------------------------------------------------------------------------
    def set_value(self, trio) -> int:
        if self.rules.get("card_values", "escalating") == "fixed":
            symbols = [self.cards[c][1] for c in trio]
            wilds = symbols.count("wild")
            real = [s for s in symbols if s != "wild"]
            values = self.rules.get("fixed_values") or {}
            kinds = [s for s in ("infantry", "cavalry", "artillery")
                     if real.count(s) + wilds == 3]
            if len(set(real)) == len(real):
                kinds.append("mixed")
            return max((values.get(k, 0) for k in kinds), default=0)
        return self.view.get("next_set_value") or 0
