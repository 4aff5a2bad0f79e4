"""A map file checked before it is played: every fault named, one message each."""

from __future__ import annotations

import unicodedata

from .drawing import check_drawing

SYMBOLS = ("infantry", "cavalry", "artillery")
MAX_NAME = 80  # characters of a map's, a territory's or a continent's name
MAX_BONUS = 1000  # armies a continent may pay
MISSION_KINDS = ("conquer", "occupy", "destroy")


class MapError(ValueError):
    """A map that cannot be played; `faults` lists each problem in words."""

    def __init__(self, faults: list[str]):
        super().__init__("; ".join(faults))
        self.faults = list(faults)


class Fault(str):
    """A fault's words that name territories: `about` lists them (ids, the first the one to
    point at) and `told(name)` says it again naming each as `name(id)` does, so that a
    reader of another form of the map (an imported file) can show it in its own terms."""

    def __new__(cls, say, about):
        fault = super().__new__(cls, say(repr))
        fault.say, fault.about = say, tuple(about)
        return fault

    def told(self, name) -> str:
        return self.say(lambda territory: repr(name(territory)))


def _named(items, kind: str, faults: list) -> list[str]:
    """The ids of a list of {id, name} objects; faults for missing or duplicate ones."""
    ids: list[str] = []
    one = {"territories": "territory", "continents": "continent"}[kind]
    if not isinstance(items, list) or not items:
        faults.append(f"the map has no {kind}")
        return ids
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict) or not isinstance(item.get("id"), str) or not item["id"]:
            faults.append(f"{one} number {number} has no id")
            continue
        if item["id"] in ids:
            faults.append(f"duplicate {one} id {item['id']!r}")
        ids.append(item["id"])
        if not isinstance(item.get("name"), str) or not item["name"].strip():
            faults.append(f"{one} {item['id']!r} has no name")
        _check_names(item, f"{one} {item['id']!r}", faults)
    return ids


def _check_names(item: dict, what: str, faults: list) -> None:
    """A name (and each translation in `names`) goes into pages, mail and the game log: at
    most MAX_NAME characters, no control characters."""
    names = item.get("names") or {}
    if not isinstance(names, dict):
        faults.append(f"{what}'s names must be an object of language: name")
        names = {}
    for language, name in [("", item.get("name")), *names.items()]:
        if not isinstance(name, str):
            if language:
                faults.append(f"{what}'s {language} name is not text")
            continue
        label = f"{what}'s {language} name" if language else f"{what}'s name"
        if len(name) > MAX_NAME:
            faults.append(f"{label} is longer than {MAX_NAME} characters")
        if any(unicodedata.category(char) in ("Cc", "Cs") for char in name):
            faults.append(f"{label} holds control characters")


def _check_continents(data: dict, territories: list, faults: list) -> None:
    home: dict = {}
    for continent in data.get("continents") or []:
        if not isinstance(continent, dict) or not isinstance(continent.get("id"), str):
            continue
        cid = continent["id"]
        bonus = continent.get("bonus")
        if isinstance(bonus, bool) or not isinstance(bonus, int) or not 0 <= bonus <= MAX_BONUS:
            faults.append(f"continent {cid!r} needs a bonus of 0 to {MAX_BONUS} armies")
        members = continent.get("territories")
        if not isinstance(members, list) or not members:
            faults.append(f"continent {cid!r} has no territories")
            continue
        for t in members:
            if t not in territories:
                faults.append(f"continent {cid!r} lists unknown territory {t!r}")
            elif t in home:
                faults.append(f"territory {t!r} is in two continents: {home[t]!r} and {cid!r}")
            else:
                home[t] = cid
    for item in data.get("territories") or []:
        if not isinstance(item, dict) or item.get("id") not in territories:
            continue
        t = item["id"]
        if t not in home:
            faults.append(f"territory {t!r} is in no continent")
        elif item.get("continent") != home[t]:
            faults.append(f"territory {t!r} says continent {item.get('continent')!r} "
                          f"but continent {home[t]!r} lists it")


def _check_borders(data: dict, territories: list, faults: list) -> None:
    borders = data.get("borders")
    if not isinstance(borders, list) or not borders:
        faults.append("the map has no borders")
        return
    known = set(territories)
    around: dict = {t: set() for t in territories}
    seen = set()
    for pair in borders:
        if not isinstance(pair, list) or len(pair) != 2:
            faults.append(f"border {pair!r} is not a pair of territories")
            continue
        a, b = pair
        for t in (a, b):
            if t not in known:
                faults.append(f"border {a!r}-{b!r} names unknown territory {t!r}")
        if a == b:
            faults.append(f"border from {a!r} to itself")
            continue
        if a in known and b in known:
            if frozenset(pair) in seen:
                faults.append(f"border {a!r}-{b!r} is listed twice")
            seen.add(frozenset(pair))
            around[a].add(b)
            around[b].add(a)
    if territories and not faults:
        cut_off = unreachable(territories, around)
        if cut_off:
            faults.append(Fault(lambda name: (
                f"the board is disconnected: {', '.join(map(name, cut_off[:10]))}"
                f"{' …' if len(cut_off) > 10 else ''} cannot be reached from "
                f"{name(territories[0])}"), cut_off))


def unreachable(territories: list, around: dict) -> list:
    """The territories no path of borders leads to from the first, in map order."""
    reached, frontier = {territories[0]}, [territories[0]]
    while frontier:
        for n in around[frontier.pop()]:
            if n not in reached:
                reached.add(n)
                frontier.append(n)
    return [t for t in territories if t not in reached]


def _check_armies(data: dict, territories: list, faults: list) -> None:
    armies = data.get("starting_armies")
    if not isinstance(armies, dict) or not armies:
        faults.append("the map has no starting armies per table size")
        return
    for key, count in armies.items():
        if not str(key).isdigit() or not 2 <= int(key) <= 6:
            faults.append(f"starting_armies: table size {key!r} is not from 2 to 6")
            continue
        if isinstance(count, bool) or not isinstance(count, int):
            faults.append(f"starting_armies for {key} players is not a whole number")
            continue
        players = int(key)
        # Two players share the board with the neutral: three hands.
        hands = 3 if players == 2 else players
        most = -(-len(territories) // hands)
        if count < most:
            faults.append(f"starting armies for {players} players ({count}) are too few for "
                          f"{most} territories each")
    sizes = sorted(int(k) for k in armies if str(k).isdigit())
    if sizes and sizes != list(range(sizes[0], sizes[-1] + 1)):
        faults.append("starting_armies must cover every table size from the fewest to the most")


def _check_deck(data: dict, territories: list, faults: list) -> None:
    deck = data.get("deck")
    if deck is None:
        return
    cards = deck.get("cards") if isinstance(deck, dict) else None
    if not isinstance(cards, list):
        faults.append("deck.cards must be a list of cards")
        return
    on_cards = []
    for card in cards:
        t, symbol = (card.get("territory"), card.get("symbol")) if isinstance(card, dict) else (
            None, None)
        if symbol not in (*SYMBOLS, "wild"):
            faults.append(f"card {card!r} has no symbol of {', '.join(SYMBOLS)} or wild")
        elif (symbol == "wild") != (t is None):
            faults.append(f"card {card!r}: a wild shows no territory, any other card one")
        if t is not None:
            if t not in territories:
                faults.append(f"a card shows unknown territory {t!r}")
            on_cards.append(t)
    if sorted(on_cards) != sorted(territories):
        faults.append("the deck must hold one card for each territory")


def _check_missions(data: dict, continents: list, faults: list) -> None:
    missions = data.get("missions")
    if missions is None:
        return
    if not isinstance(missions, list):
        faults.append("missions must be a list")
        return
    ids = []
    for mission in missions:
        kind = mission.get("kind") if isinstance(mission, dict) else None
        if kind not in MISSION_KINDS:
            faults.append(f"mission {mission!r} has no kind of {', '.join(MISSION_KINDS)}")
            continue
        if mission.get("id") in ids:
            faults.append(f"duplicate mission id {mission.get('id')!r}")
        ids.append(mission.get("id"))
        for c in mission.get("continents", ()):
            if c not in continents:
                faults.append(f"mission {mission.get('id')!r} names unknown continent {c!r}")
    for mission in missions:
        if isinstance(mission, dict) and mission.get("kind") == "destroy" and (
                mission.get("fallback") not in ids):
            faults.append(f"mission {mission.get('id')!r} falls back to unknown mission "
                          f"{mission.get('fallback')!r}")


def validate_map(data) -> None:
    """Raise MapError listing every fault of a map's data; return if it is playable."""
    if not isinstance(data, dict):
        raise MapError(["a map is a JSON object"])
    faults: list[str] = []
    if data.get("format") != 1:
        faults.append(f"format {data.get('format')!r} is not known (this service reads 1)")
    for key in ("id", "name"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            faults.append(f"the map has no {key}")
    _check_names(data, "the map", faults)
    territories = _named(data.get("territories"), "territories", faults)
    continents = _named(data.get("continents"), "continents", faults)
    _check_continents(data, territories, faults)
    _check_borders(data, territories, faults)
    _check_armies(data, territories, faults)
    _check_deck(data, territories, faults)
    _check_missions(data, continents, faults)
    check_drawing(data, territories, continents, faults)
    if faults:
        raise MapError(faults)
