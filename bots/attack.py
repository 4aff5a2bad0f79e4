"""The attack phase: which attack to make (or none), what leaving a source bare risks, and
how many armies move into a conquered territory."""

from __future__ import annotations

from .worth import Player, guarded


def odds_wanted(player: Player) -> float:
    """The least chance an attack needs. A game that drags on (armies pile up on both
    sides of every front) makes a player bolder, so that games end."""
    return max(min(player.style.attack_odds, 0.35), player.style.attack_odds - player.age() / 1000)


def attack(player: Player) -> dict | None:
    t = player.t
    options = t.may.get("attack") or {}
    if not options:
        return None
    if player.style.name == "easy":
        if player.dragging_on():
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
        if not choices or player.rnd.random() < 0.25:
            return None
        source, target = player.rnd.choice(choices)
        return {"type": "attack", "from": source, "to": target,
                "repeat": True}
    best, best_score = None, 0.0
    for source in sorted(options, key=lambda s: -t.armies[s]):  # strongest first
        targets, armies = options[source], t.armies[source]
        if player.style.depth > 1:
            score, path = player.best_path(source, armies)
            if path and t.odds(armies, path[0]) >= odds_wanted(player):
                score -= exposure(player, source, path)
                if score > best_score:
                    best, best_score = (source, path[0]), score
            continue
        for target in targets:
            chance = player.chance(armies, target)
            if chance < odds_wanted(player):
                continue
            score = (chance * player.value(target) - player.risk(chance, armies, target)
                     + player.jitter())
            if score > best_score:
                best, best_score = (source, target), score
    if best is None:
        return None
    # A planner rolls one battle at a time and looks again; the others go all in.
    return {"type": "attack", "from": best[0], "to": best[1],
            "repeat": player.style.depth <= 1}


def exposure(player: Player, source: str, path: list[str]) -> float:
    """What leaving `source` with one army risks, for a player that guards: the threat
    from its hostile neighbours, but for the ones the attack is about to take."""
    t = player.t
    if not player.style.defends:
        return 0.0
    held = guarded(player)
    threat = t.threat(source) - sum(
        t.armies[x] - 1 for x in path if x in t.neighbours[source] and t.hostile(x))
    if t.continent_of[source] in held and threat > 2:
        return min(t.continent_bonus[t.continent_of[source]], threat / 3)
    if source == t.capital and threat > 0:
        return 4.0
    return 0.0


def occupy(player: Player) -> dict:
    t = player.t
    offer = t.pending["occupy"]
    low, high = offer["min"], offer["max"]
    if player.dragging_on():
        return {"type": "occupy", "armies": high}
    if player.style.name == "easy" or high <= low:
        return {"type": "occupy", "armies": low}
    source, target = offer["from"], offer["to"]
    ahead = any(t.enemy(n) for n in t.neighbours[target] if n != target)
    behind = any(t.enemy(n) for n in t.neighbours[source])
    if ahead and not behind:
        armies = high
    elif not ahead:
        armies = low
    else:
        threat_back = t.threat(source)
        total = high + 1
        keep = min(max(threat_back, 1), total - low) if player.style.defends else total // 3
        armies = max(low, min(high, total - keep))
    return {"type": "occupy", "armies": armies}
