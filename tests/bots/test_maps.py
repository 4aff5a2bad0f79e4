"""The computer players on boards other than classic: a hand-made graph (no continent plan
or entry of the classic board to lean on) and the small shipped maps, through the arena and
the bot_arena command. Kept to a few short games: the strength figures per map are make
bench's (benchmarks/bench_bots.py)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest
from django.core.management import call_command

from bots import choose
from bots.arena import play
from bots.report import run
from bots.styles import STYLES
from bots.table import Table
from bots.worth import Player
from engine import FairDice, StartGame, decide, maps, parse_command, replay, validate_rules
from engine import view as seat_view
from engine.moves import seats_to_act

# Three continents of unequal bonus around a hub, one of them reached by a single bridge:
# entries, a dead end and a cycle, the shapes a plan and a path search meet on any map.
HUB = {
    "format": 1, "id": "hub", "name": "Hub",
    "territories": [{"id": f"h{i}", "name": f"H {i}", "continent": c}
                    for i, c in enumerate("aaaabbbbcccc")],
    "continents": [
        {"id": "a", "name": "A", "bonus": 2, "territories": ["h0", "h1", "h2", "h3"]},
        {"id": "b", "name": "B", "bonus": 3, "territories": ["h4", "h5", "h6", "h7"]},
        {"id": "c", "name": "C", "bonus": 1, "territories": ["h8", "h9", "h10", "h11"]},
    ],
    "borders": [["h0", "h1"], ["h1", "h2"], ["h2", "h3"], ["h3", "h0"], ["h0", "h4"],
                ["h4", "h5"], ["h5", "h6"], ["h6", "h7"], ["h7", "h4"], ["h5", "h8"],
                ["h8", "h9"], ["h9", "h10"], ["h10", "h11"], ["h2", "h6"]],
    "starting_armies": {"2": 14, "3": 12, "4": 10},
}


@pytest.fixture(scope="module")
def hub():
    return maps.remember(maps.build(HUB))


@pytest.mark.parametrize(("levels", "rules"), [
    (("hard", "normal", "easy"), {}),
    (("hard", "easy"), {}),  # the two-player neutral
    (("normal", "hard", "easy"), {"fog": True}),
    (("hard", "easy", "normal", "normal"), {"team_size": 2}),
])
def test_bots_finish_games_on_any_graph_with_legal_commands_only(hub, levels, rules):
    for seed in range(2):
        result = play(levels, rules, seed=seed, board=hub)
        assert result.refused == [], result.refused[:3]
        assert result.winner is not None, (levels, rules, seed, result.turns)


def small_shipped_maps() -> list[str]:
    return [m for m in maps.shipped_ids()
            if m != "classic" and len(maps.shipped(m).territories) <= 20]


@pytest.mark.parametrize("map_id", small_shipped_maps())
def test_bots_finish_a_game_on_each_small_shipped_map(map_id):
    result = play(("hard", "normal", "easy"), {}, seed=1, board=maps.shipped(map_id))
    assert result.refused == [] and result.winner is not None


def test_rotated_seats_give_every_level_every_seat(hub, monkeypatch):
    seen = []
    monkeypatch.setattr("bots.report.ProcessPoolExecutor", _InProcess)
    monkeypatch.setattr("bots.report.play", lambda levels, *args, **kwargs: (
        seen.append(levels), SimpleNamespace(winner=None, refused=[], times={}, turns=0))[1])
    summary = run(("hard", "normal", "easy"), 6, board=hub, rotate=True)
    assert seen == [("hard", "normal", "easy"), ("normal", "easy", "hard"),
                    ("easy", "hard", "normal")] * 2
    assert summary.games == 6 and summary.undecided == 6


class _InProcess:
    """A process pool that runs its jobs here, in order."""

    def __init__(self, workers):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def map(self, function, jobs, chunksize=1):
        return [function(job) for job in jobs]


def test_bot_arena_rotates_the_seats_when_asked(capsys):
    map_id = min((m for m in maps.shipped_ids()),
                 key=lambda m: len(maps.shipped(m).territories))
    call_command("bot_arena", players="hard,normal", games=2, map_id=map_id, rotate=True,
                 workers=1)
    out = capsys.readouterr().out
    assert f"hard,normal on {map_id} " in out and "(seats rotated)" in out
    assert "2 games (0 undecided)" in out


def _first_state(board, rules: dict, players: int = 3, phase: str = "setup_place"):
    """A game on `board` played by normal bots up to the first decision in `phase`."""
    parsed = validate_rules(rules, players, board)
    dice = FairDice("11" * 32, "first")
    state = replay(decide(None, StartGame("first", players, parsed, (), board), dice))
    rnd = random.Random(3)
    while state.phase != phase:
        seat = seats_to_act(state)[0]
        command = choose(seat_view(state, seat), parsed.to_dict(), "normal", rnd)
        for event in decide(state, parse_command(command, seat), dice):
            state = replay([event], state)
    seat = seats_to_act(state)[0]
    return seat_view(state, seat), parsed.to_dict()


@pytest.mark.parametrize("cap", [None, 4])
def test_a_planner_masses_its_first_armies_as_far_as_the_cap_allows(hub, cap):
    view, rules = _first_state(hub, {"placement_batch": 5, "initial_max_per_territory": cap})
    command = choose(view, rules, "hard", random.Random(0))
    placements = command["placements"]
    assert sum(placements.values()) == view["pending"]["reinforcements"] == 5
    if cap is None:
        assert len(placements) == 1
    else:
        assert all(view["territories"][x]["armies"] + n <= cap for x, n in placements.items())


def test_a_planner_masses_its_turns_armies_at_the_front_of_its_plan():
    """On a map of many regions (world) the best attack of the moment leads somewhere else
    every turn: the planner's reinforcements go where its continent plan is."""
    board = maps.shipped("world")
    view, rules = _first_state(board, {"placement_batch": 50}, phase="reinforce")
    plan = Player(Table(view, rules), STYLES["hard"], random.Random(0)).plan()
    command = choose(view, rules, "hard", random.Random(0))
    assert plan is not None and command["type"] == "place"
    near = {x for x in board.territories if board.continent_of[x] == plan or any(
        board.continent_of[n] == plan for n in board.neighbours[x])}
    assert set(command["placements"]) <= near, (plan, command)


def test_a_round_on_a_larger_map_ages_the_game_as_much_more():
    """What ends a game that drags on comes after as many rounds of classic's size: a round
    on world brings about four times the armies."""
    ages = {}
    for map_id in ("classic", "world", "islands"):
        view, rules = _first_state(maps.shipped(map_id), {"placement_batch": 50},
                                   phase="reinforce")
        view = dict(view, round=10)
        ages[map_id] = Player(Table(view, rules), STYLES["easy"], random.Random(0)).age()
    assert ages["classic"] == ages["islands"] == 10
    assert ages["world"] == pytest.approx(10 * 175 / 42)


def _islands_turn(layout: dict, cards: int = 2):
    """Islands, three players, the first reinforce decision, with the board laid out as
    `layout` (territory -> (whose: 0 the seat to move, 1 and 2 the next ones, armies))."""
    view, rules = _first_state(maps.shipped("islands"), {"placement_batch": 50},
                               phase="reinforce")
    me = view["you"]["seat"]
    seats = [(me + k) % 3 for k in range(3)]
    territories = {x: dict(v, owner=seats[layout[x][0]], armies=layout[x][1])
                   for x, v in view["territories"].items()}
    players = [dict(p, territories=sum(1 for w, _ in layout.values() if seats[w] == p["seat"]),
                    cards=cards if p["seat"] != me else p["cards"]) for p in view["players"]]
    return dict(view, territories=territories, players=players), rules, seats


def test_hard_hunts_a_player_its_armies_can_wipe_out_however_scattered():
    """Whoever takes the first player out (and their cards) wins most three-player games:
    a player hard can wipe out this turn is worth every territory of theirs, not only the
    last one a single chain reaches, and the turn's armies go where the hunt starts."""
    layout = {"harbour": (0, 3), "lighthouse": (0, 1), "pine_ridge": (1, 1),
              "glacier": (2, 5), "fjord": (2, 5), "highlands": (2, 5),
              "volcano": (0, 1), "lagoon": (1, 1), "cliffs": (0, 3),
              "marsh": (0, 1), "dunes": (0, 1), "reef": (0, 1)}
    view, rules, seats = _islands_turn(layout)
    hard = Player(Table(view, rules), STYLES["hard"], random.Random(0))
    assert set(hard.prey()) == {seats[1]}  # the third player has armies enough
    command = choose(view, rules, "hard", random.Random(0))
    islands = maps.shipped("islands")
    assert all(set(islands.neighbours[x]) & {"pine_ridge", "lagoon"}
               for x in command["placements"]), command
    normal = Player(Table(view, rules), STYLES["normal"], random.Random(0))
    assert normal.prey() == {}  # a level that does not count cards hunts nobody


def test_hard_counts_what_it_takes_as_held_only_as_likely_as_it_is_kept():
    """What hard keeps of a territory taken is the chance that the hostile armies around it
    (but those its chain takes too) fail to take it back."""
    layout = {"harbour": (0, 9), "lighthouse": (0, 1), "pine_ridge": (0, 1),
              "glacier": (1, 8), "fjord": (1, 1), "highlands": (1, 1),
              "volcano": (2, 1), "lagoon": (2, 1), "cliffs": (2, 1),
              "marsh": (2, 1), "dunes": (2, 1), "reef": (2, 1)}
    view, rules, _ = _islands_turn(layout)
    hard = Player(Table(view, rules), STYLES["hard"], random.Random(0))
    # lighthouse faces glacier's 8: one army left there is all but lost, more hold better
    assert hard.kept("lighthouse", 1, set()) < 0.1 < hard.kept("lighthouse", 8, set())
    assert hard.kept("lighthouse", 1, {"glacier"}) == 1.0  # glacier about to be taken
    assert hard.kept("pine_ridge", 1, set()) == 1.0  # no hostile neighbour
