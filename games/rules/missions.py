"""The fourteen secret missions and when one is fulfilled."""

from __future__ import annotations

from .board import COLORS, CONTINENT_TERRITORIES, NEUTRAL

_CONQUER = {
    "north_america_africa": (("north_america", "africa"), 0),
    "north_america_australia": (("north_america", "australia"), 0),
    "asia_south_america": (("asia", "south_america"), 0),
    "asia_africa": (("asia", "africa"), 0),
    "europe_south_america_plus_one": (("europe", "south_america"), 1),
    "europe_australia_plus_one": (("europe", "australia"), 1),
}

MISSIONS: tuple[str, ...] = (
    *_CONQUER, "occupy_18_with_2", "occupy_24", *(f"destroy_{c}" for c in COLORS)
)

_NAMES = {
    "north_america": "North America", "south_america": "South America", "europe": "Europe",
    "africa": "Africa", "asia": "Asia", "australia": "Australia",
}


def missions_in_play(players: int) -> list[str]:
    """The mission deck for a table: colour cards of colours not in play are removed."""
    present = set(COLORS[:players])
    return [m for m in MISSIONS if not m.startswith("destroy_") or m[8:] in present]


def effective_mission(state, seat: int) -> str:
    """The mission as it now stands: a 'destroy' card falls back to 'occupy 24' when the
    target is the owner, or left the game other than by the owner's hand."""
    mission = state.players[seat].mission
    if mission and mission.startswith("destroy_"):
        target = COLORS.index(mission[8:])
        victim = state.players[target]
        if target == seat or victim.dropped or (
            victim.eliminated and victim.eliminated_by != seat
        ):
            return "occupy_24"
    return mission


def describe(mission: str) -> str:
    if mission in _CONQUER:
        continents, extra = _CONQUER[mission]
        text = "Conquer " + " and ".join(_NAMES[c] for c in continents)
        return text + (" and one more continent of your choice" if extra else "")
    if mission == "occupy_18_with_2":
        return "Occupy 18 territories with at least 2 armies on each"
    if mission == "occupy_24":
        return "Occupy 24 territories"
    return f"Destroy all armies of {mission[8:]}"


def fulfilled(state, seat: int) -> bool:
    mission = effective_mission(state, seat)
    owner = state.owner
    if mission in _CONQUER:
        continents, extra = _CONQUER[mission]
        held = [c for c, ts in CONTINENT_TERRITORIES.items() if all(owner[t] == seat for t in ts)]
        return all(c in held for c in continents) and len(held) >= len(continents) + extra
    if mission == "occupy_18_with_2":
        armies = state.armies
        return sum(1 for t, o in owner.items() if o == seat and armies[t] >= 2) >= 18
    if mission == "occupy_24":
        return sum(1 for o in owner.values() if o == seat) >= 24
    target = COLORS.index(mission[8:])
    victim = state.players[target]
    return victim.eliminated and victim.eliminated_by == seat and target != NEUTRAL
