"""scripts/verify_record.py, the check of a downloaded record/ with Python's standard library
alone: it passes real finished games (with the players' entropy, under fog, with every kind
of random setup draw) and fails each kind of tampering. It is run as `python -S -I`: no site
packages, no directory of its own on the path."""

from __future__ import annotations

import copy
import hashlib
import hmac
import importlib.util
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import board, maps, missions, verify
from games import service
from games.models import Game
from tests.games.api_support import API, game_url, play, send, state_of

# Whole games: CI plays them on the PostgreSQL pass only (tests/conftest.py).
pytestmark = pytest.mark.slow

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "verify_record.py"
_spec = importlib.util.spec_from_file_location("verify_record", SCRIPT)
standalone = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(standalone)


def run(record, tmp_path) -> subprocess.CompletedProcess:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return subprocess.run([sys.executable, "-S", "-I", str(SCRIPT), str(path)],
                          capture_output=True, text=True, timeout=120, check=False)


def problems(record) -> list[str]:
    return standalone.check(record)[0]


def fails_at(record, seq: int) -> None:
    found = problems(record)
    assert any(p.startswith(f"event {seq}:") for p in found), found


def create(client, players, entropy=None, **rules) -> int:
    body = {"name": "Checked", "players": players, "rules": rules}
    if entropy is not None:
        body["entropy"] = entropy
    answer = client.post(f"{API}/games/", body, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()["id"]


def join(client, game_id, entropy=None) -> None:
    body = {} if entropy is None else {"entropy": entropy}
    assert client.post(game_url(game_id, "join/"), body, format="json").status_code == 200


def time_out(game_id, times: int = 1) -> None:
    """The deadline sweep's decision for whoever owes one: random draws in setup."""
    for _ in range(times):
        game = Game.objects.get(pk=game_id)
        service.submit_timeout(game, game.version)


def finish(game_id, clients: dict, winner: int = 0) -> dict:
    """Everyone but `winner` resigns; the record as a stranger downloads it."""
    for seat, client in clients.items():
        if seat != winner and Game.objects.get(pk=game_id).status == Game.ACTIVE:
            assert send(client, game_id, {"type": "resign"}).status_code == 201
    assert Game.objects.get(pk=game_id).status == Game.FINISHED
    return json.loads(json.dumps(
        clients[winner].get(game_url(game_id, "record/")).json()))


def of_type(record, kind) -> list[dict]:
    return [e for e in record["events"] if e["type"] == kind]


# ---- the script's copy of the board is the service's ---------------------------------------
def test_its_board_cards_and_missions_are_the_rules_own():
    assert standalone.TERRITORIES == board.TERRITORIES
    assert standalone.CARD_COUNT == len(board.CARD_IDS)
    assert standalone.COLORS == board.COLORS and standalone.NEUTRAL == board.NEUTRAL
    assert standalone.MISSIONS == missions.MISSIONS


def test_it_gives_the_contract_s_test_vectors():
    zero = bytes(32)
    assert standalone.Stream(zero, "g1", 5).dice(5) == [1, 4, 2, 2, 1]
    assert standalone.Stream(zero, "g1", 1).shuffle(list(range(10))) == [
        1, 3, 9, 2, 0, 7, 6, 4, 8, 5]
    mixed = standalone.derive_seed(zero, ["alice", "bob"])
    assert mixed == hmac.new(zero, b"alice\nbob", hashlib.sha256).digest()
    assert standalone.Stream(mixed, "g1", 5).dice(5) == [5, 1, 6, 2, 6]


# ---- a game with the players' entropy --------------------------------------------------------
def entropy_game(alice, bob, charlie) -> dict:
    """Played over the API to turn 6 and finished: the downloaded record."""
    game_id = create(alice, 3, entropy="alice: 7f3e", placement_batch=10)
    join(bob, game_id)
    join(charlie, game_id, entropy="charlie's ~ words")
    clients = {0: alice, 1: bob, 2: charlie}
    play(game_id, clients, random.Random(3), until=lambda state: state.turn >= 6)
    return finish(game_id, clients)


_played: list[dict] = []


@pytest.fixture
def entropy_record(alice, bob, charlie):
    """A copy of the record of one such game, played once per test process: the tests
    that alter a record need a real one, not a game each (a whole game over the API costs
    seconds on PostgreSQL). test_the_record_of_the_service_s_own_check_agrees plays its own,
    whose row it reads."""
    if not _played:
        _played.append(entropy_game(alice, bob, charlie))
    return copy.deepcopy(_played[0])


def test_it_passes_a_finished_game_with_the_players_entropy(entropy_record, tmp_path):
    assert entropy_record["contributions"] == ["alice: 7f3e", "charlie's ~ words"]
    assert entropy_record["seed"] != entropy_record["server_seed"]
    assert of_type(entropy_record, "battle")
    done = run(entropy_record, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "OK" in done.stdout and "2 player contribution(s)" in done.stdout
    counts = standalone.check(entropy_record)[1]
    assert counts["battle"] == len(of_type(entropy_record, "battle"))
    assert counts["game_started"] == counts["territories_dealt"] == 1


def test_it_fails_altered_dice(entropy_record, tmp_path):
    battle = of_type(entropy_record, "battle")[0]
    battle["data"]["attacker_dice"] = [d % 6 + 1 for d in battle["data"]["attacker_dice"]]
    fails_at(entropy_record, battle["seq"])
    done = run(entropy_record, tmp_path)
    assert done.returncode == 1 and f"FAIL event {battle['seq']}" in done.stdout


def test_it_fails_losses_the_dice_do_not_inflict(entropy_record):
    battle = of_type(entropy_record, "battle")[0]
    battle["data"]["attacker_losses"] += 1
    fails_at(entropy_record, battle["seq"])


def test_it_fails_a_changed_contribution(entropy_record):
    for listed in (entropy_record["contributions"],
                   entropy_record["events"][0]["data"]["contributions"]):
        listed[1] = "charlie's ~ wordz"
    entropy_record["seed"] = hmac.new(
        bytes.fromhex(entropy_record["server_seed"]),
        "\n".join(entropy_record["contributions"]).encode(), hashlib.sha256).hexdigest()
    assert problems(entropy_record)  # the draws are no longer the seed's


def test_it_fails_contributions_the_log_does_not_list(entropy_record):
    entropy_record["contributions"] = ["alice: 7f3e"]
    assert any("contributions" in p for p in problems(entropy_record))


def test_it_fails_the_server_seed_passed_off_as_the_seed(entropy_record):
    entropy_record["seed"] = entropy_record["server_seed"]
    assert any(p.startswith("seed is not HMAC") for p in problems(entropy_record))


def test_it_fails_a_server_seed_that_is_not_the_committed_one(entropy_record):
    other = "42" * 32
    entropy_record["server_seed"] = other
    entropy_record["seed"] = standalone.derive_seed(
        bytes.fromhex(other), entropy_record["contributions"]).hex()
    found = problems(entropy_record)
    assert "seed_hash is not the SHA-256 of the server seed" in found


def test_it_fails_a_changed_turn_order_deal_or_deck(entropy_record):
    for kind, key in (("game_started", "order"), ("territories_dealt", "owners"),
                      ("deck_shuffled", "cards")):
        record = copy.deepcopy(entropy_record)
        event = of_type(record, kind)[0]
        value = event["data"][key]
        if isinstance(value, dict):  # two territories of different owners swapped
            a = next(iter(value))
            b = next(t for t in value if value[t] != value[a])
            value[a], value[b] = value[b], value[a]
        else:
            value[0], value[1] = value[1], value[0]
        fails_at(record, event["seq"])


def test_it_says_an_unfinished_record_cannot_be_checked(alice, bob, tmp_path):
    game_id = create(alice, 2)
    join(bob, game_id)
    done = run(alice.get(game_url(game_id, "record/")).json(), tmp_path)
    assert done.returncode == 2 and "not over" in done.stderr


def test_it_says_what_is_not_a_record_cannot_be_checked(tmp_path):
    for junk in ([], {"events": "x"}, {"events": [1]}):
        assert run(junk, tmp_path).returncode == 2
    (tmp_path / "record.json").write_text("{not json")
    done = subprocess.run([sys.executable, "-S", "-I", str(SCRIPT),
                           str(tmp_path / "record.json")],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2


# ---- a fogged game: random setup and random capitals -------------------------------------------
def test_it_passes_a_fogged_game_and_fails_its_draws_altered(alice, bob, tmp_path):
    game_id = create(alice, 2, fog=True, setup="random", objective="capitals")
    join(bob, game_id)
    time_out(game_id)  # nobody chose a capital: both drawn
    clients = {0: alice, 1: bob}
    play(game_id, clients, random.Random(5), until=lambda state: state.turn >= 6)
    record = finish(game_id, clients, winner=1)
    assert record["rules"]["fog"] and record["contributions"] == []
    placed = [e for e in of_type(record, "armies_placed") if e["data"].get("random")]
    capitals = [e for e in of_type(record, "capital_chosen") if e["data"].get("random")]
    assert len(placed) == 2 and len(capitals) == 2 and of_type(record, "battle")
    done = run(record, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr

    for event, key in ((placed[0], "placements"), (capitals[1], "territory")):
        forged = copy.deepcopy(record)
        data = forged["events"][event["seq"] - 1]["data"]
        if key == "territory":
            own = [t for t, o in of_type(forged, "territories_dealt")[0]["data"][
                "owners"].items() if o == data["seat"]]
            data[key] = next(t for t in own if t != data[key])
        else:
            first, second = sorted(data[key])[:2]
            data[key][first] -= 1
            data[key][second] += 1
        fails_at(forged, event["seq"])
    forged = copy.deepcopy(record)
    battle = of_type(forged, "battle")[-1]
    battle["data"]["defender_dice"] = [6] * len(battle["data"]["defender_dice"])
    if battle["data"]["defender_dice"] == of_type(record, "battle")[-1]["data"][
            "defender_dice"]:
        battle["data"]["defender_dice"] = [1] * len(battle["data"]["defender_dice"])
    fails_at(forged, battle["seq"])


# ---- claims, missions and a redrawn play order ----------------------------------------------
def test_it_passes_random_claims_missions_and_a_redrawn_order_and_fails_them_altered(
        alice, bob, charlie, tmp_path):
    game_id = create(alice, 3, setup="claim", objective="missions", play_order="redraw",
                     placement_batch=10)
    join(bob, game_id, entropy="b")
    join(charlie, game_id)
    time_out(game_id, 3)  # three claims drawn at random
    clients = {0: alice, 1: bob, 2: charlie}
    play(game_id, clients, random.Random(8), until=lambda state: state.phase == "setup_place")
    time_out(game_id)  # a placement drawn at random
    play(game_id, clients, random.Random(9), until=lambda state: state.turn >= 4)
    record = finish(game_id, clients, winner=2)
    claims = [e for e in of_type(record, "territory_claimed") if e["data"].get("random")]
    assert len(claims) == 3 and of_type(record, "missions_dealt")
    assert of_type(record, "play_order_drawn")
    assert [e for e in of_type(record, "armies_placed") if e["data"].get("random")]
    done = run(record, tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr

    forged = copy.deepcopy(record)
    claim = forged["events"][claims[1]["seq"] - 1]["data"]
    # A territory still free then: the one claimed last.
    claim["territory"] = of_type(record, "territory_claimed")[-1]["data"]["territory"]
    fails_at(forged, claims[1]["seq"])

    forged = copy.deepcopy(record)
    dealt = of_type(forged, "missions_dealt")[0]
    dealt["data"]["missions"][0], dealt["data"]["missions"][1] = (
        dealt["data"]["missions"][1], dealt["data"]["missions"][0])
    fails_at(forged, dealt["seq"])

    forged = copy.deepcopy(record)
    drawn = of_type(forged, "play_order_drawn")[0]
    order = drawn["data"]["order"]
    drawn["data"]["order"] = order[1:] + order[:1]
    fails_at(forged, drawn["seq"])


def test_it_fails_a_random_draw_claimed_after_the_setup(entropy_record):
    turn = of_type(entropy_record, "turn_started")[0]
    placed = next(e for e in entropy_record["events"]
                  if e["seq"] > turn["seq"] and e["type"] == "armies_placed")
    placed["data"]["random"] = True
    fails_at(entropy_record, placed["seq"])


def test_the_record_of_the_service_s_own_check_agrees(alice, bob, charlie):
    record = entropy_game(alice, bob, charlie)
    game = Game.objects.get(pk=record["id"])
    assert state_of(game.pk).finished
    assert verify(record).ok


# ---- against the engine's own verify, over many games of every kind ------------------------
@pytest.mark.parametrize("game_number", range(1, 13))
def test_it_agrees_with_the_engine_on_games_of_random_rules(game_number):
    from engine.fair import seed_hash
    from tests.engine.test_properties import play_game

    server_seed = f"{game_number:064x}"
    entropy = ((0, f"seat zero #{game_number}"), (1, "~")) if game_number % 2 else ()
    engine_record = play_game(game_number, timeouts=0.05, seed=server_seed,
                              entropy=entropy)[2]
    record = json.loads(json.dumps({
        "id": engine_record["id"], "server_seed": server_seed,
        "seed_hash": seed_hash(server_seed), "seed": engine_record["seed"],
        "contributions": [text for _, text in entropy],
        "events": [event.to_dict() for event in engine_record["events"]],
    }))
    assert verify(record).ok
    found, counts = standalone.check(record)
    assert found == [] and counts["game_started"] == 1
    battle = next(e for e in record["events"] if e["type"] == "battle")
    battle["data"]["defender_dice"] = [7] * len(battle["data"]["defender_dice"])
    fails_at(record, battle["seq"])


# ---- games on other maps: the map version given with --map -----------------------------------
def run_on_map(record, map_data, tmp_path) -> subprocess.CompletedProcess:
    (tmp_path / "map.json").write_text(json.dumps(map_data), encoding="utf-8")
    (tmp_path / "record.json").write_text(json.dumps(record), encoding="utf-8")
    return subprocess.run([sys.executable, "-S", "-I", str(SCRIPT), "--map",
                           str(tmp_path / "map.json"), str(tmp_path / "record.json")],
                          capture_output=True, text=True, timeout=120, check=False)


def test_its_classic_copy_is_the_classic_map_file():
    assert standalone.CLASSIC_HASH == maps.CLASSIC_FIRST_HASH == maps.classic().hash
    data = json.loads((maps.FOLDER / "classic.json").read_text(encoding="utf-8"))
    assert standalone.content_hash(data) == maps.classic().hash
    from_file = standalone.board_of_file(data)
    assert (from_file.territories, from_file.card_count, from_file.missions) == (
        standalone.TERRITORIES, standalone.CARD_COUNT, standalone.MISSIONS)


def test_it_passes_a_finished_game_on_another_map_given_its_file(alice, bob, tmp_path):
    answer = alice.post(f"{API}/games/", {"name": "Isles", "players": 2, "map": "islands",
                                          "rules": {"placement_batch": 10}}, format="json")
    assert answer.status_code == 201, answer.content
    game_id = answer.json()["id"]
    join(bob, game_id, entropy="bob's")
    clients = {0: alice, 1: bob}
    play(game_id, clients, random.Random(4), until=lambda state: state.turn >= 6)
    record = finish(game_id, clients)
    islands = maps.shipped("islands")
    assert (record["map"], record["map_hash"]) == ("islands", islands.hash)
    assert of_type(record, "battle")
    served = alice.get(f"{API}/maps/islands/versions/{islands.hash}/")
    assert served.status_code == 200 and maps.content_hash(served.json()) == islands.hash

    done = run_on_map(record, served.json(), tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "on the map islands: OK" in done.stdout
    counts = standalone.check(record, served.json())[1]
    assert counts["territories_dealt"] == 1 and counts["battle"] == len(
        of_type(record, "battle"))

    # Without the map file it checks nothing and says where the version is.
    done = run(record, tmp_path)
    assert done.returncode == 2
    assert f"/api/v1/maps/islands/versions/{islands.hash}/" in done.stderr
    # A tampered map file (a bonus changed) is not the version played: refused.
    tampered = copy.deepcopy(served.json())
    tampered["continents"][0]["bonus"] += 1
    done = run_on_map(record, tampered, tmp_path)
    assert done.returncode == 2 and "not the version the game was played on" in done.stderr
    # Nor is another map, nor the classic one.
    for other in ("europe", "classic"):
        done = run_on_map(record, maps.shipped(other).data, tmp_path)
        assert done.returncode == 2 and "content hash" in done.stderr
    # Altered dice still fail on the right board.
    battle = of_type(record, "battle")[0]
    battle["data"]["attacker_dice"] = [d % 6 + 1 for d in battle["data"]["attacker_dice"]]
    done = run_on_map(record, served.json(), tmp_path)
    assert done.returncode == 1 and f"FAIL event {battle['seq']}" in done.stdout


def test_the_version_endpoint_serves_only_a_map_s_own_kept_versions(alice):
    islands = maps.shipped("islands")
    for url in (f"{API}/maps/europe/versions/{islands.hash}/",
                f"{API}/maps/islands/versions/{'0' * 64}/",
                f"{API}/maps/islands/versions/{islands.hash.upper()}/",
                f"{API}/maps/islands/versions/..%2F..%2Fclassic/"):
        assert alice.get(url).status_code == 404, url
    first = alice.get(f"{API}/maps/classic/versions/{maps.CLASSIC_FIRST_HASH}/").json()
    assert maps.content_hash(first) == maps.CLASSIC_FIRST_HASH


def own_missions_map() -> tuple[dict, maps.Board]:
    """The tests' isles with missions and a deck of their own (three wilds, symbols mixed)."""
    from tests.maps import DATA

    data = copy.deepcopy(DATA)
    territories = [t["id"] for t in data["territories"]]
    data["id"], data["name"] = "isles_missions", "Isles with missions"
    data["deck"] = {"cards": maps.default_deck(territories[::-1], ("cavalry", "infantry",
                                                                   "artillery"), wilds=3)}
    data["missions"] = [
        {"id": "north_east", "kind": "conquer", "continents": ["north", "east"], "extra": 0},
        {"id": "south_plus_one", "kind": "conquer", "continents": ["south"], "extra": 1},
        {"id": "occupy_9", "kind": "occupy", "territories": 9, "armies": 1},
        {"id": "destroy", "kind": "destroy", "fallback": "occupy_9"},
    ]
    return data, maps.remember(maps.build(data))


@pytest.mark.parametrize("case", ["europe", "usa", "islands", "own missions"])
def test_it_agrees_with_the_engine_on_games_on_other_maps(case):
    from engine.fair import seed_hash
    from tests.engine.test_properties import play_game

    if case == "own missions":
        data, board_played = own_missions_map()
        rules = {"objective": "missions", "team_size": 1}
    else:
        board_played, rules = maps.shipped(case), {}
        data = board_played.data
    server_seed = f"{len(case):064x}"
    engine_record = play_game(7, timeouts=0.05, seed=server_seed, board=board_played, **rules)[2]
    record = json.loads(json.dumps({
        "id": engine_record["id"], "server_seed": server_seed,
        "seed_hash": seed_hash(server_seed), "seed": engine_record["seed"],
        "map": board_played.id, "map_hash": board_played.hash,
        "events": [event.to_dict() for event in engine_record["events"]],
    }))
    assert verify(record).ok
    found, counts = standalone.check(record, json.loads(json.dumps(data)))
    assert found == [] and counts["deck_shuffled"] >= 1
    if rules:
        assert counts["missions_dealt"] == 1
        dealt = of_type(record, "missions_dealt")[0]["data"]["missions"]
        assert set(dealt) <= set(standalone.board_of_file(data).missions)
        dealt[0], dealt[1] = dealt[1], dealt[0]
        fails_at_with(record, data, of_type(record, "missions_dealt")[0]["seq"])
    with pytest.raises(standalone.CannotCheck, match="give the map version"):
        standalone.check(record)
    other = copy.deepcopy(data)
    other["borders"] = other["borders"][::-1]  # the same board, another version
    with pytest.raises(standalone.CannotCheck, match="not the version"):
        standalone.check(record, other)


def fails_at_with(record, map_data, seq: int) -> None:
    found = standalone.check(record, map_data)[0]
    assert any(p.startswith(f"event {seq}:") for p in found), found
