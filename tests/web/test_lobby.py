"""Creating a game from the lobby: presets, every rule option, refusals as form messages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.options import validate_rules
from games.models import Game
from tests.games_in_states import open_game

BASE = {"name": "Friday night", "players": "3", "deadline_seconds": "86400"}
CUSTOM = {
    "preset": "custom", "setup": "claim", "initial_placement": "simultaneous",
    "placement_batch": "4", "initial_max_per_territory": "", "card_values": "fixed",
    "fixed_infantry": "4", "fixed_cavalry": "6", "fixed_artillery": "8", "fixed_mixed": "12",
    "card_territory_bonus": "each", "occupy_minimum": "one", "fortify": "spread",
    "objective": "capitals", "capitals_to_win": "all", "capital_collapse": "on",
    "neutral": "", "neutral_reinforcement": "auto", "max_missed_turns": "5",
}


@pytest.mark.parametrize(("preset", "expected", "players"), [
    ("classic", {"objective": "domination", "initial_placement": "simultaneous"}, 3),
    ("missions", {"objective": "missions"}, 3),
    ("capitals", {"objective": "capitals"}, 3),
    ("two_neutral", {"neutral": True, "neutral_reinforcement": "opponent"}, 2),
    ("rulebook", {"initial_placement": "turns", "placement_batch": 1}, 3),
])
def test_it_creates_a_game_from_a_preset(as_alice, preset, expected, players):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": preset})

    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.players == players
    assert {k: game.rules[k] for k in expected} == expected
    assert game.rules["fortify"] == "adjacent"  # the preset, not the custom fields


def test_it_creates_a_game_with_every_rule_chosen(as_alice):
    as_alice.post("/games/new/", {**BASE, **CUSTOM, "initial_max_per_territory": "9",
                                  "deadline_seconds": "3600", "round_limit": "50"})

    rules = Game.objects.get().rules
    assert rules == {
        "setup": "claim", "initial_placement": "simultaneous", "placement_batch": 4,
        "initial_max_per_territory": 9, "card_values": "fixed",
        "fixed_values": {"infantry": 4, "cavalry": 6, "artillery": 8, "mixed": 12},
        "card_territory_bonus": "each", "occupy_minimum": "one", "fortify": "spread",
        "objective": "capitals", "capitals_to_win": "all", "capital_collapse": True,
        "neutral": False, "neutral_reinforcement": "auto", "deadline_seconds": 3600,
        "max_missed_turns": 5, "round_limit": 50, "dropped_seat": "neutral", "fog": False,
        "team_size": 1, "preset": None, "continent_bonus_after_round": False,
        "max_cards": None, "elimination_trade_at": 6, "elimination_trade_when": "immediately",
        "forced_trade": "until_below_5", "traded_cards": "discard", "card_draw": "end_of_turn",
        "cards": True, "minimum_reinforcement": "territories", "neutral_dice": "max",
        "capital_card_out": False, "play_order": "setup",
    }


RULEBOOK_FIELDS = {
    "continent_bonus_after_round": "on", "max_cards": "5", "elimination_trade_at": "5",
    "elimination_trade_when": "next_reinforce", "forced_trade": "one_set",
    "traded_cards": "bottom", "card_draw": "before_fortify", "cards": "no",
    "minimum_reinforcement": "total", "neutral_dice": "opponent", "capital_card_out": "on",
    "play_order": "redraw",
}


def test_it_creates_a_game_with_every_rulebook_option_chosen(as_alice):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, **RULEBOOK_FIELDS})

    assert response.status_code == 302, response.content.decode()[:2000]
    rules = Game.objects.get().rules
    assert {k: rules[k] for k in RULEBOOK_FIELDS} == {
        "continent_bonus_after_round": True, "max_cards": 5, "elimination_trade_at": 5,
        "elimination_trade_when": "next_reinforce", "forced_trade": "one_set",
        "traded_cards": "bottom", "card_draw": "before_fortify", "cards": False,
        "minimum_reinforcement": "total", "neutral_dice": "opponent", "capital_card_out": True,
        "play_order": "redraw",
    }


def test_it_refuses_a_hand_limit_below_five_as_a_form_message(as_alice):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "max_cards": "4"})

    assert response.status_code == 400
    assert not Game.objects.exists()


def test_it_offers_every_rulebook_option_in_plain_words(as_alice):
    page = as_alice.get("/games/").content.decode()

    for key in RULEBOOK_FIELDS:
        assert f'name="{key}"' in page, key
    assert "drawn when the attack ends, before fortifying" in page
    for name in ("czech", "polish", "encyclopedia", "howto", "online"):
        assert f'value="{name}"' in page, name


@pytest.mark.parametrize("preset", ["czech", "polish", "encyclopedia", "howto", "online"])
def test_it_creates_a_game_from_a_rulebook_preset_and_names_it_on_the_page(as_alice, preset):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": preset})

    game = Game.objects.get()
    assert response.status_code == 302
    assert game.rules["preset"] == preset
    page = as_alice.get(f"/games/{game.pk}/").content.decode()
    assert "Rulebook" in page and "nothing: as written" in page


def test_the_rules_panel_lists_where_a_game_differs_from_its_rulebook(as_alice):
    # The Czech rulebook but a hand of seven: what the API makes of
    # {"preset": "czech", "max_cards": 7}.
    as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": "czech"})
    game = Game.objects.get()
    Game.objects.filter(pk=game.pk).update(rules=dict(game.rules, max_cards=7))

    page = as_alice.get(f"/games/{game.pk}/").content.decode()

    assert "Differs from the rulebook in" in page and "Most cards in a hand" in page


def test_the_rules_panel_of_a_czech_game_for_two_made_before_the_preset_refused_it(as_alice):
    # Stored from when the Czech preset played domination for two to six.
    as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": "czech"})
    game = Game.objects.get()
    Game.objects.filter(pk=game.pk).update(players=2, rules=dict(
        game.rules, objective="domination", card_territory_bonus="once"))

    response = as_alice.get(f"/games/{game.pk}/")

    assert response.status_code == 200
    page = response.content.decode()
    assert "Differs from the rulebook in" in page and "How to win" in page


def test_it_says_missions_go_unused_with_two_players_and_the_neutral(as_alice):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "players": "2",
                                             "objective": "missions", "neutral": "on"})

    game = Game.objects.get()
    assert response.status_code == 302
    page = as_alice.get(f"/games/{game.pk}/").content.decode()
    assert "no missions with two players and the neutral army" in page


def test_it_shows_a_too_small_setup_cap_as_a_form_message(as_alice):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "initial_max_per_territory": "2"})

    assert response.status_code == 400
    assert "the starting armies do not fit" in response.content.decode()
    assert not Game.objects.exists()


def test_it_shows_the_czech_rulebook_refusing_two_players_as_a_form_message(as_alice):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": "czech",
                                             "players": "2"})

    assert response.status_code == 400
    assert "This rulebook is for 3 to 6 players; this game has 2." in response.content.decode()
    assert not Game.objects.exists()


def test_it_refuses_a_form_with_bad_fields(as_alice):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "name": "",
                                             "players": "9", "placement_batch": "0"})

    html = response.content.decode()
    assert response.status_code == 400
    assert html.count('role="alert"') >= 3
    assert not Game.objects.exists()


def test_it_refuses_a_game_name_the_service_refuses(as_alice):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": "classic",
                                             "name": "bad\x07name"})

    assert response.status_code == 400
    assert not Game.objects.exists()


def test_it_needs_a_sign_in_to_create(client, db):
    response = client.post("/games/new/", {**BASE, "preset": "classic"})

    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Game.objects.exists()


def test_it_lists_open_games_with_a_join_button(as_bob, alice):
    game = open_game(alice, 3, "Open table")

    html = as_bob.get("/games/").content.decode()

    assert f'action="/games/{game.pk}/join/"' in html


def test_it_creates_a_game_whose_clock_rests_at_night_and_on_weekends(as_alice):
    response = as_alice.post("/games/new/", {
        **BASE, **CUSTOM, "preset": "classic", "clock_time_zone": "Europe/Prague",
        "quiet_from": "22", "quiet_until": "7", "pause_weekends": "on"})

    game = Game.objects.get()
    assert response.status_code == 302
    assert (game.clock_time_zone, game.quiet_from, game.quiet_until, game.pause_weekends) == (
        "Europe/Prague", 22, 7, True)
    page = as_alice.get(f"/games/{game.pk}/").content.decode()
    assert "every night from 22:00 to 07:00; on Saturdays and Sundays (Europe/Prague)" in page


def test_it_runs_the_clock_always_unless_told(as_alice):
    as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": "classic"})

    game = Game.objects.get()
    assert (game.quiet_from, game.quiet_until, game.pause_weekends) == (None, None, False)


@pytest.mark.parametrize("clock", [
    {"quiet_from": "22"},
    {"quiet_from": "8", "quiet_until": "8"},
    {"quiet_from": "25", "quiet_until": "7"},
    {"clock_time_zone": "Mars/Olympus_Mons"},
])
def test_it_refuses_a_clock_that_makes_no_sense(as_alice, clock):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": "classic", **clock})

    assert response.status_code == 400
    assert 'role="alert"' in response.content.decode()
    assert not Game.objects.exists()


def test_it_creates_a_game_with_computer_players_that_starts_when_they_fill_it(as_alice):
    as_alice.post("/games/new/", {**BASE, **CUSTOM, "players": "3", "bots": "2",
                                  "bot_level": "hard", "dropped_seat": "bot"})

    game = Game.objects.get()
    assert game.status == Game.ACTIVE and game.rules["dropped_seat"] == "bot"
    assert list(game.seats.order_by("seat").values_list("bot", flat=True)) == [
        None, "hard", "hard"]
    page = as_alice.get(f"/games/{game.pk}/").content.decode()
    assert page.count("computer, hard") == 2


def test_it_starts_a_game_against_the_computer_in_one_click(as_alice):
    home = as_alice.get("/").content.decode()
    assert "Play against the computer" in home

    response = as_alice.post("/games/against-the-computer/", {"level": "easy",
                                                              "opponents": "3"})

    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.status == Game.ACTIVE and game.players == 4
    assert as_alice.post("/games/against-the-computer/", {"level": "genius"}).status_code == 302
    assert Game.objects.count() == 1


def test_the_creator_adds_a_computer_player_from_the_game_page(as_alice):
    as_alice.post("/games/new/", {**BASE, **CUSTOM, "players": "2"})
    game = Game.objects.get()
    assert "Add a computer player" in as_alice.get(f"/games/{game.pk}/").content.decode()

    as_alice.post(f"/games/{game.pk}/bots/", {"level": "normal"})

    game.refresh_from_db()
    assert game.status == Game.ACTIVE


# ---- the players' entropy (docs/players/fair-dice.md "The draws") ------------------------------------
def entropy_inputs(html: str) -> list[str]:
    return re.findall(r'<input[^>]*name="entropy"[^>]*>', html)


def test_the_create_form_has_an_entropy_field_the_browser_fills(as_alice):
    html = as_alice.get("/games/").content.decode()

    create_form = html[html.index('id="create-game"'):]
    (field,) = entropy_inputs(create_form)
    assert "data-entropy" in field and "required" not in field and 'maxlength="64"' in field
    assert '/static/js/entropy.js"' in html


def test_the_browser_fills_it_from_its_own_crypto_without_a_cdn():
    script = (Path(__file__).resolve().parents[2] / "static" / "js" / "entropy.js").read_text()

    assert "crypto.getRandomValues" in script and "[data-entropy]" in script
    assert "http" not in script and "Math.random" not in script


def test_the_create_form_shows_the_seed_the_game_will_take_before_the_entropy(as_alice):
    html = as_alice.get("/games/").content.decode()
    shown = re.search(r'<code class="next-seed-hash">([0-9a-f]{64})</code>',
                      html[html.index('id="create-game"'):]).group(1)

    as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": "classic", "entropy": "mine"})

    game = Game.objects.get()
    assert game.seed_hash == shown
    assert game.seed_committed_at < game.seats.get(seat=0).joined_at
    assert shown not in as_alice.get("/games/").content.decode()  # the next game: another


def test_it_creates_a_game_with_the_entropy_as_typed(as_alice):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": "classic",
                                             "entropy": " my dice words ~ 42 "}, follow=True)

    game = Game.objects.get()
    assert game.seats.get(seat=0).entropy == " my dice words ~ 42 "
    assert "my dice words ~ 42" in response.content.decode()  # shown, to keep


def test_it_creates_a_game_with_no_entropy_when_the_field_is_left_empty(as_alice):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": "classic", "entropy": ""})

    assert response.status_code == 302
    assert Game.objects.get().seats.get(seat=0).entropy is None


@pytest.mark.parametrize("entropy", ["x" * 65, "caf\u00e9", "two\nlines", "tab\there"])
def test_it_refuses_bad_entropy_as_a_form_message(as_alice, entropy):
    response = as_alice.post("/games/new/", {**BASE, **CUSTOM, "preset": "classic", "entropy": entropy})

    html = response.content.decode()
    assert response.status_code == 400
    field = html[html.index('id="field-entropy"'):]
    assert 'role="alert"' in field[:field.index("</div>")]
    assert not Game.objects.exists()


def test_every_join_form_has_an_entropy_field(as_bob, alice):
    game = open_game(alice, 3, "Open table")

    for page in ("/games/", f"/games/{game.pk}/"):
        html = as_bob.get(page).content.decode()
        join_form = html[html.index(f'action="/games/{game.pk}/join/"'):]
        join_form = join_form[:join_form.index("</form>")]
        (field,) = entropy_inputs(join_form)
        assert "data-entropy" in field and "required" not in field
        assert '/static/js/entropy.js"' in html


def test_it_joins_with_the_entropy_typed_and_shows_it(as_bob, alice, bob):
    game = open_game(alice, 3, "Open table", entropy="alice")

    response = as_bob.post(f"/games/{game.pk}/join/", {"entropy": "bob's words"}, follow=True)

    assert game.seats.get(user=bob).entropy == "bob's words"
    assert "bob&#x27;s words" in response.content.decode()


def test_it_joins_without_entropy_when_the_field_is_left_empty(as_bob, alice, bob):
    game = open_game(alice, 3, "Open table")

    as_bob.post(f"/games/{game.pk}/join/", {"entropy": ""})

    assert game.seats.get(user=bob).entropy is None


def test_it_refuses_bad_entropy_on_joining_and_seats_nobody(as_bob, alice, bob):
    game = open_game(alice, 3, "Open table")

    response = as_bob.post(f"/games/{game.pk}/join/", {"entropy": "x" * 65}, follow=True)

    assert not game.seats.filter(user=bob).exists()
    assert "64" in response.content.decode()


def test_the_page_gives_the_script_the_engines_rule_defaults_for_a_preset_to_fill_in(as_alice):
    html = as_alice.get("/games/").content.decode()

    found = re.search(r'<script id="rule-defaults" type="application/json">(.*?)</script>',
                      html, re.S)
    defaults = json.loads(found[1])
    engine = validate_rules({}, 3).to_dict()
    assert defaults["card_values"] == engine["card_values"]
    assert defaults["max_missed_turns"] == engine["max_missed_turns"]
    assert defaults["fixed_cavalry"] == engine["fixed_values"]["cavalry"]
    assert defaults["cards"] == "yes"
    # Every rule field of the form, but the deadline and the round limit: a preset leaves
    # those as the player set them unless it names them.
    assert set(defaults) == {k for k in engine if k not in (
        "preset", "fixed_values", "deadline_seconds", "round_limit")} | {
        f"fixed_{kind}" for kind in engine["fixed_values"]}
    script = (Path(__file__).resolve().parents[2] / "static" / "js" / "forms.js").read_text()
    assert 'getElementById("rule-defaults")' in script
    assert '"escalating"' not in script and "until_below_5" not in script
