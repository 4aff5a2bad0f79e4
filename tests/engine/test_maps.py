"""Maps as data: the classic map file is the classic board games were played on, versions
are kept by hash, and the validator names each fault of a bad map."""

from __future__ import annotations

import copy
import json

import pytest

from engine import board, maps
from engine.maps import MapError, build, validate_map

MISSION_IDS = (
    "north_america_africa", "north_america_australia", "asia_south_america", "asia_africa",
    "europe_south_america_plus_one", "europe_australia_plus_one", "occupy_18_with_2",
    "occupy_24",
)


def classic_data() -> dict:
    return json.loads((maps.FOLDER / "classic.json").read_text(encoding="utf-8"))


def test_the_classic_map_file_is_the_board_classic_games_were_played_on():
    """classic.json is the classic board's one source (engine.board reads it, and
    tests/engine/test_board.py holds it to docs/players/maps.md's tables): any change to it would be a
    new version, where stored games, their draws and scripts/verify_record.py name this one."""
    classic = maps.classic()
    assert classic.hash == maps.CLASSIC_FIRST_HASH
    assert board.CLASSIC is classic and board.TERRITORIES is classic.territories
    assert {t: classic.territory_name(t) for t in classic.territories} == {
        t: "Western United States" if t == "western_united_states" else t.replace("_", " ").title()
        for t in classic.territories}
    assert [classic.territory_name(c) for c in classic.continents] == [
        "North America", "South America", "Europe", "Africa", "Asia", "Australia"]
    assert classic.starting_armies == {2: 40, 3: 35, 4: 30, 5: 25, 6: 20}
    ids = [m["id"] for m in classic.missions]
    assert ids == [*MISSION_IDS, "destroy"]
    assert (classic.min_players, classic.max_players) == (2, 6)


def test_it_keeps_the_classic_version_games_started_on_by_hash():
    classic = maps.classic()
    assert classic.hash == maps.content_hash(classic_data())
    # Games without a recorded map played this version; it must stay kept.
    kept = maps.board_by_hash(maps.CLASSIC_FIRST_HASH)
    assert kept.territories == board.TERRITORIES
    path = maps.VERSIONS / f"{maps.CLASSIC_FIRST_HASH}.json"
    assert maps.content_hash(json.loads(path.read_bytes())) == maps.CLASSIC_FIRST_HASH


def test_every_shipped_map_version_is_kept():
    """Changing a map file without keeping the new version would lose a game's board:
    run maps.archive(board) (scripts/make_maps.py does it for the maps it writes)."""
    for shipped in maps.shipped_boards():
        assert (maps.VERSIONS / f"{shipped.hash}.json").is_file(), shipped.id


def test_it_caches_a_board_by_hash(monkeypatch):
    monkeypatch.setattr(maps, "FINDERS", [])  # the engine alone (games.apps adds the DB's)
    assert maps.board_by_hash(maps.classic().hash) is maps.classic()
    with pytest.raises(LookupError):
        maps.board_by_hash("0" * 64)


def test_it_refuses_an_unknown_map():
    with pytest.raises(maps.UnknownMap, match="no map 'atlantis'"):
        maps.shipped("atlantis")


def test_the_default_deck_spreads_symbols_and_adds_two_wilds():
    data = classic_data()
    del data["deck"]
    cards = build(data).cards
    assert len(cards) == 44 and cards[-2:] == ((None, "wild"), (None, "wild"))
    for symbol in ("infantry", "cavalry", "artillery"):
        assert sum(1 for _, s in cards if s == symbol) == 14


def faults_of(change) -> list[str]:
    data = classic_data()
    change(data)
    with pytest.raises(MapError) as caught:
        validate_map(data)
    return caught.value.faults


def test_the_classic_map_is_valid():
    validate_map(classic_data())


@pytest.mark.parametrize("change, fault", [
    (lambda d: d["borders"].append(["alaska", "atlantis"]),
     "border 'alaska'-'atlantis' names unknown territory 'atlantis'"),
    (lambda d: d["borders"].append(["peru", "peru"]), "border from 'peru' to itself"),
    (lambda d: d["continents"][0]["territories"].remove("alaska"),
     "territory 'alaska' is in no continent"),
    (lambda d: d["continents"][1]["territories"].append("alaska"),
     "territory 'alaska' is in two continents: 'north_america' and 'south_america'"),
    (lambda d: d.update(borders=[b for b in d["borders"] if "madagascar" not in b]),
     "the board is disconnected: 'madagascar' cannot be reached from 'alaska'"),
    (lambda d: d["continents"].append({"id": "atlantis", "name": "Atlantis", "bonus": 1,
                                       "territories": []}),
     "continent 'atlantis' has no territories"),
    (lambda d: d["starting_armies"].update({"6": 6}),
     "starting armies for 6 players (6) are too few for 7 territories each"),
    (lambda d: d["territories"].append(dict(d["territories"][0])),
     "duplicate territory id 'alaska'"),
    (lambda d: d["territories"][3].update(name=""), "territory 'alberta' has no name"),
    (lambda d: d["continents"][0].pop("name"), "continent 'north_america' has no name"),
    (lambda d: d.update(format=7), "format 7 is not known (this service reads 1)"),
    # Names go into pages, mail and the log: bounded, no control characters.
    (lambda d: d["territories"][3].update(name="A" * 81),
     "territory 'alberta''s name is longer than 80 characters"),
    (lambda d: d["continents"][0].update(names={"cs": "Sever\x00"}),
     "continent 'north_america''s cs name holds control characters"),
    (lambda d: d["continents"][0].update(names=["Sever"]),
     "continent 'north_america''s names must be an object of language: name"),
    (lambda d: d.update(names={"pl": 7}), "the map's pl name is not text"),
    (lambda d: d["continents"][0].update(bonus=10**23),
     "continent 'north_america' needs a bonus of 0 to 1000 armies"),
])
def test_it_names_each_fault(change, fault):
    assert fault in faults_of(change)


def test_a_border_listed_twice_is_a_fault():
    assert "border 'peru'-'brazil' is listed twice" in faults_of(
        lambda d: d["borders"].append(["peru", "brazil"]))


def test_each_board_is_built_once_per_version():
    data = copy.deepcopy(classic_data())
    data["name"] = "Classic, renamed"
    other = build(data)
    assert other.hash != maps.classic().hash and other.territories == board.TERRITORIES


# ---- the engine on the game's board ------------------------------------------------------
SMALL = {
    "format": 1, "id": "tiny", "name": "Tiny",
    "territories": [{"id": f"t{i}", "name": f"T {i}", "continent": "north" if i < 4 else "south"}
                    for i in range(8)],
    "continents": [{"id": "north", "name": "North", "bonus": 2,
                    "territories": ["t0", "t1", "t2", "t3"]},
                   {"id": "south", "name": "South", "bonus": 3,
                    "territories": ["t4", "t5", "t6", "t7"]}],
    "borders": [["t0", "t1"], ["t1", "t2"], ["t2", "t3"], ["t3", "t4"], ["t4", "t5"],
                ["t5", "t6"], ["t6", "t7"]],
    "starting_armies": {"2": 10, "3": 9},
}


def test_a_game_plays_and_replays_on_its_own_map():
    from engine import FairDice, StartGame, decide, parse_command, replay, validate_rules, view
    from engine.errors import UnknownTerritory

    tiny = maps.remember(build(SMALL))
    rules = validate_rules({"setup": "random"}, 3, tiny)
    events = decide(None, StartGame("g1", 3, rules, (), tiny), FairDice("00" * 32, "g1"))
    assert events[0].data["map"] == "tiny" and events[0].data["map_hash"] == tiny.hash
    state = replay(events)
    assert state.board is tiny and sorted(state.owner) == [f"t{i}" for i in range(8)]
    assert set(view(state, 0)["territories"]) == set(tiny.territories)
    assert len(state.deck) == 10  # one card per territory and two wilds
    seat = state.current if state.current is not None else state.turn_seat
    with pytest.raises(UnknownTerritory, match="no territory 'alaska' on the map tiny"):
        decide(state, parse_command({"type": "place", "placements": {"alaska": 1}}, seat),
               FairDice("00" * 32, "g1"))
    # A snapshot names the map version and comes back on it.
    from engine.state import GameState
    assert GameState.from_dict(state.to_dict()).board is tiny
    with pytest.raises(maps.UnknownMap):
        maps.shipped("tiny")  # remembered by hash only, not a shipped map


def test_missions_are_refused_on_a_map_without_them():
    from engine import validate_rules
    from engine.errors import BadRules

    with pytest.raises(BadRules, match="the map tiny has no missions"):
        validate_rules({"objective": "missions"}, 3, build(SMALL))
    with pytest.raises(BadRules, match="the map tiny is for 2 to 3 players"):
        validate_rules({}, 4, build(SMALL))


def test_an_old_game_started_replays_on_the_classic_maps_first_version():
    from engine import Event, replay
    from games.upcasters import upcast

    data = {"order": [1, 0], "players": 2, "rules": {}, "game_id": "old", "engine": 2}
    assert upcast("game_started", 1, data)["map_hash"] == maps.CLASSIC_FIRST_HASH
    state = replay([Event(1, "game_started", data)])
    assert state.board.hash == maps.CLASSIC_FIRST_HASH


# ---- the shipped maps beside classic (scripts/make_maps.py) -------------------------------
GENERATED = ("europe", "usa", "world", "islands")


def map_data(map_id: str) -> dict:
    return json.loads((maps.FOLDER / f"{map_id}.json").read_text(encoding="utf-8"))


def test_five_maps_ship_one_big_and_one_small():
    assert set(maps.shipped_ids()) >= {"classic", *GENERATED}
    sizes = {b.id: len(b.territories) for b in maps.shipped_boards()}
    assert sizes["world"] > 150 and sizes["usa"] == 50 and sizes["islands"] == 12
    assert maps.shipped("islands").min_players == 2


@pytest.mark.parametrize("map_id", GENERATED)
def test_a_generated_map_is_whole_and_named(map_id):
    board = maps.shipped(map_id)
    data = map_data(map_id)
    reached, frontier = {board.territories[0]}, [board.territories[0]]
    while frontier:
        for n in board.neighbours[frontier.pop()]:
            if n not in reached:
                reached.add(n)
                frontier.append(n)
    assert reached == set(board.territories)
    homes = [c for t in board.territories for c, (_, ts) in board.continents.items() if t in ts]
    assert len(homes) == len(board.territories)  # each territory in exactly one continent
    assert all(board.continent_bonus[c] >= 1 for c in board.continents)
    assert not board.missions and len(board.cards) == len(board.territories) + 2
    for item in [data, *data["territories"], *data["continents"]]:
        assert item["names"]["cs"].strip() and item["names"]["pl"].strip(), item.get("id")
    drawing = data["drawing"]
    assert set(drawing["shapes"]) == set(drawing["labels"]) == set(board.territories)
    drawn = {frozenset(p[:2]) for p in drawing["land_borders"] + drawing["sea_lanes"]}
    borders = {frozenset(b) for b in board.borders}
    assert drawn <= borders and len(borders - drawn) <= 2  # the rest: a line between labels


def test_country_names_come_from_cldr():
    names = {t["id"]: t["names"] for t in map_data("world")["territories"]}
    assert names["germany"] == {"cs": "Německo", "pl": "Niemcy"}
    europe = {t["id"]: t for t in map_data("europe")["territories"]}
    assert europe["czechia"]["names"]["cs"] == "Česko"


def test_the_bonus_rule_holds():
    """(territories + entry territories) / 2.5, rounded half up, at least 1."""
    for map_id in GENERATED:
        board = maps.shipped(map_id)
        for c, (bonus, members) in board.continents.items():
            entries = {t for t in members
                       if any(board.continent_of[n] != c for n in board.neighbours[t])}
            assert bonus == max(1, int((len(members) + len(entries)) / 2.5 + 0.5)), (map_id, c)


def drawing_faults(change, map_id="islands") -> list[str]:
    data = map_data(map_id)
    change(data["drawing"])
    with pytest.raises(MapError) as caught:
        validate_map(data)
    return caught.value.faults


@pytest.mark.parametrize("change, fault", [
    (lambda d: d["shapes"].pop("reef"), "territory 'reef' has no shape in the drawing"),
    (lambda d: d["labels"].pop("dunes"), "territory 'dunes' has no label point in the drawing"),
    (lambda d: d["shapes"].update(reef="circle(1 2)"), "the shape of 'reef' is not SVG path data"),
    (lambda d: d["labels"].update(reef=["10", 20]),
     "the label point of 'reef' is not two numbers [x, y]"),
    (lambda d: d["labels"].update(reef=[5000, 20]),
     "the label point of 'reef' lies outside the drawing"),
    (lambda d: d["shapes"].update(atlantis="M0 0 L1 1Z"),
     "the drawing has a shape for unknown territory 'atlantis'"),
    (lambda d: d.update(width="wide"), "drawing width must be a number above 0"),
    (lambda d: d.update(height=0), "drawing height must be a number above 0"),
    (lambda d: d["sea_lanes"].append(["harbour", "reef", ["M0 0 L5 5"]]),
     "drawing sea_lanes: 'harbour'-'reef' is not one of the map's borders"),
    (lambda d: d["sea_lanes"].append(["lighthouse", "glacier", []]),
     "drawing: the border 'lighthouse'-'glacier' is drawn twice"),
    (lambda d: d["sea_lanes"].append(["harbour", "lighthouse", []]),
     "drawing: the border 'harbour'-'lighthouse' is both a land border and a sea lane"),
    (lambda d: d["land_borders"].__setitem__(0, [*d["land_borders"][0][:2], 7]),
     "drawing land_borders: 'harbour'-'lighthouse' has no SVG path data"),
    (lambda d: d["sea_lanes"].__setitem__(0, [*d["sea_lanes"][0][:2], "M0 0"]),
     "drawing sea_lanes: 'glacier'-'lighthouse' needs a list of SVG path data"),
    (lambda d: d["continent_outlines"].update(atlantis="M0 0Z"),
     "the drawing outlines unknown continent 'atlantis'"),
    (lambda d: d.update(layout="mercator"), "drawing layout 'mercator' is not known (classic)"),
    (lambda d: d.pop("shapes"), "the drawing has no shapes (territory -> SVG path data)"),
])
def test_a_broken_drawing_names_its_fault(change, fault):
    assert fault in drawing_faults(change)


def test_a_named_layout_must_draw_the_map_that_names_it():
    faults = drawing_faults(lambda d: (d.clear(), d.update(layout="classic")))
    assert "territory 'reef' has no shape in the drawing" in faults
    assert "the drawing has a shape for unknown territory 'alaska'" in faults


def test_a_drawing_fault_names_only_itself():
    assert drawing_faults(lambda d: d["shapes"].pop("reef")) == [
        "territory 'reef' has no shape in the drawing"]


def play_bots(board, levels, seed):
    """One game of computer players on `board`, to its end (as bots.arena.play does)."""
    import random

    from bots import choose
    from engine import (
        FairDice,
        StartGame,
        TimeOut,
        decide,
        evolve,
        parse_command,
        validate_rules,
    )
    from engine import view as seat_view
    from engine.moves import seats_to_act

    rules = validate_rules({}, len(levels), board)
    dice, rnd = FairDice(f"{seed:064x}", f"m{seed}"), random.Random(seed)
    state = None
    for event in decide(None, StartGame(f"m{seed}", len(levels), rules, (), board), dice):
        state = evolve(state, event)
    for _ in range(20_000):
        if state.finished:
            break
        owing = seats_to_act(state)
        if owing:
            seat = rnd.choice(owing)
            view = seat_view(state, seat)
            command = parse_command(choose(view, rules.to_dict(), levels[seat], rnd), seat)
        else:
            command = TimeOut()
        for event in decide(state, command, dice):  # a refused command fails the test
            state = evolve(state, event)
    return state


@pytest.mark.parametrize("map_id, levels", [
    ("islands", ("normal", "normal")), ("islands", ("hard", "easy", "normal", "normal")),
    ("europe", ("hard", "normal", "easy")), ("usa", ("normal", "normal", "hard", "easy")),
])
def test_computer_players_finish_a_game_on_the_map(map_id, levels):
    for seed in range(2):
        state = play_bots(maps.shipped(map_id), levels, seed)
        assert state.finished and state.finish_reason == "domination", (map_id, seed)
        assert state.board.id == map_id


@pytest.mark.slow
def test_computer_players_finish_a_game_on_the_world():
    state = play_bots(maps.shipped("world"), ("normal", "hard"), 0)
    assert state.finished and state.finish_reason == "domination"
