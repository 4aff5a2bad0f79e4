"""Setting up the board: claiming territories, the first armies, the capital and the
neutral's armies."""

from __future__ import annotations

from engine.pieces import NEUTRAL

from .worth import Player


def claim(player: Player) -> dict:
    t = player.t
    free = [x for x in t.territories if t.owner[x] is None]

    def score(x):
        continent = t.continent_of[x]
        members = t.continent_territories[continent]
        others = sum(1 for m in members if t.enemy(m))
        mine = sum(1 for m in members if t.owner[m] == t.me)
        near = sum(1 for n in t.neighbours[x] if t.owner[n] == t.me)
        return (t.continent_bonus[continent] / len(members) * 6 + mine * 1.5 - others
                + near + player.jitter())
    return {"type": "claim", "territory": max(free, key=score)}


def setup_place(player: Player) -> dict:
    t = player.t
    count = t.pending["reinforcements"]
    cap = t.rules.get("initial_max_per_territory")
    ranked = player.staging()
    placements: dict[str, int] = {}
    if player.style.name == "easy":
        ranked = t.borders or t.mine
    for _ in range(count):
        room = [x for x in ranked
                if cap is None or t.armies[x] + placements.get(x, 0) < cap]
        if not room:
            room = [x for x in t.mine
                    if cap is None or t.armies[x] + placements.get(x, 0) < cap]
        if player.style.name == "easy":
            choice = player.rnd.choice(room)
        else:  # most on the best front, some on the next ones
            choice = room[min(len(room) - 1, int(player.rnd.random() ** 3 * 3))]
        placements[choice] = placements.get(choice, 0) + 1
    return {"type": "place", "placements": placements}


def choose_capital(player: Player) -> dict:
    t = player.t

    def score(x):
        own_neighbours = sum(1 for n in t.neighbours[x] if t.owner[n] == t.me)
        return t.armies[x] * 2 - t.threat(x) + own_neighbours * 2 + player.jitter()
    return {"type": "choose_capital", "territory": max(t.mine, key=score)}


def place_neutral(player: Player) -> dict:
    """Put the neutral's armies in the way of the opponent."""
    t = player.t
    count = t.pending["reinforcements"]
    neutral = [x for x in t.territories if t.owner[x] == NEUTRAL]

    def score(x):
        against = sum(t.armies[n] for n in t.neighbours[x] if t.hostile(n))
        mine = sum(1 for n in t.neighbours[x] if t.owner[n] == t.me)
        return against / 3 - mine * 2 + player.jitter()
    ranked = sorted(neutral, key=score, reverse=True)
    if player.style.name == "easy":
        ranked = [player.rnd.choice(neutral)]
    placements = {}
    for i in range(count):
        x = ranked[i % min(2, len(ranked))]
        placements[x] = placements.get(x, 0) + 1
    return {"type": "place_neutral", "placements": placements}
