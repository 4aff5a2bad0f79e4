"""The two formats community maps are published in, read line by line into one plain shape
(continents, territories with coordinates, neighbour lists), every fault tied to its line.

Domination (`.map`): optional header lines (`name ...`, `ver ...`), then sections
`[files]` (`key value`, ignored: its pictures are bitmaps), `[continents]` (`name bonus
[colour]`, numbered 1, 2, ... in order), `[countries]` (`index name continent x y`) and
`[borders]` (`index neighbour-index ...`); names write spaces as `_`; `;` starts a comment.

Conquest (`.map` too): `[Map]` (`key=value`: author, image, wrap, ...), `[Continents]`
(`Name=bonus`) and `[Territories]` (`name,x,y,continent,neighbour,neighbour...`, groups
separated by blank lines); neighbours and continents are named.

The shape built here is turned into a map file by engine.maps.community.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .validate import MAX_NAME

DOMINATION, CONQUEST = "domination", "conquest"
# What a file may hold: the limits keep reading, checking and drawing it short, and each
# one passed is a fault at the line that passes it.
MAX_BYTES = 1_000_000
MAX_TERRITORIES = 400
MAX_CONTINENTS = MAX_TERRITORIES  # each holds a territory at least
MAX_NEIGHBOURS = 100  # listed on one territory's line
MAX_COORDINATE = 1_000_000  # either side of 0
MAX_FAULTS = 20
DOMINATION_SECTIONS = ("files", "continents", "countries", "borders")
CONQUEST_SECTIONS = ("map", "continents", "territories")
SECTION = re.compile(r"^\[([^\]]*)\]\s*$")


class MapFileError(ValueError):
    """A community map file that cannot be imported; `faults` are (line, what is wrong),
    line 0 for the file as a whole."""

    def __init__(self, faults: list[tuple[int, str]]):
        self.faults = sorted(faults, key=lambda f: f[0])[:MAX_FAULTS]
        super().__init__("\n".join(where(line, text) for line, text in self.faults))


def where(line: int, text: str) -> str:
    """A fault or a warning with its line (none for line 0: the file as a whole)."""
    return f"line {line}: {text}" if line else text


@dataclass
class Continent:
    name: str
    bonus: int
    line: int


@dataclass
class Territory:
    name: str
    x: float
    y: float
    continent: str  # a continent's name
    line: int
    neighbours: list = field(default_factory=list)  # (name, line)


@dataclass
class Parsed:
    """A community map as read: names as written, references resolved to names."""

    format: str
    name: str | None
    continents: list
    territories: list
    wrap: bool = False
    warnings: list = field(default_factory=list)  # (line, text)


def decode(raw: bytes) -> str:
    """The file's text: UTF-8 (with or without a byte-order mark), else Windows-1252, as
    the older map editors wrote."""
    if len(raw) > MAX_BYTES:
        raise MapFileError([(0, f"the file is {len(raw)} bytes: at most {MAX_BYTES} are read")])
    if b"\0" in raw:
        raise MapFileError([(0, "the file is binary, not a map's text")])
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return raw.decode("cp1252", errors="replace")


def _lines(text: str):
    """(line number, stripped line) for every line that is not blank or a comment."""
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if line and not line.startswith(";"):
            yield number, line


def detect(text: str) -> str:
    """Which of the two formats the text is, by its section names."""
    sections = {m.group(1).strip().lower() for _, line in _lines(text)
                if (m := SECTION.match(line))}
    if sections & {"territories", "map"}:
        return CONQUEST
    if sections & {"countries", "borders", "files"}:
        return DOMINATION
    raise MapFileError([(0, "not a community map: a Domination map has [continents], "
                            "[countries] and [borders], a Conquest map [Continents] and "
                            "[Territories]")])


def parse(text: str) -> Parsed:
    return parse_conquest(text) if detect(text) == CONQUEST else parse_domination(text)


def _number(text: str, what: str, line: int, faults: list, whole: bool = True):
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        faults.append((line, f"{what} {text!r} is not a {'whole ' if whole else ''}number"))
        return None
    if not whole and (value != value or abs(value) == float("inf")):
        faults.append((line, f"{what} {text!r} is not a number"))
        return None
    if not whole and abs(value) > MAX_COORDINATE:
        faults.append((line, f"{what} {text} is out of range: -{MAX_COORDINATE} to "
                             f"{MAX_COORDINATE}"))
        return None
    return value


def _named(name: str, line: int, faults: list) -> bool:
    """Whether a name is short enough for pages and the game log (a fault if not)."""
    if len(name) <= MAX_NAME:
        return True
    faults.append((line, f"the name {name[:20]!r}… is {len(name)} characters: at most "
                         f"{MAX_NAME}"))
    return False


class _Counted:
    """Territories or continents as a file lists them: a fault at the first line past
    `most`, none after it."""

    def __init__(self, kind: str, most: int):
        self.kind, self.most, self.count = kind, most, 0

    def room(self, line: int, faults: list) -> bool:
        self.count += 1
        if self.count == self.most + 1:
            faults.append((line, f"more than {self.most} {self.kind}: a map has at most "
                                 f"{self.most}"))
        return self.count <= self.most


def _neighbours(count: int, whose: str, line: int, faults: list) -> bool:
    if count <= MAX_NEIGHBOURS:
        return True
    faults.append((line, f"{whose} lists {count} neighbours: at most {MAX_NEIGHBOURS}"))
    return False


def _sections(text: str, known: tuple, faults: list, header=None):
    """Each line with the section it stands in; an unknown section is a fault, and so is
    a line before any section (unless `header` takes it)."""
    section = None
    for number, line in _lines(text):
        m = SECTION.match(line)
        if m:
            name = m.group(1).strip()
            if name.lower() not in known:
                faults.append((number, f"unknown section [{name}] (this format has "
                                       f"{', '.join(f'[{k}]' for k in known)})"))
                section = "?"
            else:
                section = name.lower()
            continue
        if section is None:
            if header is None or not header(number, line):
                faults.append((number, "a line before the first section"))
        elif section != "?":
            yield section, number, line


# ---- Domination ---------------------------------------------------------------------------
def _domination_name(word: str) -> str:
    return word.replace("_", " ").strip()


def parse_domination(text: str) -> Parsed:
    faults: list = []
    header: dict = {}

    def header_line(number, line):
        key, _, value = line.partition(" ")
        header[key.lower()] = value.strip()
        return True

    continents: list[Continent] = []
    countries: dict[int, Territory] = {}
    borders: list = []  # (line, index, neighbour indices)
    continents_listed = _Counted("continents", MAX_CONTINENTS)
    countries_listed = _Counted("territories", MAX_TERRITORIES)
    for section, number, line in _sections(text, DOMINATION_SECTIONS, faults,
                                           header_line):
        words = line.split()
        if section == "continents":
            if len(words) < 2:
                faults.append((number, "a continent line is `name bonus [colour]`"))
                continue
            if not continents_listed.room(number, faults):
                continue
            bonus = _number(words[1], "bonus", number, faults)
            name = _domination_name(words[0])
            if _named(name, number, faults) and bonus is not None:
                continents.append(Continent(name, bonus, number))
        elif section == "countries":
            if len(words) != 5:
                faults.append((number, "a country line is `index name continent x y`"))
                continue
            if not countries_listed.room(number, faults) or not _named(
                    _domination_name(words[1]), number, faults):
                continue
            index = _number(words[0], "country index", number, faults)
            home = _number(words[2], "continent number", number, faults)
            x = _number(words[3], "x", number, faults, whole=False)
            y = _number(words[4], "y", number, faults, whole=False)
            if None in (index, home, x, y):
                continue
            if index in countries:
                faults.append((number, f"country index {index} is used twice (first on line "
                                       f"{countries[index].line})"))
                continue
            if not 1 <= home <= len(continents):
                faults.append((number, f"country {words[1]!r} is in no continent: continent "
                                       f"number {home} is not one of 1 to {len(continents)}"))
                continue
            countries[index] = Territory(_domination_name(words[1]), x, y,
                                         continents[home - 1].name, number)
        elif section == "borders":
            if not _neighbours(len(words) - 1, f"country {words[0]}", number, faults):
                continue
            numbers = [_number(w, "country index", number, faults) for w in words]
            if None not in numbers:
                borders.append((number, numbers[0], numbers[1:]))
    seen_rows: dict = {}
    for number, index, neighbours in borders:
        if index not in countries:
            faults.append((number, f"borders of unknown country {index}"))
            continue
        if index in seen_rows:
            faults.append((number, f"the borders of country {index} are listed twice (first "
                                   f"on line {seen_rows[index]})"))
            continue
        seen_rows[index] = number
        for other in neighbours:
            if other not in countries:
                faults.append((number, f"border to unknown country {other}"))
            else:
                countries[index].neighbours.append((countries[other].name, number))
    if not continents and not faults:
        faults.append((0, "the file has no [continents]"))
    if not countries and not faults:
        faults.append((0, "the file has no [countries]"))
    if faults:
        raise MapFileError(faults)
    territories = [countries[i] for i in sorted(countries)]
    name = header.get("name") or None
    return Parsed(DOMINATION, name and _domination_name(name), continents, territories)


# ---- Conquest -----------------------------------------------------------------------------
def parse_conquest(text: str) -> Parsed:
    faults: list = []
    warnings: list = []
    header: dict = {}
    continents: list[Continent] = []
    territories: list[Territory] = []
    continents_listed = _Counted("continents", MAX_CONTINENTS)
    territories_listed = _Counted("territories", MAX_TERRITORIES)
    for section, number, line in _sections(text, CONQUEST_SECTIONS, faults):
        if section == "map":
            key, sign, value = line.partition("=")
            if not sign:
                faults.append((number, "a [Map] line is `key=value`"))
            header[key.strip().lower()] = value.strip()
        elif section == "continents":
            name, sign, bonus = line.rpartition("=")
            if not sign or not name.strip():
                faults.append((number, "a continent line is `Name=bonus`"))
                continue
            if not continents_listed.room(number, faults):
                continue
            bonus = _number(bonus.strip(), "bonus", number, faults)
            if _named(name.strip(), number, faults) and bonus is not None:
                continents.append(Continent(name.strip(), bonus, number))
        else:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) < 4 or not parts[0] or not parts[3]:
                faults.append((number, "a territory line is "
                                       "`name,x,y,continent,neighbour,neighbour...`"))
                continue
            if not territories_listed.room(number, faults) or not _neighbours(
                    len(parts) - 4, repr(parts[0][:MAX_NAME]), number, faults) or not all(
                    [_named(name, number, faults) for name in parts[:1] + parts[3:]]):
                continue
            x = _number(parts[1], "x", number, faults, whole=False)
            y = _number(parts[2], "y", number, faults, whole=False)
            if x is None or y is None:
                continue
            territory = Territory(parts[0], x, y, parts[3], number)
            territory.neighbours = [(n, number) for n in parts[4:] if n]
            if len(territory.neighbours) < len(parts) - 4:
                warnings.append((number, "an empty neighbour name (a comma too many) is "
                                         "left out"))
            territories.append(territory)
    if not continents and not faults:
        faults.append((0, "the file has no [Continents]"))
    if not territories and not faults:
        faults.append((0, "the file has no [Territories]"))
    if faults:
        raise MapFileError(faults)
    wrap = header.get("wrap", "").lower() in ("yes", "true", "1")
    return Parsed(CONQUEST, header.get("name") or None, continents, territories, wrap=wrap,
                  warnings=warnings)
