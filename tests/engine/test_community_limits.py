"""Community map files are untrusted input: degenerate files (every point at one spot, on one
line, huge and tiny coordinates, thousands of territories, endless neighbour lists, long
names) are each drawn or refused with a precise fault; the drawings of ordinary files stay
exactly what they were.

The timeout marks are a bound on never finishing (a loop that never ends fails the test
instead of hanging the suite), not a measure of speed."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from engine.maps import canonical, community, formats, validate_map
from engine.maps.formats import MapFileError

FILES = Path(__file__).resolve().parent / "community_maps"
BOUND = pytest.mark.timeout(120, method="thread")


def domination(points, borders=None, continents=1, name="Degenerate") -> str:
    """A Domination file of territories T1, T2, ... at `points`, in `continents` continents
    taken in turn, each bordering the next (a chain: a connected board) unless `borders`
    says {index: [neighbour indices]}."""
    count = len(points)
    borders = borders or {i: [n for n in (i - 1, i + 1) if 1 <= n <= count]
                          for i in range(1, count + 1)}
    lines = [f"name {name}", "[continents]"]
    lines += [f"C{c} 1 red" for c in range(1, continents + 1)]
    lines += ["[countries]"]
    lines += [f"{i} T{i} {(i - 1) % continents + 1} {x} {y}"
              for i, (x, y) in enumerate(points, 1)]
    lines += ["[borders]"]
    lines += [" ".join(map(str, [i, *around])) for i, around in borders.items()]
    return "\n".join(lines) + "\n"


def read(text: str):
    return community.read(text.encode(), "degenerate.map")


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


DRAWN = {
    "all points equal": domination([(1, 1)] * 80),
    "the most territories at one point": domination([(5, 5)] * formats.MAX_TERRITORIES,
                                                    continents=6),
    "collinear": domination([(i, 0) for i in range(80)]),
    "collinear, vertical and repeated": domination([(0, i // 3) for i in range(90)]),
    "huge coordinates": domination([(formats.MAX_COORDINATE - i, -formats.MAX_COORDINATE)
                                    for i in range(40)]),
    "huge spread, the rest at one spot": domination(
        [(formats.MAX_COORDINATE, formats.MAX_COORDINATE)] + [(i * 1e-3, 0) for i in range(60)]),
    "tiny coordinates": domination([(i * 1e-300, i * 1e-300) for i in range(50)]),
    "subnormal coordinates": domination([(i * 5e-324, 0) for i in range(50)]),
    "two clusters": domination([(0, 0)] * 50 + [(1, 1)] * 50, continents=2),
}


@BOUND
@pytest.mark.parametrize("text", DRAWN.values(), ids=DRAWN.keys())
def test_a_degenerate_file_is_drawn_every_territory_at_its_own_place(text):
    data = read(text)[0]
    validate_map(data)
    drawing = data["drawing"]
    labels = [tuple(point) for point in drawing["labels"].values()]
    assert len(set(labels)) == len(data["territories"])
    assert all(shape.startswith("M") and shape.endswith("Z")
               for shape in drawing["shapes"].values())
    assert 0 < drawing["width"] and 0 < drawing["height"]


def huge(value) -> str:
    return domination([(value, 0)] + [(i, i) for i in range(1, 12)])


REFUSED = [
    ("thousands of territories", domination([(i % 70, i // 70) for i in range(5000)]),
     f"{formats.MAX_TERRITORIES + 1} T{formats.MAX_TERRITORIES + 1} ",
     f"more than {formats.MAX_TERRITORIES} territories"),
    ("a huge x", huge("1e300"), "1 T1 ",
     f"x 1e300 is out of range: -{formats.MAX_COORDINATE} to {formats.MAX_COORDINATE}"),
    ("a huge y", domination([(0, "-2e6")] + [(i, i) for i in range(1, 12)]), "1 T1 ",
     "y -2e6 is out of range"),
    ("a neighbour list without end", domination(
        [(i, 0) for i in range(12)],
        {1: [2] * (formats.MAX_NEIGHBOURS + 1), **{i: [i - 1] for i in range(2, 13)}}),
     f"1 {'2 ' * 3}", f"{formats.MAX_NEIGHBOURS + 1} neighbours: at most "
                      f"{formats.MAX_NEIGHBOURS}"),
    ("a territory's name too long", domination([(i, 0) for i in range(12)]).replace(
        " T5 ", f" {'N' * 81} "), "5 NNN",
     "the name 'NNNNNNNNNNNNNNNNNNNN'… is 81 characters: at most 80"),
    ("thousands of continents", domination([(i, 0) for i in range(12)], continents=12)
     .replace("[countries]", "\n".join(f"X{i} 1" for i in range(500)) + "\n[countries]"),
     "X388 ", f"more than {formats.MAX_CONTINENTS} continents"),
]


@BOUND
@pytest.mark.parametrize(("kind", "text", "start", "words"), REFUSED,
                         ids=[case[0] for case in REFUSED])
def test_a_file_past_a_limit_is_refused_at_the_line_that_passes_it(kind, text, start, words):
    with pytest.raises(MapFileError) as refused:
        read(text)
    line = line_of(text, start)
    assert any(at == line and words in said for at, said in refused.value.faults), \
        (line, refused.value.faults)


def test_a_conquest_file_has_the_same_limits():
    territories = "".join(f"T{i},{i},0,A,T{i + 1}\n" for i in range(1000))
    with pytest.raises(MapFileError) as refused:
        read(f"[Continents]\nA=1\n[Territories]\n{territories}")
    assert refused.value.faults[0][0] == 4 + formats.MAX_TERRITORIES
    assert "more than 400 territories" in refused.value.faults[0][1]
    with pytest.raises(MapFileError, match="line 4: x 1e9 is out of range"):
        read("[Continents]\nA=1\n[Territories]\nT,1e9,0,A,U\nU,0,0,A,T\n")
    long_name = "L" * 81
    with pytest.raises(MapFileError, match="line 3: the name 'LLL.* is 81 characters"):
        read(f"[Continents]\nA=1\n{long_name}=2\n[Territories]\nT,1,0,A,U\nU,0,0,A,T\n")


def test_warnings_past_a_limit_are_counted_not_listed():
    text = domination([(i, 0) for i in range(40)], {
        i: [n for n in (i - 1,) if n >= 1] for i in range(1, 41)})  # every border one way
    warnings = read(text)[1]
    assert len(warnings) == community.MAX_WARNINGS + 1
    assert warnings[-1] == (0, f"and {39 - community.MAX_WARNINGS} more warnings like "
                               f"these")


# sha256 of the canonical drawing of each file in community_maps/, as drawn before the
# spreading of points at one spot was bounded: an ordinary file's drawing never changes.
DRAWINGS = {
    "five_isles.map": "55de1c10c403e07ca42f4eb59b0320b29dbf47ad75d8b58acc8cb7f3e8b99be5",
    "twin_seas.map": "33924ce5648c23716019ac9d6e7bb02624ae2b8c43c861de1b8170649d795b80",
}


@pytest.mark.parametrize("name", DRAWINGS)
def test_an_ordinary_file_is_drawn_as_before(name):
    data = community.read((FILES / name).read_bytes(), name)[0]
    assert hashlib.sha256(canonical(data["drawing"])).hexdigest() == DRAWINGS[name]


def test_points_nudged_apart_a_few_times_are_drawn_as_before():
    """Three territories at one spot were nudged apart (the first few turns of the old
    nudge); those turns are kept, so such a file's drawing is the one it always had."""
    text = (FILES / "five_isles.map").read_text()
    text = text.replace("2 Lighthouse 1 160 40", "2 Lighthouse 1 100 60").replace(
        "3 Pine_Hill 1 130 110", "3 Pine_Hill 1 100 60")
    data = read(text)[0]
    assert hashlib.sha256(canonical(data["drawing"])).hexdigest() == (
        "93139d42df352ed4a83f4dea2bcb1b1501b519aa4283c02fcaeeec5052f39c41")


def test_a_map_name_too_long_is_refused_before_the_drawing(monkeypatch):
    monkeypatch.setattr(community, "draw", lambda *args, **kwargs: pytest.fail("drawn"))
    text = domination([(i, 0) for i in range(12)], name="N" * 120)
    with pytest.raises(MapFileError) as refused:
        read(text)
    assert refused.value.faults == [(0, "the map's name 'NNNNNNNNNNNNNNNNNNNN'… is 120 "
                                        "characters: at most 80")]
    with pytest.raises(MapFileError, match="is 81 characters"):
        community.read(text.encode(), "x.map", name="M" * 81)


def test_a_long_file_name_makes_a_name_cut_short():
    text = domination([(i, 0) for i in range(12)]).replace("name Degenerate\n", "")
    data = community.read(text.encode(), "a" * 200 + ".map")[0]
    assert data["name"] == "A" + "a" * 79
