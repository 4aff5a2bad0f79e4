"""The log in words."""

from __future__ import annotations

from django.utils import translation

from web.game_log import log_entries
from words.narrator import OwnerTracker, describe


def battle(conquered=False):
    return {"seq": 9, "type": "battle", "actor": 0, "data": {
        "seat": 0, "from": "scandinavia", "to": "ukraine", "attacker_dice": [6, 5, 2],
        "defender_dice": [4, 1], "attacker_losses": 0, "defender_losses": 2,
        "conquered": conquered}}


def test_it_tells_a_battle_with_dice_and_losses():
    owners = OwnerTracker()
    owners.see({"type": "territories_dealt", "data": {"owners": {"ukraine": 1}}})

    with translation.override("en"):
        text = describe(battle(), owners=owners)

    assert text == "Red attacked Ukraine from Scandinavia: 6 5 2 against 4 1, Blue lost 2"


def test_it_tells_a_conquest_and_then_knows_the_new_owner():
    events = [
        {"seq": 1, "type": "territories_dealt", "actor": None,
         "data": {"owners": {"ukraine": "neutral"}}},
        battle(conquered=True),
        {**battle(), "seq": 10, "data": {**battle()["data"], "seat": 1, "from": "ural",
                                         "to": "ukraine"}},
    ]

    with translation.override("en"):
        entries = log_entries(events)

    assert entries[1]["text"].endswith("Neutral lost 2 — Ukraine conquered!")
    assert "Red lost 2" in entries[2]["text"]
    assert entries[1]["color"] == "red"


def test_it_keeps_hidden_cards_hidden():
    with translation.override("en"):
        hidden = describe({"seq": 3, "type": "card_drawn", "actor": 1, "data": {"seat": 1}})
        shown = describe({"seq": 3, "type": "card_drawn", "actor": 1,
                          "data": {"seat": 1, "card": 0}})

    assert hidden == "Blue drew a card."
    assert shown == "Blue drew a card: Alaska (infantry)."


def test_it_speaks_polish():
    with translation.override("pl"):
        text = describe(battle())

    assert text.startswith("Czerwony zaatakował terytorium Ukraina z terytorium Skandynawia")


def test_it_names_the_moderator_behind_an_action():
    events = [
        {"seq": 5, "type": "game_paused", "actor": None,
         "data": {"by": "mona", "reason": "holiday"}},
        {"seq": 6, "type": "player_dropped", "actor": None,
         "data": {"seat": 2, "cards_to": "deck", "by": "mona", "reason": "abusive chat"}},
        {"seq": 7, "type": "player_eliminated", "actor": 0, "data": {"seat": 1, "by": 0}},
    ]

    with translation.override("en"):
        texts = [entry["text"] for entry in log_entries(events)]

    assert texts[0] == "Moderator mona paused the game."
    assert texts[1].startswith("Moderator mona removed Green")
    assert texts[2] == "Red eliminated Blue."


def test_it_tells_a_timed_out_drop_apart_from_a_moderators_in_mail():
    from words.narrator import describe as narrate

    moderated = {"type": "player_dropped", "data": {"seat": 1, "by": "mona", "reason": "x"}}
    timed_out = {"type": "player_dropped", "data": {"seat": 1, "reason": "timeout"}}

    with translation.override("en"):
        assert narrate(moderated, {}).startswith("Moderator mona removed Blue")
        assert narrate(timed_out, {}).startswith("Blue missed too many turns")
