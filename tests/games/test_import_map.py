"""Community maps kept in the database (games.boards): `manage.py import_map` for both formats,
games created on them through the API and played to the end by computer players, with fog
and teams; a bad file stores nothing; re-imports keep every version a game uses; disabling
and deleting (moderators' admin included); the classic map unchanged."""

from __future__ import annotations

import random
from io import StringIO
from pathlib import Path
from urllib.parse import unquote

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from engine import maps
from engine.moves import seats_to_act
from games import boards, computer
from games.management.commands.verify_game import check_game
from games.models import Game, ImportedMap, MapVersion
from games.store.states import forget_recent, load_state
from tests import people
from tests.engine.test_community_maps import BAD_FILES
from tests.games.api_support import API, assert_error, game_url
from tests.games.api_support import play as play_humans
from tests.people import client_for, moderator, user

pytestmark = pytest.mark.django_db

FILES = Path(__file__).resolve().parents[1] / "engine" / "community_maps"
ISLES, SEAS = FILES / "five_isles.map", FILES / "twin_seas.map"
GAMES = f"{API}/games/"


def import_map(path, *options) -> str:
    out, err = StringIO(), StringIO()
    call_command("import_map", str(path), *options, stdout=out, stderr=err)
    import_map.stderr = err.getvalue()
    return out.getvalue().strip()


def nothing_stored(before=(0, 0)):
    assert (ImportedMap.objects.count(), MapVersion.objects.count()) == before


def play_to_the_end(game_id: int, humans: dict, seed: int) -> Game:
    """Computer players move through games.computer, the humans' bot over HTTP (its random
    attacks may take hundreds of moves to end one turn on a small map: it was flaky at 300)."""
    game = Game.objects.get(pk=game_id)
    rnd = random.Random(seed)
    seats = set(humans)
    for _ in range(600):
        computer.play(game_id)
        game.refresh_from_db()
        if game.status != Game.ACTIVE:
            break
        play_humans(game_id, humans, rnd, until=lambda s: not seats & set(seats_to_act(s)),
                    moves=3000)
    game.refresh_from_db()
    return game


def test_it_imports_both_formats_and_prints_each_new_id():
    assert import_map(ISLES) == "five_isles"
    assert "new: Five Isles (14 territories, 4 continents, 2-4 players)" in import_map.stderr
    assert import_map(SEAS, "--name", "Twin Seas") == "twin_seas"
    assert "line 27: warning: 'Canyon' borders 'Red Mesa' but not the other way round" in \
        import_map.stderr
    row = ImportedMap.objects.get(pk="twin_seas")
    assert (row.name, row.source_format, row.enabled) == ("Twin Seas", "conquest", True)
    assert row.hash == maps.content_hash(row.data)
    assert list(MapVersion.objects.values_list("hash", flat=True).order_by("hash")) == sorted(
        ImportedMap.objects.values_list("hash", flat=True))


def test_the_api_lists_and_shows_an_imported_map(alice):
    import_map(ISLES)
    listed = {m["id"]: m for m in alice.get(f"{API}/maps/").json()}
    assert "classic" in listed and {k: listed["five_isles"][k] for k in (
        "name", "territories", "continents", "min_players", "max_players")} == {
        "name": "Five Isles", "territories": 14, "continents": 4, "min_players": 2,
        "max_players": 4}
    shown = alice.get(f"{API}/maps/five_isles/").json()
    assert len(shown["territories"]) == 14 and len(shown["borders"]) == 22
    assert set(shown["drawing"]["shapes"]) == {t["id"] for t in shown["territories"]}
    assert shown["starting_armies"] == {"2": 14, "3": 12, "4": 10}


@pytest.mark.parametrize("path", [ISLES, SEAS], ids=["domination", "conquest"])
def test_a_game_on_an_imported_map_plays_to_the_end_with_computer_players(alice, path):
    map_id = import_map(path)
    answer = alice.post(GAMES, {"name": "Community", "players": 3, "map": map_id,
                                "bots": ["normal", "easy"],
                                "rules": {"placement_batch": 100}}, format="json")
    assert answer.status_code == 201, answer.content
    view = answer.json()
    board = maps.board_by_hash(view["map_hash"])
    assert view["map"] == map_id and board.hash == ImportedMap.objects.get(pk=map_id).hash
    assert set(view["territories"]) == set(board.territories)
    game = play_to_the_end(view["id"], {0: alice}, seed=11)
    assert game.status == Game.FINISHED
    record = alice.get(game_url(game.pk, "record/")).json()
    assert (record["map"], record["map_hash"]) == (map_id, board.hash)
    # The game replays from its log (the map version read again from the database).
    forget_recent()
    maps._by_hash.pop(board.hash)
    assert check_game(game) == []


def fogged_game_to_the_end(alice, bob, rnd) -> tuple[Game, int]:
    """A four-seat team game with fog on twin_seas, alice at seat 0 beside three computer
    players, played to its end; every view of alice's and of bob (a watcher) checked on
    the way. Returns the game and how many of alice's views had a territory fogged."""
    answer = alice.post(GAMES, {"name": "Fog", "players": 4, "map": "twin_seas",
                                "bots": ["normal", "normal", "normal"],
                                "rules": {"team_size": 2, "fog": True, "setup": "random",
                                          "placement_batch": 100}}, format="json")
    assert answer.status_code == 201, answer.content
    game_id = answer.json()["id"]
    board = maps.board_by_hash(answer.json()["map_hash"])
    game = Game.objects.get(pk=game_id)
    checked = 0
    for _ in range(3000):  # ends when the game does; dice differ each run
        computer.play(game_id)
        game.refresh_from_db()
        if game.status != Game.ACTIVE:
            break
        state = load_state(game)
        view = alice.get(game_url(game_id)).json()
        assert [p["team"] for p in view["players"]] == [0, 1, 0, 1]
        # Alice sees her team's territories and her own's neighbours: nothing else.
        may_see = {t for t, owner in state.owner.items() if owner in (0, 2)}
        may_see |= {n for t, owner in state.owner.items() if owner == 0
                    for n in board.neighbours[t]}
        assert {t for t, v in view["territories"].items() if not v.get("fog")} == may_see
        assert all(view["territories"][t] == {"owner": None, "armies": None, "fog": True}
                   for t in set(board.territories) - may_see)
        checked += bool(set(board.territories) - may_see)
        spectator = bob.get(game_url(game_id)).json()
        assert all(v.get("fog") for v in spectator["territories"].values())
        play_humans(game_id, {0: alice}, rnd, until=lambda s: 0 not in seats_to_act(s),
                    moves=3000)
    game.refresh_from_db()
    return game, checked


def test_fog_and_teams_on_an_imported_map(alice, bob):
    import_map(SEAS)
    rnd = random.Random(5)
    # On twelve territories alice's team and her neighbours may see the whole board at
    # every view of a short game (seen once in a CI pass): then another game, so that the
    # fog's answers are checked with something hidden.
    for _ in range(5):
        game, checked = fogged_game_to_the_end(alice, bob, rnd)
        assert game.status == Game.FINISHED
        if checked:
            break
    assert checked > 0
    final = load_state(game)
    team = {s for s in range(4) if s % 2 == final.winner % 2}
    assert set(final.owner.values()) <= team  # the winner's team holds the whole board


def test_an_imported_map_has_no_missions_and_takes_only_the_table_sizes_it_fits(alice):
    import_map(SEAS)
    before = Game.objects.count()
    refused = assert_error(alice.post(GAMES, {"name": "Secret", "players": 3, "map": "twin_seas",
                                              "rules": {"objective": "missions"}},
                                      format="json"), 400, "bad_rules")
    assert "has no missions" in refused["detail"]
    refused = assert_error(alice.post(GAMES, {"name": "Crowd", "players": 5,
                                              "map": "twin_seas"}, format="json"), 400)
    assert "2 to 4 players" in refused["detail"]
    assert Game.objects.count() == before


@pytest.mark.parametrize(("text", "line", "words"), [
    ("[continents]\nA 1\n[countries]\n1 X 1 0 0\n[bridges]\n1 1\n", 5,
     "unknown section [bridges]"),
    ("[Continents]\nA=x\n[Territories]\nB,0,0,A\n", 2, "bonus 'x' is not a whole number"),
])
def test_a_bad_file_exits_non_zero_with_the_line_and_stores_nothing(tmp_path, text, line,
                                                                  words):
    path = tmp_path / "bad.map"
    path.write_text(text)
    with pytest.raises(CommandError) as refused:
        import_map(path)
    assert f"bad.map: line {line}: {words}" in str(refused.value)
    assert "Nothing was imported." in str(refused.value)
    nothing_stored()


@pytest.mark.parametrize(("kind", "text", "start", "words"), BAD_FILES,
                         ids=[case[0] for case in BAD_FILES])
def test_each_kind_of_bad_file_stores_nothing(tmp_path, kind, text, start, words):
    path = tmp_path / "bad.map"
    path.write_text(text, encoding="utf-8")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith(start))
    with pytest.raises(CommandError, match=f"bad.map: line {line}: "):
        import_map(path)
    nothing_stored()


def test_a_clash_of_ids_stores_nothing(tmp_path):
    with pytest.raises(CommandError, match="is the shipped map 'Classic'"):
        import_map(ISLES, "--id", "classic")
    with pytest.raises(CommandError, match="lower-case letters"):
        import_map(ISLES, "--id", "Five Isles")
    nothing_stored()
    import_map(ISLES)
    with pytest.raises(CommandError, match="was imported already: --replace"):
        import_map(ISLES)
    nothing_stored((1, 1))
    assert import_map(ISLES, "--id", "isles_two") == "isles_two"


def test_an_import_under_a_shipped_map_s_id_is_refused_with_the_reason():
    """Every lookup by id finds a shipped map first: an import under its id would be lost."""
    with pytest.raises(CommandError) as refused:
        import_map(ISLES, "--name", "Europe")  # the name made the id
    assert "the id 'europe' (made from the map's name) is the shipped map 'Europe''s" in \
        str(refused.value) and "give the import another id" in str(refused.value)
    for options in (("--id", "europe"), ("--id", "islands", "--replace")):
        with pytest.raises(CommandError, match="is the shipped map"):
            import_map(ISLES, *options)
    page = client_for(moderator("maud"))
    with open(ISLES, "rb") as upload:
        answer = page.post("/admin/games/importedmap/add/", {"file": upload, "map_id": "usa"})
    assert "the id &#x27;usa&#x27; is the shipped map" in answer.content.decode()
    nothing_stored()
    assert import_map(ISLES, "--name", "Europe", "--id", "europe_isles") == "europe_isles"


def test_an_import_kept_under_a_shipped_map_s_id_is_warned_of():
    """One imported before a map of that id shipped: the shipped map is what every lookup
    finds, so `check --database` warns; games started on the import keep its version."""
    from django.core import checks

    from engine.maps import community
    from games import checks as map_checks

    data = community.read(ISLES.read_bytes(), "five_isles.map", "europe")[0]
    row = ImportedMap.objects.create(pk="europe", name="Europe isles", data=data,
                                     hash=maps.content_hash(data), source_format="domination",
                                     imported_at=timezone.now())
    MapVersion.objects.create(hash=row.hash, map=row, data=data, imported_at=row.imported_at)
    warned = map_checks.imported_maps_shadow_no_shipped_map(None, databases=["default"])
    assert [(w.id, w.level) for w in warned] == [("games.W001", checks.WARNING)]
    assert "'europe' has the id of a shipped map" in warned[0].msg
    assert "europe" in str(checks.run_checks(databases=["default"]))
    assert map_checks.imported_maps_shadow_no_shipped_map(None) == []  # no database asked
    assert boards.board_of_map("europe") is maps.shipped("europe")
    assert maps.shipped("europe") in boards.available_boards()
    assert [b.id for b in boards.available_boards()].count("europe") == 1
    assert len(maps.board_by_hash(row.hash).territories) == 14  # its version is still kept


def test_an_id_with_a_line_break_stores_nothing():
    with pytest.raises(CommandError, match="lower-case letters"):
        import_map(ISLES, "--id", "isles\n")  # `$` matches before a final newline
    nothing_stored()


@pytest.mark.parametrize("map_id", ["five%00isles", "five_isles%0A"])
def test_a_map_id_no_map_can_have_is_unknown_everywhere(alice, map_id):
    """A NUL is refused by PostgreSQL in any query: a 404 or a 400, never a 500."""
    import_map(ISLES)
    anyone = Client(raise_request_exception=False)
    for url in (f"/maps/{map_id}/", f"/maps/{map_id}/thumbnail.svg", f"{API}/maps/{map_id}/"):
        assert anyone.get(url).status_code == 404, url
    answer = alice.post(GAMES, {"name": "x", "players": 2, "map": unquote(map_id)},
                        format="json")
    assert_error(answer, 400, "unknown_map")
    assert not Game.objects.exists()


def test_a_re_import_keeps_the_version_a_game_plays(alice, tmp_path):
    import_map(ISLES)
    first = ImportedMap.objects.get(pk="five_isles").hash
    view = alice.post(GAMES, {"name": "Old", "players": 2, "map": "five_isles",
                              "bots": ["easy"]}, format="json").json()
    assert view["map_hash"] == first
    changed = tmp_path / "five_isles.map"
    changed.write_text(ISLES.read_text().replace("East_Isle 3", "East_Isle 4"))
    assert import_map(changed, "--replace") == "five_isles"
    assert "new version" in import_map.stderr
    second = ImportedMap.objects.get(pk="five_isles").hash
    assert second != first and MapVersion.objects.filter(map="five_isles").count() == 2
    assert import_map(changed, "--replace") == "five_isles"
    assert "unchanged" in import_map.stderr and MapVersion.objects.count() == 2
    # The old game keeps its version, read back from the database; a new game gets the new.
    forget_recent()
    maps._by_hash.pop(first)
    old = Game.objects.get(pk=view["id"])
    assert load_state(old).board.hash == first and check_game(old) == []
    assert load_state(old).board.continent_bonus["east_isle"] == 3
    new = alice.post(GAMES, {"name": "New", "players": 2, "map": "five_isles",
                             "bots": ["easy"]}, format="json").json()
    assert new["map_hash"] == second


def test_a_disabled_map_takes_no_new_game_but_its_games_play_on(alice, bob):
    import_map(ISLES)
    row = ImportedMap.objects.get(pk="five_isles")
    waiting = alice.post(GAMES, {"name": "Waiting", "players": 2, "map": "five_isles"},
                         format="json").json()
    boards.set_enabled(row, False)
    assert "five_isles" not in {m["id"] for m in alice.get(f"{API}/maps/").json()}
    assert alice.get(f"{API}/maps/five_isles/").status_code == 200  # its games show it
    before = Game.objects.count()
    assert_error(alice.post(GAMES, {"name": "No", "players": 2, "map": "five_isles"},
                            format="json"), 400, "unknown_map")
    assert Game.objects.count() == before
    assert bob.post(game_url(waiting["id"], "join/")).status_code == 200
    assert alice.get(game_url(waiting["id"])).json()["status"] == "active"
    boards.set_enabled(row, True)
    assert alice.post(GAMES, {"name": "Yes", "players": 2, "map": "five_isles"},
                      format="json").status_code == 201


def test_a_map_in_use_is_never_deleted(alice):
    import_map(ISLES)
    import_map(SEAS)
    alice.post(GAMES, {"name": "On it", "players": 2, "map": "five_isles"}, format="json")
    isles, seas = ImportedMap.objects.get(pk="five_isles"), ImportedMap.objects.get(
        pk="twin_seas")
    for row in (isles, seas):
        boards.set_enabled(row, False)
    with pytest.raises(boards.MapInUse, match="played in 1 game"):
        boards.delete_map(isles)
    boards.set_enabled(seas, True)
    with pytest.raises(boards.MapInUse, match="disable it first"):
        boards.delete_map(seas)
    boards.set_enabled(seas, False)
    boards.delete_map(seas)
    assert set(ImportedMap.objects.values_list("pk", flat=True)) == {"five_isles"}
    assert set(MapVersion.objects.values_list("map", flat=True)) == {"five_isles"}


def test_moderators_list_disable_and_delete_in_the_admin(alice):
    import_map(ISLES)
    import_map(SEAS)
    alice.post(GAMES, {"name": "On it", "players": 2, "map": "five_isles"}, format="json")
    page = client_for(moderator("maud"))
    listing = page.get("/admin/games/importedmap/")
    assert listing.status_code == 200
    text = listing.content.decode()
    assert "Five Isles" in text and "Twin Seas" in text
    staff = user("plain")  # staff, but no moderator
    staff.is_staff = True
    staff.save()
    assert client_for(staff).get("/admin/games/importedmap/").status_code == 403
    url = "/admin/games/importedmap/"
    done = page.post(url, {"action": "disable_maps", "_selected_action": ["five_isles",
                                                                          "twin_seas"]},
                     follow=True)
    assert "2 map(s) disabled" in done.content.decode()
    assert not ImportedMap.objects.filter(enabled=True).exists()
    done = page.post(url, {"action": "delete_unused_maps",
                           "_selected_action": ["five_isles", "twin_seas"]}, follow=True)
    said = done.content.decode().lower()
    assert "five_isles: not deleted: the map &#x27;five_isles&#x27; is played in 1 game" in said
    assert "twin_seas: deleted" in said
    assert list(ImportedMap.objects.values_list("pk", flat=True)) == ["five_isles"]
    assert page.post(f"{url}five_isles/delete/").status_code == 403


def test_moderators_import_a_file_in_the_admin(tmp_path):
    page = client_for(moderator("maud"))
    with open(SEAS, "rb") as upload:
        done = page.post("/admin/games/importedmap/add/", {"file": upload, "map_id": "seas"},
                         follow=True)
    assert done.status_code == 200
    assert "line 27: &#x27;canyon&#x27; borders" in done.content.decode().lower()
    row = ImportedMap.objects.get(pk="seas")
    assert row.imported_by.username == "maud"
    bad = tmp_path / "bad.map"
    bad.write_text(SEAS.read_text().replace("Midlands=2", "Midlands=two"))
    with open(bad, "rb") as upload:
        refused = page.post("/admin/games/importedmap/add/", {"file": upload, "map_id": "bad"})
    assert refused.status_code == 200 and "line 10: bonus" in refused.content.decode()
    assert not ImportedMap.objects.filter(pk="bad").exists()


def test_the_classic_map_is_unchanged_beside_imported_ones(alice):
    import_map(ISLES)
    assert maps.classic().hash == maps.CLASSIC_FIRST_HASH
    assert boards.board_for_new_game("classic") is maps.classic()
    shown = alice.get(f"{API}/maps/classic/").json()
    assert shown["drawing"] == {"layout": "classic"} and len(shown["territories"]) == 42
    assert [b.id for b in boards.available_boards()][:len(maps.shipped_ids())] == list(
        maps.shipped_ids())


@pytest.mark.django_db(transaction=True)
def test_a_map_deleted_while_a_game_is_being_created_on_it_takes_no_game(monkeypatch):
    """The creation read the map as enabled; the moderator disables and deletes it before
    the game is stored: the game must not be stored on a map that is gone."""
    import threading

    from django.db import connection

    from lobby import open_games

    import_map(ISLES)
    creator = people.user("maker", password="pw")
    read, go_on = threading.Event(), threading.Event()
    checked = open_games.rules.validate_rules

    def slow_check(*args, **kwargs):  # the creation between reading the map and storing
        read.set()
        go_on.wait(10)
        return checked(*args, **kwargs)

    monkeypatch.setattr(open_games.rules, "validate_rules", slow_check)
    outcome = {}

    def create():
        try:
            outcome["game"] = open_games.create_game(creator, "Racing", 2, map_id="five_isles")
        except Exception as problem:  # noqa: BLE001 - a refusal is an outcome here
            outcome["refused"] = problem
        finally:
            connection.close()

    creating = threading.Thread(target=create)
    creating.start()
    assert read.wait(10)
    row = ImportedMap.objects.get(pk="five_isles")
    boards.set_enabled(row, False)
    try:
        boards.delete_map(row)
    except boards.MapInUse:
        pass
    go_on.set()
    creating.join(10)

    on_it = Game.objects.filter(map="five_isles").count()
    kept = ImportedMap.objects.filter(pk="five_isles").exists()
    assert kept or not on_it, outcome
    if "refused" in outcome:
        assert getattr(outcome["refused"], "code", "") == "unknown_map", outcome
