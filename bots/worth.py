"""What a computer player knows and values: its seat's Table, its Style and its dice, what a
territory is worth to take, the continent it plans for, where it masses armies and the
best chain of conquests from a territory. The phases (setup, reinforce, attack, fortify)
are functions of this Player."""

from __future__ import annotations

import random

from engine.odds import conquer_probability
from engine.pieces import COLORS, NEUTRAL

from .styles import Style
from .table import Table

# What guarding one entry of a continent costs, in armies, when choosing the continent to
# take: a guard stands there turn after turn, so it weighs more than the armies spent once
# taking it. Measured: 3 and 5 chose continents hard could not keep (Europe, Asia) too often.
GUARD = 8
# What an army spent in a conquest costs, in the worth of territories: a chain that leaves
# every territory it takes with one army hands the other players cheap conquests next turn
# (measured on europe: 0.3 won most; 0.6 held back so much that games dragged on). On a map
# smaller than classic's it weighs as much more as the square of how much smaller: there
# everybody is at the 3-army minimum, territories taken add nothing to it, and the armies
# kept are what wins (islands, hard against two normal: 43 % at 0.3, 53 % at 2, 58 % at
# 3.7).
ARMY = 0.3


class Player:
    """One decision's player: a seat's Table, its Style and its dice, with what it has
    worked out so far (territories' worth, its plan) kept for the rest of the decision."""

    # Territories one path search may look at: enough for every sensible chain of a turn,
    # and a bound on a decision's time however many armies and enemies there are.
    PATH_BUDGET = 1500
    # ... and all the searches of one decision together: an attack searches from every
    # source, dozens of them on a map of 175 territories (its strongest first).
    DECISION_BUDGET = 6000

    def __init__(self, table: Table, style: Style, rnd: random.Random) -> None:
        self.t, self.style, self.rnd = table, style, rnd
        self._values: dict[str, float] = {}
        self._plan: str | None | bool = False  # not chosen yet
        self._missing: dict[str, tuple] = {}  # continent -> its territories not its own
        self._steps: dict[tuple, tuple[float, float]] = {}  # (armies, target) -> odds, left
        self._searched = 0  # territories the path searches of this decision looked at
        self._prey: dict[int, float] | None = None
        self._held: dict[str, float] = {}  # continent -> a territory's worth held there
        self._age: float | None = None
        self._dear: dict[int, float] = {}  # armies -> what losing them weighs
        self._near: dict[str, tuple] = {}  # territory -> (hostile neighbour, its attackers)

    def age(self) -> float:
        """How long the game has gone on, in rounds of a map of classic's size: a round on
        a larger map brings more armies (a third of the territories), so stacks pile up as
        much faster and the measures that end a dragging game come as many rounds sooner."""
        if self._age is None:
            rounds = self.t.view.get("round") or 0
            self._age = rounds * max(1.0, len(self.t.territories) / 42)
        return self._age

    def dragging_on(self) -> bool:
        """An easy player in a game that drags on (two timid players behind a neutral's
        walls) turns bolder, so that games end: it masses, attacks and moves in."""
        return self.style.name == "easy" and self.age() > 150

    def jitter(self) -> float:
        return self.rnd.random() * self.style.noise if self.style.noise else 0.0

    def chance(self, armies: int, target: str) -> float:
        """The chance of taking `target` with `armies` on the source: exact for a player
        that computes it, else the rule of thumb of attacking armies against defenders."""
        if self.style.exact:
            return self.t.odds(armies, target)
        attackers, defenders = armies - 1, self.t.armies[target]
        return 0.0 if attackers < 1 else attackers / (attackers + defenders)

    def continent_weight(self, continent: str) -> float:
        """How much the player wants this continent: its bonus for the armies it takes,
        the share it holds already, and the mission's continents."""
        t = self.t
        territories = t.continent_territories[continent]
        share = t.share(continent)
        weight = t.continent_bonus[continent] / len(territories) * 4 + share * 3
        if self.style.missions and t.mission in t.conquer_missions:
            if continent in t.conquer_missions[t.mission]:
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
        for continent, members in t.continent_territories.items():
            if t.holds.get(continent) == t.me:
                continue
            if not any(t.owner[x] == t.me or any(t.owner[n] == t.me for n in t.neighbours[x])
                       for x in members):
                continue  # out of reach
            take = sum(t.armies[x] + 1 for x in members if t.enemy(x))
            own = sum(t.armies[x] - 1 for x in members if t.owner[x] == t.me)
            hold = sum(GUARD + self.outside_threat(x, continent) / 1.5
                       for x in t.entries[continent])
            score = t.continent_bonus[continent] / max(1.0, take - own / 2 + hold)
            if score > best_score:
                best, best_score = continent, score
        self._plan = best
        return best

    def outside_threat(self, entry: str, continent: str) -> int:
        """Hostile armies next to a continent's entry from outside the continent."""
        t = self.t
        return sum(t.armies[n] - 1 for n in t.neighbours[entry]
                   if t.continent_of[n] != continent and t.hostile(n) and t.armies[n] > 1)

    def value(self, target: str, taken: frozenset = frozenset()) -> float:
        """What conquering `target` is worth (after taking the territories in `taken`)."""
        t = self.t
        owner = t.owner[target]
        continent = t.continent_of[target]
        score = self.base_value(target)
        if self.completes(target, taken):
            score += self.completion_worth(continent)
        if isinstance(owner, int) and owner != t.me:
            score += self.prey().get(owner, 0.0)
            player = t.player(owner)
            remaining = player["territories"]
            if remaining - len(taken) > 3:  # no elimination within reach of this chain
                return score
            remaining -= sum(1 for x in taken if t.owner[x] == owner)
            if remaining <= 1:
                score += 3
                if self.style.eliminations:  # their cards come over
                    score += 3 + self.card_worth() * player["cards"]
            elif remaining <= 3 and self.style.eliminations:
                score += self.card_worth() / 2 * player["cards"] / remaining
        return score

    def prey(self) -> dict[int, float]:
        """The players this turn's armies can wipe out, and what each of their territories
        is worth for it: the elimination's worth (its cards above all) shared among them.
        Their last territory alone would be found by a chain that reaches it; a player
        worn down to a few scattered territories would be left for another player to finish
        (and take the cards), which decides three-player games more than anything else."""
        if self._prey is not None:
            return self._prey
        self._prey = {}
        t = self.t
        if not self.style.eliminations:
            return self._prey
        spare = t.pending.get("reinforcements") or 0
        for seat in t.living:
            if seat in t.allies:
                continue
            theirs = [x for x in t.territories if t.owner[x] == seat]
            if not theirs or len(theirs) > 12:
                continue
            sources = {n for x in theirs for n in t.neighbours[x] if t.owner[n] == t.me}
            reached = {x for x in theirs if any(n in sources for n in t.neighbours[x])}
            front = list(reached)
            while front:
                here = front.pop()
                for n in t.neighbours[here]:
                    if t.owner[n] == seat and n not in reached:
                        reached.add(n)
                        front.append(n)
            if len(reached) < len(theirs):
                continue
            armies = sum(t.armies[x] - 1 for x in sources) + spare
            if armies < sum(2 * t.armies[x] + 1 for x in theirs):
                continue
            worth = 6 + self.card_worth() * t.player(seat)["cards"]
            self._prey[seat] = worth / len(theirs)
        return self._prey

    def completes(self, target: str, taken: frozenset) -> bool:
        """Whether taking `target` (after `taken`) completes its continent."""
        t = self.t
        continent = t.continent_of[target]
        missing = self._missing.get(continent)
        if missing is None:
            missing = self._missing[continent] = tuple(
                m for m in t.continent_territories[continent] if t.owner[m] != t.me)
        return len(missing) <= len(taken) + 1 and all(m in taken or m == target for m in missing)

    def completion_worth(self, continent: str) -> float:
        return self.t.continent_bonus[continent] * 2.5 + 2

    def held_worth(self, target: str, taken: frozenset) -> float:
        """The part of `target`'s worth that only counts while it is held: its place in a
        continent (and the continent it completes). Breaking another player's bonus, a
        capital and an elimination count once taken, held or not."""
        t = self.t
        continent = t.continent_of[target]
        score = self._held.get(continent)
        if score is None:
            score = self._held[continent] = self.place_worth(continent) + self.plan_worth(
                continent)
        if self.completes(target, taken):
            score += self.completion_worth(continent)
        return score

    def place_worth(self, continent: str) -> float:
        """A territory's worth for its place in `continent`, whoever takes it."""
        return 1.0 + self.continent_weight(continent) * 0.5

    def plan_worth(self, continent: str) -> float:
        return self.style.plans if self.style.plans and continent == self.plan() else 0

    def kept(self, target: str, armies: int, passing) -> float:
        """The chance that `target`, left with `armies`, is still ours at our next turn:
        that the armies of its hostile neighbours (but those in `passing`), counted as one
        stack, fail to take it (counting only the strongest neighbour: europe 52.5 % against
        56.7 % over the same 120 games)."""
        return self.keeping(self.around(target, passing), armies)

    def around(self, target: str, passing) -> int:
        """The stack that kept() counts against `target`: its hostile neighbours' armies
        but those in `passing`, less the one each leaves behind, plus one."""
        near = self._near.get(target)
        if near is None:
            t = self.t
            near = self._near[target] = tuple(
                (n, t.armies[n] - 1) for n in t.neighbours[target] if t.hostile(n))
        return sum(armies for n, armies in near if n not in passing) + 1

    def keeping(self, around: int, armies: int) -> float:
        """kept() of a territory with `armies` against the stack `around`."""
        if around < 2:
            return 1.0
        t = self.t
        return 1.0 - conquer_probability(around, max(1, armies), t.defense.get(t.me, "max"))

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
        continent = t.continent_of[target]
        score = self.place_worth(continent)
        holder = t.holds.get(continent)
        if holder is not None and holder != t.me and holder != NEUTRAL:
            score += t.continent_bonus[continent] * 2  # breaks another player's bonus
        if owner == NEUTRAL:
            score -= 0.5
        score += self.plan_worth(continent)
        if target in t.capitals and t.capitals[target] != t.me:
            score += 8
        if self.style.missions and t.mission:
            if t.mission in t.occupy_missions:
                score += 1.5
            elif t.mission.startswith("destroy_") and owner == COLORS.index(t.mission[8:]):
                score += 5
        self._values[target] = score
        return score

    def goal_continent(self) -> str:
        t = self.t
        if self.style.plans and self.plan() is not None:
            return self.plan()
        options = [c for c in t.continent_territories if t.holds.get(c) != t.me]
        if not options:
            return max(t.continent_territories, key=self.continent_weight)

        def score(c):
            members = t.continent_territories[c]
            mine = sum(t.armies[m] for m in members if t.owner[m] == t.me)
            theirs = sum(t.armies[m] for m in members if t.enemy(m))
            return self.continent_weight(c) + (mine - theirs) / 6 + self.jitter()
        return max(options, key=score)

    def staging(self) -> list[str]:
        """Own border territories ranked as places to mass armies."""
        t = self.t
        goal = self.goal_continent()

        def score(x):
            targets = [n for n in t.neighbours[x] if t.enemy(n)]
            best = max((self.value(n) for n in targets), default=0)
            in_goal = sum(1 for n in targets if t.continent_of[n] == goal)
            weakest = min((t.armies[n] for n in targets), default=0)
            return (best + 2 * in_goal + t.armies[x] / 4 - weakest / 3
                    + (2 if t.continent_of[x] == goal else 0) + self.jitter())
        return sorted(t.borders or t.mine, key=score, reverse=True)

    def best_path(self, source: str, armies: int) -> tuple[float, list[str]]:
        """The best chain of conquests from `source` with `armies` on it: the expected
        value of the chain (each step's value times the chance of getting that far), and
        the chain itself."""
        t = self.t
        best = (0.0, [])
        budget = start = min(self.PATH_BUDGET, self.DECISION_BUDGET - self._searched)
        steps = self._steps
        army = ARMY * max(1.0, 42 / len(t.territories)) ** 2

        def walk(here: str, armies: float, p: float, gained: float, path: list[str]):
            nonlocal best, budget
            if len(path) >= self.style.depth:
                return
            taken = frozenset(path)
            for target in t.neighbours[here]:
                if not t.enemy(target) or target in path:
                    continue
                budget -= 1
                if budget < 0:
                    return
                a = int(armies)
                step = steps.get((a, target))
                if step is None:
                    step = steps[a, target] = (t.odds(a, target), t.left_after(a, target))
                chance = step[0]
                if chance < 0.25:
                    continue
                reach = p * chance
                held = self.held_worth(target, taken)
                passing = taken | {target}
                # The chain's armies end here: what they hold is worth what they keep.
                around = self.around(target, passing)
                kept = self.keeping(around, int(step[1]) - 1)
                worth = (gained + reach * (self.value(target, taken) - (1 - kept) * held)
                         - p * self.risk(chance, a, target)
                         - reach * (a - step[1]) * army * self.dear(a))
                chain = path + [target]
                if worth > best[0]:
                    best = (worth, chain)
                remaining = step[1] - 1  # one stays behind
                if remaining >= 2:
                    # Passing through, one army stays: what is left of its worth then.
                    through = worth - reach * (kept - self.keeping(around, 1)) * held
                    walk(target, remaining, reach, through, chain)
        if budget > 0:
            walk(source, armies, 1.0, 0.0, [])
        self._searched += start - max(budget, 0)
        return best

    def risk(self, chance: float, armies: int, target: str) -> float:
        """What a failed assault costs: the armies it burns, no more than it takes to wear
        the defenders down, weighed as dear() says: where armies have piled up on both
        sides, an assault must not look too dear to try, or the game never ends."""
        burned = (1 - chance) * min(armies, 2 * self.t.armies[target] + 2) / 4
        return burned * self.dear(armies)

    def dear(self, armies: int) -> float:
        """How much armies lost from a stack of `armies` weigh: fully up to a hundred,
        less the larger the stack, and less as the game goes on (nothing by age 400)."""
        weight = self._dear.get(armies)
        if weight is None:
            weight = self._dear[armies] = (min(1.0, 100 / max(armies, 1))
                                           * max(0.0, 1 - self.age() / 400))
        return weight


def guarded(player: Player) -> set[str]:
    """The continents a player holds and guards: those whose bonus pays at least an army a
    turn for each entry (each classic continent does; on a map of many small regions with
    long borders a guard on every entry costs more than the bonus brings)."""
    t = player.t
    return {c for c, h in t.holds.items()
            if h == t.me and t.continent_bonus[c] >= len(t.entries[c])}
