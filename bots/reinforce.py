"""The reinforce phase: when to trade a set of cards and which, and where the turn's
reinforcements go (guarding borders, massing for the best attack)."""

from __future__ import annotations

from .worth import Player, guarded


def wants_trade(player: Player) -> bool:
    t = player.t
    if t.pending["must_trade"]:
        return True
    return player.style.trades_early or len(t.hand) >= 4 and player.rnd.random() < 0.3


def trade(player: Player) -> dict:
    t = player.t
    mine = set(t.mine)

    def score(trio):
        wilds = sum(1 for c in trio if t.cards[c][1] == "wild")
        bonus = sum(1 for c in trio if t.cards[c][0] in mine)
        return (t.set_value(trio), bonus > 0, -wilds, [-c for c in trio])
    trio = max(t.sets, key=score)
    shown = [t.cards[c][0] for c in trio if t.cards[c][0] in mine]
    command = {"type": "trade", "cards": list(trio)}
    if shown:
        ranked = player.staging()
        command["bonus_territory"] = min(
            shown, key=lambda x: ranked.index(x) if x in ranked else len(ranked))
    return command


def reinforce(player: Player) -> dict:
    t = player.t
    count = t.pending["reinforcements"]
    placements: dict[str, int] = {}
    if player.dragging_on() and t.borders:
        return {"type": "place", "placements": {max(t.borders, key=t.armies.get): count}}
    if player.style.name == "easy":
        front = t.borders or t.mine
        for _ in range(count):
            x = player.rnd.choice(front)
            placements[x] = placements.get(x, 0) + 1
        return {"type": "place", "placements": placements}
    left = count
    if player.style.defends:
        # Guards take at most half of the turn's armies: the rest masses where it attacks
        # (with a few armies a turn, guarding every border would leave nothing to attack
        # with, and a player that never takes a territory earns no cards).
        guards = count // 2
        for x, need in defence_needs(player):
            give = min(need, guards)
            if give > 0:
                placements[x] = placements.get(x, 0) + give
                left -= give
                guards -= give
    if left:
        target = best_staging(player, left)
        placements[target] = placements.get(target, 0) + left
    return {"type": "place", "placements": placements}


def defence_needs(player: Player) -> list[tuple[str, int]]:
    """The borders of guarded continents, and the capital, short of the armies that would
    keep the strongest neighbour from attacking (an attacker wants half as many again as
    the defenders), the neediest first. Other borders get no guards: a few armies on each
    of a long front stop nobody, and they are what the attack was short of (measured on
    europe and world, whose regions are mostly borders)."""
    t = player.t
    needs = []
    held = guarded(player)
    for x in t.borders:
        if t.continent_of[x] not in held and x != t.capital:
            continue
        strongest = max((t.armies[n] for n in t.neighbours[x] if t.hostile(n)), default=0)
        need = -(-2 * (strongest - 1) // 3) + 1 - t.armies[x]
        if need > 0:
            needs.append((-need, x, need))
    needs.sort()
    return [(x, need) for _, x, need in needs]


def best_staging(player: Player, extra: int) -> str:
    """Where `extra` armies do most: the start of the best attack plan with them (for a
    planner, from the front of the continent it plans for: on a map of many regions the
    best path of the moment leads somewhere else every turn, and armies spread over the
    whole map take no continent)."""
    t = player.t
    ranked = player.staging()
    if player.style.depth <= 1:
        # Where the armies make the best single attack: the same place turn after turn
        # while nothing changes, so that a front grows until it can break through.
        def punch(x):
            a = t.armies[x] + extra
            return max((player.chance(a, n) * player.value(n) - player.risk(player.chance(a, n), a, n)
                        for n in t.neighbours[x] if t.enemy(n)), default=float("-inf"))
        return max(ranked[:10], key=punch)
    best, best_score = ranked[0], float("-inf")
    candidates = ranked[:8]
    plan = player.plan() if player.style.plans else None
    if plan is not None:
        candidates = [x for x in ranked if t.continent_of[x] == plan or any(
            t.continent_of[n] == plan and t.enemy(n) for n in t.neighbours[x])][:8] or candidates
    prey = player.prey()
    if prey:  # and from where a player can be wiped out
        candidates = candidates + [x for x in ranked if x not in candidates and any(
            t.owner[n] in prey for n in t.neighbours[x])][:8]
    for x in candidates:
        score = player.best_path(x, t.armies[x] + extra)[0]
        if score > best_score:
            best, best_score = x, score
    return best


def mass_setup(player: Player) -> dict:
    """A planner's first armies: all on its best place to attack from (the front of the
    continent it plans to take), where the first turns are won; spread only as far as a
    cap per territory requires."""
    t = player.t
    count = t.pending["reinforcements"]
    cap = t.rules.get("initial_max_per_territory")
    placements: dict[str, int] = {}
    for x in player.staging() + t.mine:
        room = count if cap is None else min(count, cap - t.armies[x] - placements.get(x, 0))
        if room > 0:
            placements[x] = placements.get(x, 0) + room
            count -= room
        if not count:
            break
    return {"type": "place", "placements": placements}
