"""The three computer players. Each turns a Table (one seat's view) into one JSON command
of CONTRACT.md; the game asks again until the seat owes nothing.

- easy: plausible, weak moves: it spreads its armies, attacks when it simply has more,
  trades only when it must and rarely fortifies.
- normal: a sound standard strategy: it builds towards the continent it is closest to,
  masses its reinforcements where it attacks, breaks other players' continent bonuses,
  trades whenever it can, and moves idle armies to the front.
- hard: plans. It picks the continent it can take and hold most cheaply and makes for it,
  scores multi-step attack paths for the turn with exact battle odds, values eliminations
  for the cards they bring, guards the borders of what it holds (and its capital), and
  plays towards its mission.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.rules.board import (
    CARDS,
    COLORS,
    CONTINENT_BONUS,
    CONTINENT_OF,
    CONTINENT_TERRITORIES,
    NEIGHBOURS,
    NEUTRAL,
    TERRITORIES,
)

from .reading import Table

# Each continent's entries: its territories with a neighbour in another continent, the ones
# a holder must guard.
ENTRIES = {
    continent: frozenset(x for x in members if any(CONTINENT_OF[n] != continent
                                                   for n in NEIGHBOURS[x]))
    for continent, members in CONTINENT_TERRITORIES.items()
}

# What guarding one entry of a continent costs, in armies, when choosing the continent to
# take: a guard stands there turn after turn, so it weighs more than the armies spent once
# taking it. Measured: 3 and 5 chose continents hard could not keep (Europe, Asia) too often.
GUARD = 8

_CONQUER_MISSIONS = {
    "north_america_africa": ("north_america", "africa"),
    "north_america_australia": ("north_america", "australia"),
    "asia_south_america": ("asia", "south_america"),
    "asia_africa": ("asia", "africa"),
    "europe_south_america_plus_one": ("europe", "south_america"),
    "europe_australia_plus_one": ("europe", "australia"),
}


@dataclass(frozen=True)
class Style:
    name: str
    noise: float            # random jitter added to every score
    attack_odds: float      # the least chance of taking a territory it attacks
    depth: int              # how many territories an attack path may chain
    trades_early: bool      # trade whenever a set is in hand (else only when forced)
    fortifies: float        # chance it fortifies when it could
    defends: bool           # keeps armies on threatened borders of what it holds
    missions: bool          # plays towards its mission
    margin: float = 0.0     # what an attack must be worth once the turn's card is earned
    exact: bool = False     # exact battle odds (else the rule of thumb: armies against armies)
    eliminations: bool = False  # counts the cards an elimination brings
    plans: float = 0.0      # worth added to the continent it plans to take and hold (0: none)


STYLES = {
    "easy": Style("easy", noise=3.0, attack_odds=0.0, depth=1, trades_early=False,
                  fortifies=0.3, defends=False, missions=False),
    "normal": Style("normal", noise=0.3, attack_odds=0.6, depth=1, trades_early=True,
                    fortifies=1.0, defends=False, missions=False),
    "hard": Style("hard", noise=0.0, attack_odds=0.5, depth=6, trades_early=True,
                  fortifies=1.0, defends=True, missions=True, margin=4.0,
                  exact=True, eliminations=True, plans=3.0),
}


class Player:
    # Territories one path search may look at: enough for every sensible chain of a turn,
    # and a bound on a decision's time however many armies and enemies there are.
    PATH_BUDGET = 1500

    def __init__(self, table: Table, style: Style, rnd: random.Random) -> None:
        self.t, self.style, self.rnd = table, style, rnd
        self._values: dict[str, float] = {}
        self._plan: str | None | bool = False  # not chosen yet

    def dragging_on(self) -> bool:
        """An easy player in a game that drags on (two timid players behind a neutral's
        walls) turns bolder, so that games end: it masses, attacks and moves in."""
        return self.style.name == "easy" and (self.t.view.get("round") or 0) > 150

    def jitter(self) -> float:
        return self.rnd.random() * self.style.noise if self.style.noise else 0.0

    def chance(self, armies: int, target: str) -> float:
        """The chance of taking `target` with `armies` on the source: exact for a player
        that computes it, else the rule of thumb of attacking armies against defenders."""
        if self.style.exact:
            return self.t.odds(armies, target)
        attackers, defenders = armies - 1, self.t.armies[target]
        return 0.0 if attackers < 1 else attackers / (attackers + defenders)

    # ---- what a territory is worth to take --------------------------------------------
    def continent_weight(self, continent: str) -> float:
        """How much the player wants this continent: its bonus for the armies it takes,
        the share it holds already, and the mission's continents."""
        t = self.t
        territories = CONTINENT_TERRITORIES[continent]
        share = t.share(continent)
        weight = CONTINENT_BONUS[continent] / len(territories) * 4 + share * 3
        if self.style.missions and t.mission in _CONQUER_MISSIONS:
            if continent in _CONQUER_MISSIONS[t.mission]:
                weight += 4
        return weight

    def plan(self) -> str | None:
        """The continent a planner sets out to take and hold: the most bonus for the armies
        it costs. Taking costs the defenders inside (and one army left in each territory
        taken); holding costs a guard on each entry, and more where enemies mass outside it
        (two-thirds of their armies: an attacker wants half as many again as the guard). A
        bonus by territories alone would rate Europe above Australia, which one army at
        Indonesia can hold. None when it holds every continent it can reach."""
        if self._plan is not False:
            return self._plan
        t = self.t
        best, best_score = None, 0.0
        for continent, members in CONTINENT_TERRITORIES.items():
            if t.holds.get(continent) == t.me:
                continue
            if not any(t.owner[x] == t.me or any(t.owner[n] == t.me for n in NEIGHBOURS[x])
                       for x in members):
                continue  # out of reach
            take = sum(t.armies[x] + 1 for x in members if t.enemy(x))
            own = sum(t.armies[x] - 1 for x in members if t.owner[x] == t.me)
            hold = sum(GUARD + self.outside_threat(x, continent) / 1.5
                       for x in ENTRIES[continent])
            score = CONTINENT_BONUS[continent] / max(1.0, take - own / 2 + hold)
            if score > best_score:
                best, best_score = continent, score
        self._plan = best
        return best

    def outside_threat(self, entry: str, continent: str) -> int:
        """Hostile armies next to a continent's entry from outside the continent."""
        t = self.t
        return sum(t.armies[n] - 1 for n in NEIGHBOURS[entry]
                   if CONTINENT_OF[n] != continent and t.hostile(n) and t.armies[n] > 1)

    def value(self, target: str, taken: frozenset = frozenset()) -> float:
        """What conquering `target` is worth (after taking the territories in `taken`)."""
        t = self.t
        owner = t.owner[target]
        continent = CONTINENT_OF[target]
        score = self.base_value(target)
        members = CONTINENT_TERRITORIES[continent]
        if all(t.owner[m] == t.me or m in taken or m == target for m in members):
            score += CONTINENT_BONUS[continent] * 2.5 + 2
        if isinstance(owner, int) and owner != t.me:
            player = t.player(owner)
            remaining = player["territories"] - sum(1 for x in taken if t.owner[x] == owner)
            if remaining <= 1:
                score += 3
                if self.style.eliminations:  # their cards come over
                    score += 3 + self.card_worth() * player["cards"]
            elif remaining <= 3 and self.style.eliminations:
                score += self.card_worth() / 2 * player["cards"] / remaining
        return score

    def card_worth(self) -> float:
        """What one card taken from an eliminated player is worth: a third of the next set
        (with escalating values the cards are what an elimination is for, late in a game
        more than any continent), and never less than early in the game."""
        return max(3.0, (self.t.view.get("next_set_value") or 0) / 3)

    def base_value(self, target: str) -> float:
        """The part of a territory's worth that does not depend on what else is taken."""
        cached = self._values.get(target)
        if cached is not None:
            return cached
        t = self.t
        owner = t.owner[target]
        continent = CONTINENT_OF[target]
        score = 1.0 + self.continent_weight(continent) * 0.5
        holder = t.holds.get(continent)
        if holder is not None and holder != t.me and holder != NEUTRAL:
            score += CONTINENT_BONUS[continent] * 2  # breaks another player's bonus
        if owner == NEUTRAL:
            score -= 0.5
        if self.style.plans and continent == self.plan():
            score += self.style.plans
        if target in t.capitals and t.capitals[target] != t.me:
            score += 8
        if self.style.missions and t.mission:
            if t.mission == "occupy_24" or t.mission == "occupy_18_with_2":
                score += 1.5
            elif t.mission.startswith("destroy_") and owner == COLORS.index(t.mission[8:]):
                score += 5
        self._values[target] = score
        return score

    # ---- setup --------------------------------------------------------------------------
    def claim(self) -> dict:
        t = self.t
        free = [x for x in TERRITORIES if t.owner[x] is None]

        def score(x):
            continent = CONTINENT_OF[x]
            members = CONTINENT_TERRITORIES[continent]
            others = sum(1 for m in members if t.enemy(m))
            mine = sum(1 for m in members if t.owner[m] == t.me)
            near = sum(1 for n in NEIGHBOURS[x] if t.owner[n] == t.me)
            return (CONTINENT_BONUS[continent] / len(members) * 6 + mine * 1.5 - others
                    + near + self.jitter())
        return {"type": "claim", "territory": max(free, key=score)}

    def goal_continent(self) -> str:
        t = self.t
        if self.style.plans and self.plan() is not None:
            return self.plan()
        options = [c for c in CONTINENT_TERRITORIES if t.holds.get(c) != t.me]
        if not options:
            return max(CONTINENT_TERRITORIES, key=self.continent_weight)

        def score(c):
            members = CONTINENT_TERRITORIES[c]
            mine = sum(t.armies[m] for m in members if t.owner[m] == t.me)
            theirs = sum(t.armies[m] for m in members if t.enemy(m))
            return self.continent_weight(c) + (mine - theirs) / 6 + self.jitter()
        return max(options, key=score)

    def staging(self) -> list[str]:
        """Own border territories ranked as places to mass armies."""
        t = self.t
        goal = self.goal_continent()

        def score(x):
            targets = [n for n in NEIGHBOURS[x] if t.enemy(n)]
            best = max((self.value(n) for n in targets), default=0)
            in_goal = sum(1 for n in targets if CONTINENT_OF[n] == goal)
            weakest = min((t.armies[n] for n in targets), default=0)
            return (best + 2 * in_goal + t.armies[x] / 4 - weakest / 3
                    + (2 if CONTINENT_OF[x] == goal else 0) + self.jitter())
        return sorted(t.borders or t.mine, key=score, reverse=True)

    def setup_place(self) -> dict:
        t = self.t
        count = t.pending["reinforcements"]
        cap = t.rules.get("initial_max_per_territory")
        ranked = self.staging()
        placements: dict[str, int] = {}
        if self.style.name == "easy":
            ranked = t.borders or t.mine
        for _ in range(count):
            room = [x for x in ranked
                    if cap is None or t.armies[x] + placements.get(x, 0) < cap]
            if not room:
                room = [x for x in t.mine
                        if cap is None or t.armies[x] + placements.get(x, 0) < cap]
            if self.style.name == "easy":
                choice = self.rnd.choice(room)
            else:  # most on the best front, some on the next ones
                choice = room[min(len(room) - 1, int(self.rnd.random() ** 3 * 3))]
            placements[choice] = placements.get(choice, 0) + 1
        return {"type": "place", "placements": placements}

    def choose_capital(self) -> dict:
        t = self.t

        def score(x):
            own_neighbours = sum(1 for n in NEIGHBOURS[x] if t.owner[n] == t.me)
            return t.armies[x] * 2 - t.threat(x) + own_neighbours * 2 + self.jitter()
        return {"type": "choose_capital", "territory": max(t.mine, key=score)}

    def place_neutral(self) -> dict:
        """Put the neutral's armies in the way of the opponent."""
        t = self.t
        count = t.pending["reinforcements"]
        neutral = [x for x in TERRITORIES if t.owner[x] == NEUTRAL]

        def score(x):
            against = sum(t.armies[n] for n in NEIGHBOURS[x] if t.hostile(n))
            mine = sum(1 for n in NEIGHBOURS[x] if t.owner[n] == t.me)
            return against / 3 - mine * 2 + self.jitter()
        ranked = sorted(neutral, key=score, reverse=True)
        if self.style.name == "easy":
            ranked = [self.rnd.choice(neutral)]
        placements = {}
        for i in range(count):
            x = ranked[i % min(2, len(ranked))]
            placements[x] = placements.get(x, 0) + 1
        return {"type": "place_neutral", "placements": placements}

    # ---- reinforce ------------------------------------------------------------------
    def trade(self) -> dict:
        t = self.t
        mine = set(t.mine)

        def score(trio):
            wilds = sum(1 for c in trio if CARDS[c][1] == "wild")
            bonus = sum(1 for c in trio if CARDS[c][0] in mine)
            return (t.set_value(trio), bonus > 0, -wilds, [-c for c in trio])
        trio = max(t.sets, key=score)
        shown = [CARDS[c][0] for c in trio if CARDS[c][0] in mine]
        command = {"type": "trade", "cards": list(trio)}
        if shown:
            ranked = self.staging()
            command["bonus_territory"] = min(
                shown, key=lambda x: ranked.index(x) if x in ranked else len(ranked))
        return command

    def wants_trade(self) -> bool:
        t = self.t
        if t.pending["must_trade"]:
            return True
        return self.style.trades_early or len(t.hand) >= 4 and self.rnd.random() < 0.3

    def reinforce(self) -> dict:
        t = self.t
        count = t.pending["reinforcements"]
        placements: dict[str, int] = {}
        if self.dragging_on() and t.borders:
            return {"type": "place", "placements": {max(t.borders, key=t.armies.get): count}}
        if self.style.name == "easy":
            front = t.borders or t.mine
            for _ in range(count):
                x = self.rnd.choice(front)
                placements[x] = placements.get(x, 0) + 1
            return {"type": "place", "placements": placements}
        left = count
        if self.style.defends:
            for x, need in self.defence_needs():
                give = min(need, left // 2 if left > 1 else left)
                if give > 0:
                    placements[x] = placements.get(x, 0) + give
                    left -= give
        if left:
            target = self.best_staging(left)
            placements[target] = placements.get(target, 0) + left
        return {"type": "place", "placements": placements}

    def defence_needs(self) -> list[tuple[str, int]]:
        """Borders short of the armies that would keep the strongest neighbour from
        attacking (an attacker wants half as many again as the defenders), those of held
        continents and the capital first."""
        t = self.t
        needs = []
        held = {c for c, h in t.holds.items() if h == t.me}
        for x in t.borders:
            strongest = max((t.armies[n] for n in NEIGHBOURS[x] if t.hostile(n)), default=0)
            need = -(-2 * (strongest - 1) // 3) + 1 - t.armies[x]
            if need > 0:
                guard = CONTINENT_OF[x] in held or x == t.capital
                needs.append((not guard, -need, x, need))
        needs.sort()
        return [(x, need) for _, _, x, need in needs]

    def best_staging(self, extra: int) -> str:
        """Where `extra` armies do most: the start of the best attack plan with them."""
        t = self.t
        ranked = self.staging()
        if self.style.depth <= 1:
            # Where the armies make the best single attack: the same place turn after turn
            # while nothing changes, so that a front grows until it can break through.
            def punch(x):
                a = t.armies[x] + extra
                return max((self.chance(a, n) * self.value(n) - self.risk(self.chance(a, n), a, n)
                            for n in NEIGHBOURS[x] if t.enemy(n)), default=float("-inf"))
            return max(ranked[:10], key=punch)
        best, best_score = ranked[0], float("-inf")
        for x in ranked[:8]:
            score = self.best_path(x, t.armies[x] + extra)[0]
            if score > best_score:
                best, best_score = x, score
        return best

    # ---- attack -----------------------------------------------------------------------
    def best_path(self, source: str, armies: int) -> tuple[float, list[str]]:
        """The best chain of conquests from `source` with `armies` on it: the expected
        value of the chain (each step's value times the chance of getting that far), and
        the chain itself."""
        t = self.t
        best = (0.0, [])
        budget = self.PATH_BUDGET

        def walk(here: str, armies: float, p: float, gained: float, path: list[str]):
            nonlocal best, budget
            if len(path) >= self.style.depth:
                return
            for target in NEIGHBOURS[here]:
                if not t.enemy(target) or target in path:
                    continue
                budget -= 1
                if budget < 0:
                    return
                a = int(armies)
                chance = t.odds(a, target)
                if chance < 0.25:
                    continue
                reach = p * chance
                taken = frozenset(path)
                worth = gained + reach * self.value(target, taken) - p * self.risk(
                    chance, a, target)
                chain = path + [target]
                if worth > best[0]:
                    best = (worth, chain)
                remaining = t.left_after(a, target) - 1  # one stays behind
                if remaining >= 2:
                    walk(target, remaining, reach, worth, chain)
        walk(source, armies, 1.0, 0.0, [])
        return best

    def risk(self, chance: float, armies: int, target: str) -> float:
        """What a failed assault costs: the armies it burns, no more than it takes to wear
        the defenders down. Past a hundred armies on the source the cost is weighed against
        the stack, and it fades as the rounds go by: where armies have piled up on both
        sides, an assault must not look too dear to try, or the game never ends."""
        burned = (1 - chance) * min(armies, 2 * self.t.armies[target] + 2) / 4
        rounds = self.t.view.get("round") or 0
        return burned * min(1.0, 100 / max(armies, 1)) * max(0.0, 1 - rounds / 400)

    def odds_wanted(self) -> float:
        """The least chance an attack needs. A game that drags on (armies pile up on both
        sides of every front) makes a player bolder, so that games end."""
        rounds = self.t.view.get("round") or 0
        return max(min(self.style.attack_odds, 0.35), self.style.attack_odds - rounds / 1000)

    def attack(self) -> dict | None:
        t = self.t
        options = t.may.get("attack") or {}
        if not options:
            return None
        if self.style.name == "easy":
            if self.dragging_on():
                # its biggest edge anywhere, taken even a little short of even: three dice
                # against two wear a defender down faster than they wear the attacker
                source, target = max(((s, x) for s, targets in options.items()
                                      for x in targets),
                                     key=lambda pair: t.armies[pair[0]] - t.armies[pair[1]])
                if t.armies[source] < 4 or t.armies[source] * 10 < t.armies[target] * 7:
                    return None
                return {"type": "attack", "from": source, "to": target, "repeat": True}
            choices = [(s, x) for s, targets in options.items() for x in targets
                       if t.armies[s] > t.armies[x] + 1]
            if not choices or self.rnd.random() < 0.25:
                return None
            source, target = self.rnd.choice(choices)
            return {"type": "attack", "from": source, "to": target,
                    "repeat": True}
        margin = self.style.margin * max(0.0, 1 - (t.view.get("round") or 0) / 200)
        best, best_score = None, (margin if t.view.get("conquered") else 0.0)
        for source, targets in options.items():
            armies = t.armies[source]
            if self.style.depth > 1:
                score, path = self.best_path(source, armies)
                if path and t.odds(armies, path[0]) >= self.odds_wanted():
                    score -= self.exposure(source, path)
                    if score > best_score:
                        best, best_score = (source, path[0]), score
                continue
            for target in targets:
                chance = self.chance(armies, target)
                if chance < self.odds_wanted():
                    continue
                score = (chance * self.value(target) - self.risk(chance, armies, target)
                         + self.jitter())
                if score > best_score:
                    best, best_score = (source, target), score
        if best is None:
            return None
        # A planner rolls one battle at a time and looks again; the others go all in.
        return {"type": "attack", "from": best[0], "to": best[1],
                "repeat": self.style.depth <= 1}

    def exposure(self, source: str, path: list[str]) -> float:
        """What leaving `source` with one army risks, for a player that guards: the threat
        from its hostile neighbours, but for the ones the attack is about to take."""
        t = self.t
        if not self.style.defends:
            return 0.0
        held = {c for c, h in t.holds.items() if h == t.me}
        threat = t.threat(source) - sum(
            t.armies[x] - 1 for x in path if x in NEIGHBOURS[source] and t.hostile(x))
        if CONTINENT_OF[source] in held and threat > 2:
            return min(CONTINENT_BONUS[CONTINENT_OF[source]], threat / 3)
        if source == t.capital and threat > 0:
            return 4.0
        return 0.0

    def occupy(self) -> dict:
        t = self.t
        occupy = t.pending["occupy"]
        low, high = occupy["min"], occupy["max"]
        if self.dragging_on():
            return {"type": "occupy", "armies": high}
        if self.style.name == "easy" or high <= low:
            return {"type": "occupy", "armies": low}
        source, target = occupy["from"], occupy["to"]
        ahead = any(t.enemy(n) for n in NEIGHBOURS[target] if n != target)
        behind = any(t.enemy(n) for n in NEIGHBOURS[source])
        if ahead and not behind:
            armies = high
        elif not ahead:
            armies = low
        else:
            threat_back = t.threat(source)
            total = high + 1
            keep = min(max(threat_back, 1), total - low) if self.style.defends else total // 3
            armies = max(low, min(high, total - keep))
        return {"type": "occupy", "armies": armies}

    # ---- fortify ----------------------------------------------------------------------
    def fortify(self) -> dict | None:
        t = self.t
        options = t.may.get("fortify") or {}
        if not options or self.rnd.random() >= self.style.fortifies:
            return None
        distance = t.front_distance
        mode = t.rules.get("fortify", "adjacent")
        best = None
        for source, targets in options.items():
            spare = t.armies[source] - 1
            if spare < 1:
                continue
            here = distance.get(source, 99)
            for target in targets:
                there = distance.get(target, 99)
                if here == 0:
                    # Border to border: only towards a clearly bigger threat.
                    if there != 0 or not self.style.defends:
                        continue
                    gain = t.threat(target) - t.armies[target] - (t.threat(source) - 1)
                    if gain <= 2:
                        continue
                    move = min(spare, gain // 2)
                    score = gain
                else:
                    if there >= here:
                        continue
                    move = spare
                    score = spare * (here - there) + (t.threat(target) if there == 0 else 0)
                if move >= 1 and (best is None or score > best[0]):
                    best = (score, source, target, move)
        if best is None:
            return None
        _, source, target, move = best
        if mode == "spread" and self.style.name != "easy":
            fronts = [x for x in options[source] if distance.get(x, 99) == 0]
            if len(fronts) > 1 and distance.get(source, 99) > 0 and move >= 2:
                share, extra = divmod(move, len(fronts))
                moves = [{"to": x, "armies": share + (1 if i < extra else 0)}
                         for i, x in enumerate(fronts)]
                return {"type": "fortify", "from": source,
                        "moves": [m for m in moves if m["armies"] > 0]}
        return {"type": "fortify", "from": source, "to": target, "armies": move}

    # ---- one decision -----------------------------------------------------------------
    def decide(self) -> dict:
        t = self.t
        commands = t.commands
        if "claim" in commands:
            return self.claim()
        if "choose_capital" in commands:
            return self.choose_capital()
        if "place_neutral" in commands:
            return self.place_neutral()
        if t.phase == "setup_place" and "place" in commands:
            return self.setup_place()
        if "trade" in commands and self.wants_trade():
            return self.trade()
        if "place" in commands:
            return self.reinforce()
        if "occupy" in commands:
            return self.occupy()
        if "attack" in commands:
            command = self.attack()
            if command:
                return command
        if "fortify" in commands:
            command = self.fortify()
            if command:
                return command
        if "end_turn" in commands:
            return {"type": "end_turn"}
        if "end_attack" in commands:
            return {"type": "end_attack"}
        raise LookupError(f"nothing to do for seat {t.me} in phase {t.phase}")


def choose(view: dict, rules: dict, level: str, rnd: random.Random | None = None) -> dict:
    """The command `level` plays for the seat whose view this is."""
    player = Player(Table(view, rules), STYLES[level], rnd or random.Random(0))
    return player.decide()
