"""Community map files (engine.maps.formats, community, drawing): both formats read
into a valid map of this service, with a drawing made from the coordinates; every kind of
bad file refused with the line at fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.maps import build, community, validate, validate_map
from engine.maps.formats import CONQUEST, DOMINATION, MapFileError, detect
from engine.maps.validate import MapError

FILES = Path(__file__).resolve().parent / "community_maps"
DOMINATION_TEXT = (FILES / "five_isles.map").read_text(encoding="utf-8")
CONQUEST_TEXT = (FILES / "twin_seas.map").read_text(encoding="utf-8")


def read(text: str, **options):
    return community.read(text.encode(), "test.map", **options)


def line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_it_reads_a_domination_map():
    data, warnings, source = read(DOMINATION_TEXT)
    board = build(data)
    assert source == DOMINATION and warnings == []
    assert (data["id"], data["name"]) == ("five_isles", "Five Isles")
    assert len(board.territories) == 14 and board.territory_name("fisher_s_bay") == \
        "Fisher's Bay"
    assert {c["id"]: (c["bonus"], len(c["territories"])) for c in data["continents"]} == {
        "north_isle": (2, 3), "east_isle": (3, 4), "south_isle": (2, 3), "west_isle": (2, 4)}
    assert board.continent_of["orchard"] == "west_isle"
    assert len(board.borders) == 22
    assert set(board.neighbours["lagoon"]) == {"old_mill", "fisher_s_bay", "coral_reef", "marsh"}
    # The default deck: one card a territory, symbols in turn, two wilds.
    assert len(board.cards) == 16 and board.cards[-1] == (None, "wild")
    # 14 territories: 2 to 4 players (three territories a hand at least).
    assert data["starting_armies"] == {"2": 14, "3": 12, "4": 10}
    assert (board.min_players, board.max_players) == (2, 4)


def test_it_reads_a_conquest_map_and_plays_a_one_sided_border_both_ways():
    data, warnings, source = read(CONQUEST_TEXT)
    board = build(data)
    assert source == CONQUEST and (data["id"], data["name"]) == ("test", "Test")
    assert len(board.territories) == 12 and len(board.continents) == 3
    assert board.continent_bonus == {"northland": 3, "midlands": 2, "southreach": 4}
    assert board.adjacent("canyon", "red_mesa") and board.adjacent("red_mesa", "canyon")
    assert warnings == [(line_of(CONQUEST_TEXT, "Canyon"),
                         "'Canyon' borders 'Red Mesa' but not the other way round: "
                         "played both ways")]
    assert board.adjacent("frost_peak", "far_east")  # across the map's edge


def test_a_neighbour_listed_twice_or_an_empty_one_is_a_warning_not_a_fault():
    text = bad(CONQUEST_TEXT, ("Frost Peak,60,40,Northland,Ice Bay,",
                               "Frost Peak,60,40,Northland,Ice Bay,Ice Bay,"),
               ("Canyon,360,380,Southreach,Red Mesa", "Canyon,360,380,Southreach,Red Mesa,"))
    data, warnings, _ = read(text)
    assert (line_of(text, "Frost Peak"), "'Frost Peak' lists 'Ice Bay' twice") in warnings
    assert (line_of(text, "Canyon"), "an empty neighbour name (a comma too many) is left "
                                     "out") in warnings
    assert data["borders"] == read(CONQUEST_TEXT)[0]["borders"]


def test_the_name_comes_from_the_option_the_file_or_the_file_name():
    assert read(DOMINATION_TEXT, name="Isles of Test")[0]["name"] == "Isles of Test"
    data = community.read(CONQUEST_TEXT.encode(), "maps/twin_seas.map")[0]
    assert (data["id"], data["name"]) == ("twin_seas", "Twin Seas")
    assert read(CONQUEST_TEXT, map_id="seas")[0]["id"] == "seas"


def test_ids_are_slugs_unique_across_territories_and_continents():
    text = CONQUEST_TEXT.replace("Midlands", "Timber").replace("Snow Field", "Snöw Field")
    data = read(text)[0]
    ids = [t["id"] for t in data["territories"]] + [c["id"] for c in data["continents"]]
    assert len(ids) == len(set(ids))
    assert "snow_field" in ids and {"timber", "timber_2"} <= set(ids)
    assert {t["name"] for t in data["territories"]} >= {"Snöw Field", "Timber"}
    validate_map(data)


def test_the_drawing_covers_every_territory_and_draws_every_border_once():
    for text in (DOMINATION_TEXT, CONQUEST_TEXT):
        data = read(text)[0]
        drawing = data["drawing"]
        territories = {t["id"] for t in data["territories"]}
        assert set(drawing["shapes"]) == set(drawing["labels"]) == territories
        assert all(shape.startswith("M") and shape.endswith("Z")
                   for shape in drawing["shapes"].values())
        for x, y in drawing["labels"].values():
            assert 0 < x < drawing["width"] and 0 < y < drawing["height"]
        drawn = [frozenset(entry[:2]) for entry in drawing["land_borders"] + drawing["sea_lanes"]]
        assert sorted(map(sorted, drawn)) == sorted(sorted(pair) for pair in data["borders"])
        assert drawing["land_borders"] and set(drawing["continent_outlines"]) == {
            c["id"] for c in data["continents"]}


def test_a_border_across_the_edge_of_a_wrapping_map_leaves_by_both_sides():
    drawing = read(CONQUEST_TEXT)[0]["drawing"]
    lane = next(paths for a, b, paths in drawing["sea_lanes"]
                if {a, b} == {"frost_peak", "far_east"})
    assert len(lane) == 2  # one stub off the west edge, one off the east edge
    ends = sorted(float(path.rsplit("L", 1)[1].split(",")[0]) for path in lane)
    assert ends[0] == 0 and abs(ends[1] - drawing["width"]) < 1


def test_cells_of_territories_that_do_not_border_never_share_an_edge():
    data = read(CONQUEST_TEXT)[0]
    land = {frozenset(entry[:2]) for entry in data["drawing"]["land_borders"]}
    assert land <= {frozenset(pair) for pair in data["borders"]}
    assert frozenset(("dust_plain", "red_mesa")) in land


def bad(text: str, *replacements) -> str:
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text


D, C = DOMINATION_TEXT, CONQUEST_TEXT
BAD_FILES = [
    ("unknown section", bad(D, ("[borders]", "[bridges]")), "[bridges]",
     "unknown section [bridges]"),
    ("bonus not a number", bad(D, ("East_Isle 3", "East_Isle three")), "East_Isle",
     "bonus 'three' is not a whole number"),
    ("coordinate not a number", bad(D, ("5 Salt_Flats 2 390 60", "5 Salt_Flats 2 390 sixty")),
     "5 Salt_Flats", "y 'sixty' is not a number"),
    ("border to an unknown country", bad(D, ("10 8 9", "10 8 9 15")), "10 8 9",
     "border to unknown country 15"),
    ("country in no continent", bad(D, ("13 Fort 4", "13 Fort 7")), "13 Fort",
     "country 'Fort' is in no continent: continent number 7"),
    ("duplicate country index", bad(D, ("13 Fort 4", "12 Fort 4")), "12 Fort",
     "country index 12 is used twice"),
    ("duplicate name", bad(D, ("13 Fort 4", "13 Dunes 4")), "13 Dunes",
     "duplicate territory name 'Dunes'"),
    ("short country line", bad(D, ("7 Old_Mill 2 320 160", "7 Old_Mill 2 320")), "7 Old_Mill",
     "a country line is `index name continent x y`"),
    ("continent without territories", bad(D, ("West_Isle 2 yellow", "West_Isle 2 yellow\n"
                                              "Lost_Isle 1 grey")),
     "Lost_Isle", "continent 'Lost Isle' has no territories"),
    ("disconnected board", bad(D, ("2 1 3 4", "2 1 3"), ("4 2 5 6 7", "4 5 6 7"),
                               ("7 4 6 8", "7 4 6"), ("8 7 9 10 12", "8 9 10 12"),
                               ("6 4 5 7 9", "6 4 5 7"), ("9 6 8 10", "9 8 10")),
     "4 Quarry", "the board is disconnected: 'Quarry', 'Salt Flats'"),
    ("border to itself", bad(D, ("5 4 6", "5 4 5 6")), "5 4 5 6",
     "a border from 'Salt Flats' to itself"),
    ("conquest: unknown section", bad(C, ("[Continents]", "[Regions]")), "[Regions]",
     "unknown section [Regions]"),
    ("conquest: bonus not a number", bad(C, ("Midlands=2", "Midlands=2.5")), "Midlands=",
     "bonus '2.5' is not a whole number"),
    ("conquest: unknown neighbour", bad(C, ("Red Mesa,300,350,Southreach,Dust Plain,",
                                            "Red Mesa,300,350,Southreach,Dusty Plain,")),
     "Red Mesa", "border to unknown territory 'Dusty Plain'"),
    ("conquest: unknown continent", bad(C, ("Canyon,360,380,Southreach",
                                            "Canyon,360,380,Southland")),
     "Canyon", "territory 'Canyon' is in no continent: 'Southland'"),
    ("conquest: duplicate name", bad(C, ("Canyon,360,380", "Timber,360,380")), "Timber,360",
     "duplicate territory name 'Timber'"),
    ("conquest: bad coordinate", bad(C, ("Timber,220,130", "Timber,220,1x0")), "Timber",
     "y '1x0' is not a number"),
    ("conquest: short line", bad(C, ("Canyon,360,380,Southreach,Red Mesa", "Canyon,360,380")),
     "Canyon", "a territory line is"),
    ("conquest: negative bonus", bad(C, ("Midlands=2", "Midlands=-2")), "Midlands=",
     "continent 'Midlands' has a bonus of -2"),
    ("conquest: disconnected", bad(C, ("Canyon,360,380,Southreach,Red Mesa",
                                       "Canyon,360,380,Southreach")),
     "Canyon", "the board is disconnected: 'Canyon' cannot be reached"),
    ("conquest: line before any section", "author=someone\n" + C, "author=",
     "a line before the first section"),
]


@pytest.mark.parametrize(("kind", "text", "start", "words"), BAD_FILES,
                         ids=[case[0] for case in BAD_FILES])
def test_a_bad_file_is_refused_with_the_line_at_fault(kind, text, start, words):
    with pytest.raises(MapFileError) as refused:
        read(text)
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith(start))
    assert any(at == line and words in said for at, said in refused.value.faults), \
        (line, refused.value.faults)
    assert f"line {line}: " in str(refused.value)


DISCONNECTED = bad(C, ("Canyon,360,380,Southreach,Red Mesa", "Canyon,360,380,Southreach"))


def test_a_disconnected_board_is_the_validator_s_finding_shown_at_its_line(monkeypatch):
    """One connectivity check, the validator's: the import shows its fault at the line of
    the first territory cut off, in the file's names; without it the file would import."""
    with pytest.raises(MapFileError) as refused:
        read(DISCONNECTED)
    assert refused.value.faults == [(line_of(C, "Canyon"), "the board is disconnected: "
                                     "'Canyon' cannot be reached from 'Frost Peak'")]
    with pytest.raises(MapError) as checked:
        validate_map(read(C)[0] | {"borders": [
            pair for pair in read(C)[0]["borders"] if "canyon" not in pair]})
    assert checked.value.faults[0] == (
        "the board is disconnected: 'canyon' cannot be reached from 'frost_peak'")
    assert checked.value.faults[0].about == ("canyon",)
    monkeypatch.setattr(validate, "unreachable", lambda territories, around: [])
    assert read(DISCONNECTED)[0]["id"] == "test"


@pytest.mark.parametrize(("text", "words"), [
    ("hello\nworld\n", "not a community map"),
    ("[Continents]\nA=1\n[Territories]\n" + "".join(
        f"T{i},{i},0,A,T{i + 1}\n" for i in range(4)) + "T4,4,0,A,T3\n",
     "the map has 5 territories: a board needs at least 9"),
])
def test_a_file_that_is_no_playable_map_is_refused_as_a_whole(text, words):
    with pytest.raises(MapFileError) as refused:
        read(text)
    assert words in str(refused.value)


def test_a_binary_or_huge_file_is_refused_before_reading():
    with pytest.raises(MapFileError, match="binary"):
        community.read(b"\x89PNG\r\n\x1a\n\0\0", "x.png")
    with pytest.raises(MapFileError, match="at most"):
        community.read(b";" * 1_000_001, "x.map")


def test_a_windows_1252_file_is_read():
    text = CONQUEST_TEXT.replace("Green Vale", "Grüne Au").encode("cp1252")
    data = community.read(text, "x.map")[0]
    assert "Grüne Au" in {t["name"] for t in data["territories"]}


def test_the_detection_reads_section_names_only():
    assert detect(DOMINATION_TEXT) == DOMINATION and detect(CONQUEST_TEXT) == CONQUEST


def test_starting_armies_follow_the_stated_rule():
    assert community.starting_armies(42) == {"2": 40, "3": 35, "4": 30, "5": 25, "6": 20}
    assert community.starting_armies(9) == {"2": 9, "3": 8}
    big = community.starting_armies(300)
    assert big["2"] == 286 and big["6"] == 143
    for count in range(9, 200):
        armies = community.starting_armies(count)
        assert min(map(int, armies)) == 2
        for players, army in armies.items():
            hands = community.hands(int(players))
            assert army >= 2 * -(-count // hands)
