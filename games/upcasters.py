"""Old stored events are upgraded on read, never rewritten: one small function per step.

Each stored event row carries the schema version its type was written with. To change an
event's shape: bump its entry in SCHEMA_VERSIONS and register an upcaster from the old
version that returns the data in the new shape. Readers only ever see current data.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.events import GAME_STARTED
from engine.maps import CLASSIC_FIRST_HASH, DEFAULT_MAP

# The schema version each event type is written with today (absent: 1).
# game_started 2: names the map and its version (map, map_hash).
SCHEMA_VERSIONS: dict[str, int] = {GAME_STARTED: 2}

# (event type, from version) -> function(data) -> data one version newer
UPCASTERS: dict[tuple[str, int], Callable[[dict], dict]] = {}


def current_version(event_type: str) -> int:
    return SCHEMA_VERSIONS.get(event_type, 1)


def upcaster(event_type: str, from_version: int):
    def register(function: Callable[[dict], dict]) -> Callable[[dict], dict]:
        UPCASTERS[(event_type, from_version)] = function
        return function
    return register


def upcast(event_type: str, version: int, data: dict) -> dict:
    """The event's data in today's shape; raises LookupError for a gap in the chain."""
    target = current_version(event_type)
    while version < target:
        step = UPCASTERS.get((event_type, version))
        if step is None:
            raise LookupError(f"no upcaster for {event_type} v{version}")
        data = step(data)
        version += 1
    return data


@upcaster(GAME_STARTED, 1)
def _game_started_on_classic(data: dict) -> dict:
    """Games started before maps were data played the classic board as it was then."""
    return {**data, "map": DEFAULT_MAP, "map_hash": CLASSIC_FIRST_HASH}
