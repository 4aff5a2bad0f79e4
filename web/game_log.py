"""The game's log as the page shows it: each event's sentence (words.narrator, the one
narrator) with its time and the colour of whoever it is about."""

from __future__ import annotations

from datetime import datetime

from engine import events as ev
from words.narrator import OwnerTracker, describe
from words.vocabulary import seat_color


def log_entries(events: list[dict], board=None, owners: OwnerTracker | None = None) -> list[dict]:
    """Every event with its sentence and the colour of whoever it is about (territories by
    the names of the game's map, `board`; `owners`: who held what before the first, when
    the events are not the log's beginning)."""
    owners = owners or OwnerTracker(board)
    entries = []
    for event in events:
        text = describe(event, owners=owners)
        owners.see(event)
        data = event["data"]
        seat = data.get("seat", data.get("winner", event.get("actor")))
        entries.append({
            "seq": event["seq"], "type": event["type"], "text": text,
            "at": datetime.fromisoformat(event["at"]) if event.get("at") else None,
            "color": seat_color(seat), "where": touched(data),
            # Under fog a battle seen only from the attacking side shows no dice.
            **(duels(data) if event["type"] == ev.BATTLE and "attacker_dice" in data else {}),
        })
    return entries


def touched(data: dict) -> list[str]:
    """The territories an event is about (an attack's two, a placement's), for the board to
    open on the last move when the viewer holds none."""
    where = [data[key] for key in ("from", "to", "territory") if isinstance(data.get(key), str)]
    placements = data.get("placements")
    return where + (sorted(placements) if isinstance(placements, dict) else [])


def last_move(entries: list[dict]) -> list[str]:
    """The territories of the newest event that names any."""
    return next((entry["where"] for entry in reversed(entries) if entry.get("where")), [])


def duels(battle: dict) -> dict:
    """A battle's dice as the rules compare them: the highest of each side against each
    other, then the second highest; a tie goes to the defender. Dice left unpaired count
    for nothing."""
    attack = sorted(battle.get("attacker_dice") or [], reverse=True)
    defence = sorted(battle.get("defender_dice") or [], reverse=True)
    pairs = [{"attack": a, "defence": d, "sign": ">" if a > d else ("=" if a == d else "<"),
              "winner": "attacker" if a > d else "defender"}
             for a, d in zip(attack, defence, strict=False)]
    return {"duels": pairs, "unpaired_attack": attack[len(pairs):],
            "unpaired_defence": defence[len(pairs):]}


def last_battles(entries: list[dict], most: int = 12) -> list[dict]:
    """The battles since anything else happened, newest first: the roll (or the repeated
    attack's rolls) just made, one per line, at most the last `most`."""
    trailing = []
    for entry in reversed(entries):
        if entry["type"] != ev.BATTLE or "duels" not in entry:
            break
        trailing.append(entry)
    return trailing[:most]
