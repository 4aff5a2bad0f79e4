"""POST /api/v1/games/ (create) and GET /api/v1/games/ (the list, ?status= and ?mine=1)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Game, Seat
from tests.games.api_support import (
    API,
    COLORS,
    DEFAULT_RULES,
    assert_error,
    assert_game_view,
    game_url,
)
from tests.games_in_states import new_game
from tests.people import signed_up

URL = f"{API}/games/"
LIST_KEYS = {"id", "name", "status", "players", "seats_taken", "current_seat", "deadline"}


def create(client, **body):
    return client.post(URL, {"name": "Friday night", "players": 3, **body}, format="json")


def games() -> tuple[int, int]:
    return Game.objects.count(), Seat.objects.count()


# ---- create ----------------------------------------------------------------------------
def test_it_creates_an_open_game_with_the_creator_in_seat_0(alice):
    answer = create(alice)
    assert answer.status_code == 201, answer.content
    view = assert_game_view(answer.json(), seat=0)
    assert view["name"] == "Friday night"
    assert view["status"] == "open" and view["version"] == 0 and view["phase"] is None
    assert view["turn"] == 0 and view["current_seat"] is None and view["winner"] is None
    assert [(p["seat"], p["username"], p["color"]) for p in view["players"]] == [
        (0, "alice", "red")]
    assert view["you"]["cards"] == [] and view["you"]["mission"] is None
    assert all(t == {"owner": None, "armies": 0} for t in view["territories"].values())
    game = Game.objects.get(pk=view["id"])
    assert game.creator_id == alice.user_id and game.players == 3
    assert view["seed_hash"] == game.seed_hash


def test_it_echoes_every_rule_option_with_its_default(alice):
    view = create(alice).json()
    assert {k: view["rules"][k] for k in DEFAULT_RULES} == DEFAULT_RULES


def test_it_fills_in_the_defaults_around_the_options_given(alice):
    rules = {"setup": "claim", "fortify": "spread", "card_values": "fixed",
             "fixed_values": {"artillery": 4, "infantry": 6, "cavalry": 8}}
    view = create(alice, rules=rules).json()
    expected = dict(DEFAULT_RULES, setup="claim", fortify="spread", card_values="fixed",
                    fixed_values={"infantry": 6, "cavalry": 8, "artillery": 4, "mixed": 10})
    assert {k: view["rules"][k] for k in DEFAULT_RULES} == expected
    again = alice.get(game_url(view["id"])).json()
    assert again["rules"] == view["rules"]


@pytest.mark.parametrize("key, value", [
    ("setup", "deal"), ("setup", "claim"), ("setup", "random"),
    ("initial_placement", "turns"), ("initial_placement", "simultaneous"),
    ("placement_batch", 1), ("placement_batch", 7), ("placement_batch", 100),
    ("initial_max_per_territory", None), ("initial_max_per_territory", 4),
    ("card_values", "escalating"), ("card_values", "fixed"),
    ("fixed_values", {"mixed": 12}),
    ("card_territory_bonus", "once"), ("card_territory_bonus", "each"),
    ("occupy_minimum", "dice"), ("occupy_minimum", "one"),
    ("fortify", "adjacent"), ("fortify", "connected"), ("fortify", "spread"),
    ("objective", "domination"), ("objective", "missions"), ("objective", "capitals"),
    ("capitals_to_win", "table"), ("capitals_to_win", "all"),
    ("capital_collapse", False), ("capital_collapse", True),
    ("neutral", True), ("neutral", False),
    ("neutral_reinforcement", "opponent"), ("neutral_reinforcement", "auto"),
    ("deadline_seconds", 10), ("deadline_seconds", 3600),
    ("max_missed_turns", 1), ("max_missed_turns", 10),
    # each rulebook as written (docs/players/rulebooks.md)
    ("continent_bonus_after_round", True), ("max_cards", 5), ("max_cards", None),
    ("elimination_trade_at", 5), ("elimination_trade_when", "next_reinforce"),
    ("forced_trade", "one_set"), ("traded_cards", "bottom"), ("card_draw", "before_fortify"),
    ("cards", False), ("minimum_reinforcement", "total"), ("neutral_dice", "opponent"),
    ("capital_card_out", True), ("play_order", "redraw"),
])
def test_it_takes_every_value_of_every_rule_option(alice, key, value):
    answer = create(alice, rules={key: value})
    assert answer.status_code == 201, answer.content
    echoed = answer.json()["rules"]
    expected = dict(DEFAULT_RULES, **{key: value})
    if key == "fixed_values":
        expected["fixed_values"] = dict(DEFAULT_RULES["fixed_values"], **value)
    assert {k: echoed[k] for k in DEFAULT_RULES} == expected


BAD_RULES = [
    {"setup": "draft"}, {"setup": None}, {"setup": 1}, {"setup": ["deal"]}, {"setup": "DEAL"},
    {"initial_placement": "all_at_once"}, {"initial_placement": True},
    {"placement_batch": 0}, {"placement_batch": -1}, {"placement_batch": 101},
    {"placement_batch": "3"}, {"placement_batch": 2.5}, {"placement_batch": 2.0},
    {"placement_batch": True}, {"placement_batch": None},
    {"initial_max_per_territory": 0}, {"initial_max_per_territory": "4"},
    {"initial_max_per_territory": 1.5}, {"initial_max_per_territory": False},
    {"initial_max_per_territory": 2},  # 35 armies on 14 territories do not fit under 3
    {"card_values": "doubling"}, {"card_values": None},
    {"fixed_values": "czech"}, {"fixed_values": [4, 6, 8, 10]}, {"fixed_values": {"wild": 5}},
    {"fixed_values": {"infantry": 0}}, {"fixed_values": {"infantry": "4"}},
    {"fixed_values": {"mixed": True}}, {"fixed_values": {"cavalry": 1001}},
    {"card_territory_bonus": "all"}, {"card_territory_bonus": None},
    {"occupy_minimum": "two"}, {"occupy_minimum": 1},
    {"fortify": "anywhere"}, {"fortify": None},
    {"objective": "world_domination"}, {"objective": ""},
    {"capitals_to_win": "half"}, {"capitals_to_win": 3},
    {"capital_collapse": "yes"}, {"capital_collapse": 1}, {"capital_collapse": None},
    {"neutral": "false"}, {"neutral": 0}, {"neutral": None},
    {"neutral_reinforcement": "random"}, {"neutral_reinforcement": None},
    {"deadline_seconds": 9}, {"deadline_seconds": 0}, {"deadline_seconds": -60},
    {"deadline_seconds": "86400"}, {"deadline_seconds": 86400.5}, {"deadline_seconds": True},
    {"deadline_seconds": 366 * 86400},
    {"max_missed_turns": 0}, {"max_missed_turns": "3"}, {"max_missed_turns": 101},
    {"max_missed_turns": None},
    {"no_such_option": 1}, {"Setup": "deal"}, {"": None},
    {"continent_bonus_after_round": "yes"}, {"max_cards": 4}, {"max_cards": "5"},
    {"elimination_trade_at": 4}, {"elimination_trade_at": None},
    {"elimination_trade_when": "later"}, {"forced_trade": "all"}, {"traded_cards": "top"},
    {"card_draw": "start_of_turn"}, {"cards": "no"}, {"minimum_reinforcement": 3},
    {"neutral_dice": "one"}, {"capital_card_out": None}, {"play_order": "random"},
    {"preset": "german"}, {"preset": ""}, {"preset": 1}, {"preset": "Czech"},
    {"preset": "czech", "max_cards": 3},
]


@pytest.mark.parametrize("rules", BAD_RULES, ids=str)
def test_it_refuses_a_bad_rule_option_and_creates_nothing(alice, rules):
    before = games()
    assert_error(create(alice, rules=rules), 400)
    assert games() == before


@pytest.mark.parametrize("rules", [[], "deal", 5, True, ["setup", "deal"]], ids=str)
def test_it_refuses_rules_that_are_not_an_object(alice, rules):
    before = games()
    assert_error(create(alice, rules=rules), 400)
    assert games() == before


@pytest.mark.parametrize("preset, expected", [
    ("czech", {"max_cards": 5, "continent_bonus_after_round": True, "fortify": "spread",
               "initial_max_per_territory": 4, "card_values": "fixed",
               "fixed_values": {"artillery": 4, "infantry": 6, "cavalry": 8, "mixed": 10},
               "objective": "missions", "card_territory_bonus": "each"}),
    ("polish", {"objective": "capitals", "capital_collapse": True, "capital_card_out": True,
                "traded_cards": "bottom", "card_draw": "before_fortify",
                "forced_trade": "one_set", "elimination_trade_when": "next_reinforce",
                "neutral_dice": "opponent", "card_values": "fixed",
                "card_territory_bonus": "each"}),
    ("encyclopedia", {"elimination_trade_at": 5, "play_order": "redraw", "setup": "claim"}),
    ("howto", {"setup": "claim"}),
    ("online", {"cards": False, "minimum_reinforcement": "total", "setup": "random",
                "neutral": False, "occupy_minimum": "one"}),
])
def test_it_resolves_a_rulebook_preset_and_shows_the_resolved_rules(alice, preset, expected):
    answer = create(alice, rules={"preset": preset})
    assert answer.status_code == 201, answer.content
    resolved = dict(DEFAULT_RULES, preset=preset, **expected)

    assert {k: answer.json()["rules"][k] for k in resolved} == resolved
    shown = alice.get(game_url(answer.json()["id"])).json()["rules"]
    assert {k: shown[k] for k in resolved} == resolved


def test_it_lets_other_keys_override_the_preset(alice):
    answer = create(alice, rules={"preset": "czech", "max_cards": 6, "fortify": "adjacent"})

    rules = answer.json()["rules"]
    assert (rules["preset"], rules["max_cards"], rules["fortify"]) == ("czech", 6, "adjacent")
    assert rules["continent_bonus_after_round"] is True


def test_it_refuses_the_czech_rulebook_for_two_players(alice):
    before = games()

    answer = create(alice, players=2, rules={"preset": "czech"})

    assert_error(answer, 400, "bad_rules")
    assert "three to six players" in answer.json()["detail"]
    assert games() == before


def test_it_names_the_presets_when_refusing_an_unknown_one(alice):
    answer = create(alice, rules={"preset": "german"})

    assert_error(answer, 400)
    assert "czech, polish, encyclopedia, howto, online" in answer.json()["detail"]


def test_it_takes_rules_null_as_all_defaults(alice):
    answer = create(alice, rules=None)
    assert answer.status_code == 201, answer.content
    assert {k: answer.json()["rules"][k] for k in DEFAULT_RULES} == DEFAULT_RULES


def test_it_takes_missions_with_two_players_and_the_neutral(alice):
    # docs/players/rules.md: with the neutral army missions are not used; the game plays to destruction.
    answer = create(alice, players=2, rules={"objective": "missions"})
    assert answer.status_code == 201, answer.content
    assert answer.json()["rules"]["objective"] == "missions"
    answer = create(alice, players=2, rules={"objective": "missions", "neutral": False})
    assert answer.status_code == 201, answer.content


@pytest.mark.parametrize("players, cap", [(2, 3), (3, 3), (4, 3), (5, 4), (6, 3)])
def test_it_takes_the_smallest_initial_cap_the_starting_armies_fit_under(alice, players, cap):
    assert create(alice, players=players,
                  rules={"initial_max_per_territory": cap}).status_code == 201
    assert_error(create(alice, players=players,
                        rules={"initial_max_per_territory": cap - 1}), 400, "bad_rules")


# ---- deadline_seconds ------------------------------------------------------------------
def test_it_gives_a_day_per_decision_by_default(alice):
    view = create(alice).json()
    assert view["rules"]["deadline_seconds"] == 86400
    assert Game.objects.get(pk=view["id"]).deadline_seconds == 86400


def test_it_takes_deadline_seconds_down_to_ten(alice):
    view = create(alice, deadline_seconds=10).json()
    assert view["rules"]["deadline_seconds"] == 10
    assert Game.objects.get(pk=view["id"]).deadline_seconds == 10


def test_it_lets_deadline_seconds_win_over_the_same_rule_option(alice):
    view = create(alice, deadline_seconds=600, rules={"deadline_seconds": 60}).json()
    assert view["rules"]["deadline_seconds"] == 600


@pytest.mark.parametrize("deadline", [9, 0, -1, "600", 600.5, True, [600], {"s": 600}],
                         ids=str)
def test_it_refuses_a_bad_deadline_and_creates_nothing(alice, deadline):
    before = games()
    assert_error(create(alice, deadline_seconds=deadline), 400)
    assert games() == before


def test_it_takes_deadline_seconds_null_as_the_default(alice):
    answer = create(alice, deadline_seconds=None)
    assert answer.status_code == 201, answer.content
    assert answer.json()["rules"]["deadline_seconds"] == 86400


# ---- players and name ------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_it_takes_two_to_six_players(alice, players):
    answer = create(alice, players=players)
    assert answer.status_code == 201, answer.content
    assert Game.objects.get(pk=answer.json()["id"]).players == players


@pytest.mark.parametrize("players", [0, 1, 7, 100, -2, "3", 3.0, 2.5, True, None, [3]],
                         ids=str)
def test_it_refuses_a_player_count_outside_two_to_six(alice, players):
    before = games()
    assert_error(create(alice, players=players), 400)
    assert games() == before


def test_it_refuses_a_game_without_players(alice):
    before = games()
    assert_error(alice.post(URL, {"name": "No count"}, format="json"), 400)
    assert games() == before


@pytest.mark.parametrize("name", [
    "", "   ", "x" * 101, None, 5, ["name"], {"n": 1}, "nul\x00name", "line\nbreak", "bell\x07",
], ids=repr)
def test_it_refuses_a_bad_name_and_creates_nothing(alice, name):
    before = games()
    assert_error(create(alice, name=name), 400, "bad_request")
    assert games() == before


def test_it_refuses_a_game_without_a_name(alice):
    before = games()
    assert_error(alice.post(URL, {"players": 2}, format="json"), 400)
    assert games() == before


def test_it_keeps_a_name_of_any_script_and_trims_it(alice):
    view = create(alice, name="  Čtvrteční partie — 世界  ").json()
    assert view["name"] == "Čtvrteční partie — 世界"
    assert create(alice, name="x" * 100).status_code == 201


@pytest.mark.parametrize("raw, content_type", [
    ("not json", "application/json"),
    ("[]", "application/json"),
    ('[{"name": "x", "players": 2}]', "application/json"),
    ("null", "application/json"),
    ("3", "application/json"),
    ('{"name": "x", "players": 2', "application/json"),
    ('{"name": "x", "players": NaN}', "application/json"),
    ('{"name": "x\\ud800", "players": 2}', "application/json"),
    ('{"name": "x", "players": 2, "rules": {"\\udfff": 1}}', "application/json"),
    ("name=x&players=2", "application/x-www-form-urlencoded"),
    ("name: x", "text/plain"),
])
def test_it_answers_400_to_a_body_that_is_not_a_json_object(alice, raw, content_type):
    before = games()
    assert_error(alice.generic("POST", URL, raw, content_type=content_type), 400)
    assert games() == before


def test_it_answers_401_without_a_token_and_creates_nothing(anonymous):
    before = games()
    assert_error(create(anonymous), 401, "not_authenticated")
    assert games() == before


# ---- the creator's entropy (docs/players/fair-dice.md "The draws") ------------------------------------
def test_it_keeps_the_creator_s_entropy_for_the_seed(alice, bob):
    answer = create(alice, players=2, entropy="  the creator's own 64 characters at most ~ ")
    assert answer.status_code == 201, answer.content
    game = Game.objects.get(pk=answer.json()["id"])
    # Kept as sent, spaces and all: it is hashed as it is.
    assert game.seats.get(seat=0).entropy == "  the creator's own 64 characters at most ~ "
    assert "the creator's own" not in bob.get(game_url(game.pk)).content.decode()
    bob.post(game_url(game.pk, "join/"))
    started = game.events.get(seq=1).data
    assert started["contributions"] == ["  the creator's own 64 characters at most ~ "]


@pytest.mark.parametrize("entropy", ["", "x" * 65, "\u00e9t\u00e9", "a\nb", "\x00", 7, False,
                                     ["x"], {"x": 1}])
def test_it_refuses_bad_entropy_and_creates_nothing(alice, entropy):
    before = games()
    answer = create(alice, entropy=entropy)
    assert_error(answer, 400, "bad_entropy")
    assert games() == before


def test_it_takes_64_characters_of_entropy(alice):
    assert create(alice, entropy="~" * 64).status_code == 201


# ---- the list --------------------------------------------------------------------------
def test_it_lists_games_with_the_fields_of_the_contract(alice, bob, anonymous):
    open_id = create(alice, players=3).json()["id"]
    active_id = new_game(alice, bob)
    for client in (alice, anonymous):
        answer = client.get(URL)
        assert answer.status_code == 200, answer.content
        listed = {g["id"]: g for g in answer.json()}
        assert {open_id, active_id} <= set(listed)
        for item in listed.values():
            assert LIST_KEYS <= set(item)
        assert {k: listed[open_id][k] for k in LIST_KEYS} == {
            "id": open_id, "name": "Friday night", "status": "open", "players": 3,
            "seats_taken": 1, "current_seat": None, "deadline": None}
        active = listed[active_id]
        game = Game.objects.get(pk=active_id)
        assert active["status"] == "active" and active["players"] == 2
        assert active["seats_taken"] == 2
        assert active["current_seat"] == game.current_seat
        assert active["current_seat"] in (0, 1)
        assert isinstance(active["deadline"], str)


def test_it_filters_by_status(alice, bob):
    open_id = create(alice).json()["id"]
    active_id = new_game(alice, bob)
    by_status = {
        status: {g["id"] for g in alice.get(URL, {"status": status}).json()}
        for status in ("open", "active", "finished")
    }
    assert open_id in by_status["open"] and open_id not in by_status["active"]
    assert active_id in by_status["active"] and active_id not in by_status["open"]
    assert not by_status["finished"] & {open_id, active_id}
    for status, ids in by_status.items():
        assert all(g["status"] == status for g in alice.get(URL, {"status": status}).json())
        assert ids <= {g["id"] for g in alice.get(URL).json()}


def test_it_lists_a_finished_game_under_finished(alice, bob):
    game_id = new_game(alice, bob)
    assert alice.post(game_url(game_id, "commands/"), {"type": "resign"},
                      format="json").status_code == 201
    assert [g["id"] for g in alice.get(URL, {"status": "finished"}).json()] == [game_id]


@pytest.mark.parametrize("status", ["started", "OPEN", "open,active", "\u00f6", "open\x00"])
def test_it_refuses_an_unknown_status(alice, status):
    assert_error(alice.get(URL, {"status": status}), 400, "bad_request")


def test_it_lists_only_my_games_with_mine(alice, bob, charlie):
    shared = new_game(alice, bob, charlie)
    alices = create(alice).json()["id"]
    bobs = create(bob).json()["id"]
    mine = alice.get(URL, {"mine": 1}).json()
    assert {g["id"] for g in mine} == {shared, alices}
    assert {g["id"]: g["seats_taken"] for g in mine} == {shared: 3, alices: 1}
    assert {g["id"] for g in bob.get(URL, {"mine": 1}).json()} == {shared, bobs}
    dora = signed_up("dora")
    assert dora.get(URL, {"mine": 1}).json() == []
    assert {g["id"] for g in alice.get(URL, {"mine": 1, "status": "open"}).json()} == {alices}


def test_it_lists_everyone_s_games_without_mine(alice, bob):
    alices = create(alice).json()["id"]
    bobs = create(bob).json()["id"]
    assert {alices, bobs} <= {g["id"] for g in alice.get(URL, {"mine": 0}).json()}


def test_it_answers_401_to_mine_without_a_token(alice, anonymous):
    create(alice)
    assert_error(anonymous.get(URL, {"mine": 1}), 401, "not_authenticated")


def test_it_lists_colours_in_seat_order_as_players_join(alice, bob, charlie):
    game_id = new_game(alice, bob, charlie)
    view = alice.get(game_url(game_id)).json()
    assert [p["color"] for p in view["players"]] == COLORS[:3]
    assert [p["username"] for p in view["players"]] == ["alice", "bob", "charlie"]


def test_it_answers_an_empty_list_when_there_are_no_games(db):
    assert APIClient().get(URL).json() == []


def test_it_creates_a_game_whose_clock_rests(alice):
    answer = create(alice, clock={"time_zone": "Europe/Prague", "quiet_from": 22,
                                  "quiet_until": 7, "weekends": True})

    assert answer.status_code == 201, answer.content
    game = Game.objects.get(pk=answer.json()["id"])
    assert (game.clock_time_zone, game.quiet_from, game.quiet_until, game.pause_weekends) == (
        "Europe/Prague", 22, 7, True)


@pytest.mark.parametrize("clock", [
    "nights", {"sleep": True}, {"time_zone": "Mars/Olympus_Mons"}, {"time_zone": 5},
    {"quiet_from": 22}, {"quiet_from": 22, "quiet_until": 24},
    {"quiet_from": 8, "quiet_until": 8}, {"quiet_from": True, "quiet_until": 7},
    {"weekends": "yes"},
])
def test_it_refuses_a_clock_that_makes_no_sense(alice, clock):
    before = games()

    assert_error(create(alice, clock=clock), 400, "bad_clock")
    assert games() == before
