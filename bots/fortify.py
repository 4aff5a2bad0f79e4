"""The fortify phase: moving idle armies towards the front, or to a border under a bigger
threat."""

from __future__ import annotations

from .worth import Player


def fortify(player: Player) -> dict | None:
    t = player.t
    options = t.may.get("fortify") or {}
    if not options or player.rnd.random() >= player.style.fortifies:
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
                if there != 0 or not player.style.defends:
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
    if mode == "spread" and player.style.name != "easy":
        fronts = [x for x in options[source] if distance.get(x, 99) == 0]
        if len(fronts) > 1 and distance.get(source, 99) > 0 and move >= 2:
            share, extra = divmod(move, len(fronts))
            moves = [{"to": x, "armies": share + (1 if i < extra else 0)}
                     for i, x in enumerate(fronts)]
            return {"type": "fortify", "from": source,
                    "moves": [m for m in moves if m["armies"] > 0]}
    return {"type": "fortify", "from": source, "to": target, "armies": move}
