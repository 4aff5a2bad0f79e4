"""The game's log as the page shows it: each event's sentence (games.narrate, the one
narrator) with its time and the colour of whoever it is about."""

from __future__ import annotations

from datetime import datetime

from games.names import seat_color
from games.narrate import OwnerTracker, describe


def log_entries(events: list[dict]) -> list[dict]:
    """Every event with its sentence and the colour of whoever it is about."""
    owners = OwnerTracker()
    entries = []
    for event in events:
        text = describe(event, owners=owners)
        owners.see(event)
        data = event["data"]
        seat = data.get("seat", data.get("winner", event.get("actor")))
        entries.append({
            "seq": event["seq"], "type": event["type"], "text": text,
            "at": datetime.fromisoformat(event["at"]) if event.get("at") else None,
            "color": seat_color(seat),
        })
    return entries
