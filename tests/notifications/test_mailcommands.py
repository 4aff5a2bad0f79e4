"""notifications/mail_in/commands.py: the command language of moves by mail."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from engine import Rules, maps
from engine.board import CARDS, TERRITORIES, territory_name
from engine.commands import COMMAND_TYPES
from notifications.mail_in.commands import (
    PHRASES,
    MailCommandError,
    command_lines,
    parse_line,
    territory,
)


def card(territory_id: str) -> int:
    return next(i for i, (t, _) in enumerate(CARDS) if t == territory_id)


def holding(*cards) -> SimpleNamespace:
    """Just enough of a game state for `trade`: seat 0 holds `cards`."""
    return SimpleNamespace(rules=Rules(), sets_traded=0, board=maps.classic(),
                           players=[SimpleNamespace(cards=list(cards))])


@pytest.mark.parametrize("line, command", [
    ("place 3 ukraine", {"type": "place", "placements": {"ukraine": 3}}),
    ("Place 3 UKRAINE", {"type": "place", "placements": {"ukraine": 3}}),
    ("  place   3   ukraine  ", {"type": "place", "placements": {"ukraine": 3}}),
    ("place 3 ukraine, 2 siam", {"type": "place", "placements": {"ukraine": 3, "siam": 2}}),
    ("put 3 on ukraine; 2 in siam", {"type": "place",
                                     "placements": {"ukraine": 3, "siam": 2}}),
    ("reinforce 2 to peru and 1 peru", {"type": "place", "placements": {"peru": 3}}),
    ("place 5 Western United States", {"type": "place",
                                       "placements": {"western_united_states": 5}}),
    ("neutral 2 peru, 1 china", {"type": "place_neutral",
                                 "placements": {"peru": 2, "china": 1}}),
    ("claim peru", {"type": "claim", "territory": "peru"}),
    ("claim W. US", {"type": "claim", "territory": "western_united_states"}),
    ("capital Great Britain", {"type": "choose_capital", "territory": "great_britain"}),
    ("trade 4 17 43", {"type": "trade", "cards": [4, 17, 43]}),
    ("trade 4 17 43 bonus peru", {"type": "trade", "cards": [4, 17, 43],
                                  "bonus_territory": "peru"}),
    ("attack ukraine from scandinavia", {"type": "attack", "from": "scandinavia",
                                         "to": "ukraine", "repeat": False}),
    ("attack ukraine from scandinavia with 3 repeat", {
        "type": "attack", "from": "scandinavia", "to": "ukraine", "dice": 3, "repeat": True}),
    ("attack ukraine from scandinavia with 2 dice", {
        "type": "attack", "from": "scandinavia", "to": "ukraine", "dice": 2, "repeat": False}),
    ("Attack Middle East from Southern Europe with 1", {
        "type": "attack", "from": "southern_europe", "to": "middle_east", "dice": 1,
        "repeat": False}),
    ("attack siam from china until done", {"type": "attack", "from": "china", "to": "siam",
                                           "repeat": True}),
    ("attack siam from china until conquered", {"type": "attack", "from": "china",
                                                "to": "siam", "repeat": True}),
    ("attack siam from china all out", {"type": "attack", "from": "china", "to": "siam",
                                        "repeat": True}),
    ("attack siam from china blitz", {"type": "attack", "from": "china", "to": "siam",
                                      "repeat": True}),
    ("occupy 5", {"type": "occupy", "armies": 5}),
    ("move 2", {"type": "occupy", "armies": 2}),
    ("end attack", {"type": "end_attack"}),
    ("stop attack", {"type": "end_attack"}),
    ("stop attacking", {"type": "end_attack"}),
    ("no more attacks", {"type": "end_attack"}),
    ("fortify 4 from ural to siberia", {"type": "fortify", "from": "ural", "to": "siberia",
                                        "armies": 4}),
    ("fortify 1 from new guinea to w. australia", {
        "type": "fortify", "from": "new_guinea", "to": "western_australia", "armies": 1}),
    ("fortify from ural: 2 siberia, 1 china", {
        "type": "fortify", "from": "ural",
        "moves": [{"to": "siberia", "armies": 2}, {"to": "china", "armies": 1}]}),
    ("end", {"type": "end_turn"}),
    ("End Turn", {"type": "end_turn"}),
    ("done", {"type": "end_turn"}),
    ("pass", {"type": "end_turn"}),
    ("end my turn", {"type": "end_turn"}),
    ("defense one", {"type": "set_defense", "policy": "one"}),
    ("defence max", {"type": "set_defense", "policy": "max"}),
    ("neutral defense one", {"type": "set_defense", "policy": "one", "neutral": True}),
    ("Neutral defence max", {"type": "set_defense", "policy": "max", "neutral": True}),
    ("resign", {"type": "resign"}),
])
def test_it_reads_every_command_form(line, command):
    assert parse_line(line) == command


def test_it_reads_many_dice_for_the_engine_to_judge():
    # The engine answers "roll 1 to 3 dice"; the parser must not misread the territory.
    assert parse_line("attack ukraine from scandinavia with 10")["dice"] == 10


@pytest.mark.parametrize("line", ["", "   ", "\t"])
def test_it_skips_a_blank_line(line):
    assert parse_line(line) is None


def test_it_trades_the_best_set_held_when_no_cards_are_named():
    hand = [card("alaska"), card("argentina"), card("ukraine"), card("china")]

    command = parse_line("trade", holding(*hand), 0)

    assert command == {"type": "trade", "cards": [card("alaska"), card("argentina"),
                                                  card("china")]}


def test_it_trades_the_best_set_with_a_bonus_territory():
    hand = [card("alaska"), card("ukraine"), card("brazil")]

    command = parse_line("trade bonus Brazil", holding(*hand), 0)

    assert command == {"type": "trade", "cards": sorted(hand), "bonus_territory": "brazil"}


@pytest.mark.parametrize("line, state, message", [
    ("attack narnia from ukraine", None, "no territory called 'narnia'"),
    ("attack ukraine from Mordor", None, "no territory called 'mordor'"),
    ("place 3 atlantis", None, "no territory called 'atlantis'"),
    ("place 3 4 ukraine", None, "no territory called '4 ukraine'"),
    ("fortify 2 from ural to the moon", None, "no territory called 'the moon'"),
    ("claim el dorado", None, "no territory called 'el dorado'"),
    ("capital lemuria", None, "no territory called 'lemuria'"),
    ("place three ukraine", None,
     "write placements as '3 ukraine, 2 siam' (got 'three ukraine')"),
    ("place 3 ukraine, siam", None, "write placements as '3 ukraine, 2 siam' (got 'siam')"),
    ("neutral peru", None, "write placements as '3 ukraine, 2 siam' (got 'peru')"),
    ("place ,", None, "say how many armies go where, e.g. 'place 3 ukraine'"),
    ("trade", None, "you hold no set of cards to trade"),
    ("trade", "no set", "you hold no set of cards to trade"),
    ("Sent from my phone", None, "did not understand 'Sent from my phone'"),
    ("attack ukraine", None, "did not understand 'attack ukraine'"),
    ("occupy all", None, "did not understand 'occupy all'"),
    ("defense none", None, "did not understand 'defense none'"),
    ("fortify ural to siberia", None, "did not understand 'fortify ural to siberia'"),
])
def test_it_says_exactly_what_is_wrong(line, state, message):
    if state == "no set":
        state = holding(card("alaska"), card("ukraine"))

    with pytest.raises(MailCommandError) as refused:
        parse_line(line, state, 0)

    assert str(refused.value) == message


@pytest.mark.parametrize("text, territory_id", [
    ("ukraine", "ukraine"),
    ("UKRAINE", "ukraine"),
    ("  Ukraine ", "ukraine"),
    ("western_united_states", "western_united_states"),
    ("Western United States", "western_united_states"),
    ("westernunitedstates", "western_united_states"),
    ("western-united-states", "western_united_states"),
    ("W. US", "western_united_states"),
    ("east us", "eastern_united_states"),
    ("NWT", "northwest_territory"),
    ("Northwest", "northwest_territory"),
    ("GB", "great_britain"),
    ("UK", "great_britain"),
    ("Britain", "great_britain"),
    ("N. Europe", "northern_europe"),
    ("W Europe", "western_europe"),
    ("S.Europe", "southern_europe"),
    ("N Africa", "north_africa"),
    ("E. Africa", "east_africa"),
    ("S. Africa", "south_africa"),
    ("Middle-East", "middle_east"),
    ("mideast", "middle_east"),
    ("PNG", "new_guinea"),
    ("W. Australia", "western_australia"),
    ("E Australia", "eastern_australia"),
    ("Kamchatca", "kamchatka"),
    ("Madagaskar", "madagascar"),
    ("Yakutia", "yakutsk"),
    ("C. America", "central_america"),
])
def test_it_forgives_territory_names(text, territory_id):
    assert territory(text) == territory_id


def test_it_knows_every_territory_by_its_id_and_its_name():
    for territory_id in TERRITORIES:
        assert territory(territory_id) == territory_id
        assert territory(territory_name(territory_id)) == territory_id
        assert territory(territory_name(territory_id).upper()) == territory_id


def test_it_reads_the_lines_before_the_signature():
    body = "place 3 ukraine\n\nend\n-- \nAlice\nplace 9 siam\n"

    assert command_lines(body) == ["place 3 ukraine", "end"]


def test_it_ignores_the_quoted_mail():
    body = (
        "attack ukraine from scandinavia\r\n"
        "> It is your move, Red (alice).\r\n"
        ">> place 3 siam\r\n"
        "occupy 3\r\n"
        "\r\n"
        "On Wed, 10 Jun 2026 at 10:00, Conquest <conquest@localhost> wrote:\r\n"
        "place 40 siam\r\n"
    )

    assert command_lines(body) == ["attack ukraine from scandinavia", "occupy 3"]


@pytest.mark.parametrize("separator", [
    "-----Original Message-----", "----- Original Message -----",
    "From: Conquest <conquest@localhost>", "--",
])
def test_it_stops_at_a_forwarded_or_quoted_header(separator):
    assert command_lines(f"end\n{separator}\nresign\n") == ["end"]


def test_it_reads_no_lines_from_an_empty_body():
    assert command_lines("") == []
    assert command_lines(None) == []
    assert command_lines("\n \n> quoted only\n") == []


def test_every_command_a_player_may_send_can_be_mailed_and_nothing_else():
    assert {kind for kind, _, _ in PHRASES} == set(COMMAND_TYPES)
