"""A community map file made a map of this service: names resolved, borders made two-way,
ids slugified, starting armies and table sizes from the territory count, a drawing from the
territories' coordinates; every fault named with its line, and the result validated (the
validator's faults about territories, such as a disconnected board, shown at their line).

Rules it states (docs/moderators/maps.md):
- A border listed on one side only is played both ways (the engine's borders are two-way);
  each is reported as a warning with its line, never silently.
- Table sizes: n players when every hand (two players share the board with a neutral: three
  hands) gets at least 3 territories, so a board needs 9 territories, 18 for six players.
- Starting armies: the classic table (40, 35, 30, 25, 20 for 2 to 6 players) scaled by
  territories / 42 and rounded up, and at least twice the territories each hand is dealt.
- The deck is the default: one card per territory, the symbols in turn, two wilds.
"""

from __future__ import annotations

import re
import unicodedata

from . import FORMAT, default_deck, validate_map
from .formats import MAX_FAULTS, MAX_TERRITORIES, MapFileError, Parsed, decode, parse
from .validate import MAX_NAME, MapError
from .voronoi import draw

MIN_TERRITORIES = 9
MAX_WARNINGS = MAX_FAULTS  # listed; the rest are counted
PER_HAND = 3
CLASSIC_ARMIES = {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}
CLASSIC_TERRITORIES = 42
ID_LENGTH = 48


def slug(text: str, fallback: str = "map") -> str:
    """An id from a name: ASCII letters and digits joined by `_`, lower case."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    word = re.sub(r"[^a-z0-9]+", "_", ascii_text.lower()).strip("_")[:ID_LENGTH].strip("_")
    return word or fallback


def _unique(base: str, taken: set) -> str:
    found, number = base, 2
    while found in taken:
        found, number = f"{base}_{number}", number + 1
    taken.add(found)
    return found


def hands(players: int) -> int:
    return 3 if players == 2 else players


def table_sizes(territories: int) -> list[int]:
    return [n for n in range(2, 7) if hands(n) * PER_HAND <= territories]


def starting_armies(territories: int) -> dict[str, int]:
    return {str(n): max(-(-CLASSIC_ARMIES[n] * territories // CLASSIC_TERRITORIES),
                        2 * -(-territories // hands(n)))
            for n in table_sizes(territories)}


def _lookup(names: dict, folded: dict, wanted: str):
    """A name as written, else the one name it matches ignoring case and spacing."""
    if wanted in names:
        return wanted
    return folded.get(" ".join(wanted.split()).casefold())


def _folded(names) -> dict:
    found: dict = {}
    for name in names:
        key = " ".join(name.split()).casefold()
        found[key] = None if key in found else name  # ambiguous: no fallback
    return {k: v for k, v in found.items() if v is not None}


def _resolve(parsed: Parsed, faults: list, warnings: list):
    """{territory name: continent name} and the two-way borders (pairs of names)."""
    continents: dict = {}
    for c in parsed.continents:
        if c.bonus < 0:
            faults.append((c.line, f"continent {c.name!r} has a bonus of {c.bonus}: "
                                   f"0 or more armies"))
        if c.name in continents:
            faults.append((c.line, f"duplicate continent name {c.name!r} (first on line "
                                   f"{continents[c.name].line})"))
        continents.setdefault(c.name, c)
    folded_continents = _folded(continents)
    territories: dict = {}
    for t in parsed.territories:
        if not t.name:
            faults.append((t.line, "a territory without a name"))
        elif t.name in territories:
            faults.append((t.line, f"duplicate territory name {t.name!r} (first on line "
                                   f"{territories[t.name].line})"))
        else:
            territories[t.name] = t
    folded = _folded(territories)
    home: dict = {}
    homeless = False
    for t in territories.values():
        continent = _lookup(continents, folded_continents, t.continent)
        if continent is None:
            homeless = True
            faults.append((t.line, f"territory {t.name!r} is in no continent: "
                                   f"{t.continent!r} is not in the continents' section"))
        home[t.name] = continent
    one_way: dict = {}
    for t in territories.values():
        for wanted, line in t.neighbours:
            other = _lookup(territories, folded, wanted)
            if other is None:
                faults.append((line, f"border to unknown territory {wanted!r}"))
            elif other == t.name:
                faults.append((line, f"a border from {t.name!r} to itself"))
            elif (t.name, other) in one_way:
                warnings.append((line, f"{t.name!r} lists {other!r} twice"))
            else:
                one_way[(t.name, other)] = line
    pairs: dict = {}
    for (a, b), line in one_way.items():
        if (b, a) not in one_way:
            warnings.append((line, f"{a!r} borders {b!r} but not the other way round: "
                                   f"played both ways"))
        pairs.setdefault(frozenset((a, b)), (a, b))
    for c in continents.values():
        if c.name not in home.values() and not homeless:
            faults.append((c.line, f"continent {c.name!r} has no territories"))
    return territories, home, list(pairs.values())


def _check_size(territories: dict, faults: list) -> None:
    count = len(territories)
    if count < MIN_TERRITORIES:
        faults.append((0, f"the map has {count} territories: a board needs at least "
                          f"{MIN_TERRITORIES} (three for each of three hands)"))
    if count > MAX_TERRITORIES:
        faults.append((0, f"the map has {count} territories: at most {MAX_TERRITORIES}"))


def _by_line(problem: MapError, territories: dict, ids: dict) -> MapFileError:
    """The validator's faults as the file's: one about territories (a disconnected board)
    at the line of the first it names, in the file's names; any other for the file."""
    by_id = {ids[name]: territory for name, territory in territories.items()}
    faults = []
    for fault in problem.faults:
        about = [by_id[t] for t in getattr(fault, "about", ()) if t in by_id]
        if about:
            faults.append((about[0].line, fault.told(lambda t: by_id[t].name)))
        else:
            faults.append((0, str(fault)))
    return MapFileError(faults)


def to_map(parsed: Parsed, map_id: str, name: str) -> tuple[dict, list]:
    """(the map file's data, warnings as (line, text)); MapFileError on any fault."""
    faults: list = []
    warnings: list = list(parsed.warnings)
    territories, home, borders = _resolve(parsed, faults, warnings)
    if not faults:
        _check_size(territories, faults)
    if faults:
        raise MapFileError(faults)
    taken: set = set()
    ids = {t: _unique(slug(t, "territory"), taken) for t in territories}
    continent_names = [c.name for c in parsed.continents]
    continent_ids = {c: _unique(slug(c, "continent"), taken) for c in dict.fromkeys(
        continent_names)}
    members: dict = {c: [] for c in continent_ids}
    for t in territories:
        members[home[t]].append(ids[t])
    bonus = {c.name: c.bonus for c in reversed(parsed.continents)}
    territory_ids = [ids[t] for t in territories]
    data = {
        "format": FORMAT, "id": map_id, "name": name,
        "territories": [{"id": ids[t], "name": t, "continent": continent_ids[home[t]]}
                        for t in territories],
        "continents": [{"id": continent_ids[c], "name": c, "bonus": bonus[c],
                        "territories": members[c]} for c in continent_ids],
        "borders": [[ids[a], ids[b]] for a, b in borders],
        "deck": {"cards": default_deck(territory_ids)},
        "starting_armies": starting_armies(len(territories)),
    }
    data["drawing"] = draw(
        {ids[t]: (p.x, p.y) for t, p in territories.items()},
        {ids[t]: continent_ids[home[t]] for t in territories},
        data["borders"], wrap=parsed.wrap)
    try:
        validate_map(data)
    except MapError as problem:  # a disconnected board, or a fault the reading let pass
        raise _by_line(problem, territories, ids) from problem
    return data, _some(sorted(warnings, key=lambda w: w[0]))


def _some(warnings: list) -> list:
    """The first MAX_WARNINGS warnings, then how many more there were (at line 0)."""
    if len(warnings) <= MAX_WARNINGS:
        return warnings
    more = len(warnings) - MAX_WARNINGS
    return [*warnings[:MAX_WARNINGS], (0, f"and {more} more warnings like these")]


def read(raw: bytes, filename: str = "", map_id: str | None = None,
         name: str | None = None) -> tuple[dict, list, str]:
    """A community map file's bytes made a map: (data, warnings, the format read). Its
    name: `name`, else the file's own, else the file name in words; its id: `map_id`, else
    the name slugified."""
    parsed = parse(decode(raw))
    chosen = " ".join((name or parsed.name or _words(filename)[:MAX_NAME]).split()) or "Map"
    if len(chosen) > MAX_NAME:
        raise MapFileError([(0, f"the map's name {chosen[:20]!r}… is {len(chosen)} "
                                f"characters: at most {MAX_NAME}")])
    data, warnings = to_map(parsed, map_id or slug(chosen), chosen)
    return data, warnings, parsed.format


def _words(filename: str) -> str:
    stem = re.split(r"[\\/]", filename)[-1].rsplit(".", 1)[0]
    return " ".join(re.split(r"[_\-\s]+", stem)).strip().title()
