"""The one narrator tells every event type in English, Czech and Polish, naming territories,
continents and cards in the reader's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from engine import events as ev
from engine.board import CONTINENTS, TERRITORIES
from engine.board import territory_name as english_name
from words import narrator
from words.vocabulary import continent_name, territory_name

NAMES = {0: "alice", 1: "bob", 2: "charlie"}
BY = {"by": "maud", "reason": "absent"}
SAMPLES = {
    ev.GAME_STARTED: {"order": [1, 0, 2], "seats": 3},
    ev.TERRITORIES_DEALT: {"owners": {"ukraine": 1}},
    ev.TERRITORY_CLAIMED: {"seat": 0, "territory": "northern_europe"},
    ev.DECK_SHUFFLED: {"count": 44},
    ev.MISSIONS_DEALT: {"missions": [None, None, None]},
    ev.ARMIES_PLACED: {"seat": 0, "placements": {"northern_europe": 3, "siam": 1}},
    ev.PLACEMENT_SUBMITTED: {"seat": 1},
    ev.CAPITAL_CHOSEN: {"seat": 0, "territory": "eastern_australia"},
    ev.TURN_STARTED: {"seat": 0, "turn": 4, "base": 3, "total": 10,
                      "continents": {"australia": 2, "south_america": 2}},
    ev.CARDS_TRADED: {"seat": 0, "cards": [0, 1, 42], "value": 6,
                      "bonus": {"northern_europe": 2}},
    ev.BATTLE: {"seat": 1, "from": "ukraine", "to": "northern_europe", "defender": 0,
                "attacker_dice": [6, 5, 2], "defender_dice": [4, 1], "attacker_losses": 1,
                "defender_losses": 1, "conquered": False},
    ev.OCCUPIED: {"seat": 1, "from": "ukraine", "to": "northern_europe", "armies": 3},
    ev.CAPITAL_CAPTURED: {"seat": 1, "owner": 0, "territory": "western_europe", "cards": 2},
    ev.FORTIFIED: {"seat": 0, "from": "great_britain", "to": "northern_europe", "armies": 5},
    ev.CARD_DRAWN: {"seat": 0, "card": 7},
    ev.PLAYER_ELIMINATED: {"seat": 2, "by": 1, "cards": 3},
    ev.PLAYER_DROPPED: {"seat": 2, "reason": "resigned", "cards_to": "deck"},
    ev.SEAT_TO_BOT: {"seat": 1, "level": "normal", "reason": "timeout"},
    ev.TURN_TIMED_OUT: {"seat": 0, "missed": 2},
    ev.TURN_ENDED: {"seat": 0},
    ev.ATTACK_ENDED: {"seat": 0},
    ev.DEFENSE_SET: {"seat": 0, "policy": "one"},
    ev.PLAY_ORDER_DRAWN: {"order": [2, 0, 1]},
    ev.GAME_FINISHED: {"winner": 1, "reason": "conquest"},
    ev.GAME_PAUSED: BY,
    ev.GAME_RESUMED: BY,
    ev.GAME_ABORTED: BY,
    ev.MODERATOR_ENDED_TURN: BY,
    ev.DEADLINE_EXTENDED: {**BY, "until": "2026-12-01T10:00:00+00:00", "was": None},
    ev.PLAYER_REPLACED: {**BY, "seat": 1, "from": "bob", "to": "erin", "to_user_id": 9},
    ev.CHAT_HIDDEN: {**BY, "message": 12, "author_seat": 2},
    ev.DEADLINE_STRETCHED: {"seats": [0, 2], "until": "2026-12-01T10:00:00+00:00",
                            "was": "2026-11-28T10:00:00+00:00"},
    ev.DEADLINE_PULLED_BACK: {"seat": 0, "until": "2026-11-29T10:00:00+00:00",
                              "was": "2026-12-01T10:00:00+00:00"},
}


def same_in(language: str) -> set[str]:
    """Names that read the same in `language` (Siam, Alaska, ...): nothing to translate."""
    with translation.override(language):
        return {english_name(p) for p in (*TERRITORIES, *CONTINENTS)
                if (continent_name(p) if p in CONTINENTS else territory_name(p))
                == english_name(p)}


def test_there_is_a_sample_of_every_declared_event():
    assert set(SAMPLES) == set(ev.EVENT_TYPES)


def told(kind: str, language: str) -> str:
    event = {"seq": 5, "type": kind, "actor": SAMPLES[kind].get("seat"), "data": SAMPLES[kind]}
    with translation.override(language):
        return narrator.describe(event, NAMES, reasons=True)


@pytest.mark.parametrize("kind", sorted(ev.EVENT_TYPES))
@pytest.mark.parametrize("language", ["cs", "pl"])
def test_it_tells_every_event_in_the_readers_language(kind, language):
    english, translated = told(kind, "en"), told(kind, language)

    assert translated and translated != english
    for place in (*TERRITORIES, *CONTINENTS):
        name = english_name(place)
        if name in english and name not in same_in(language):
            assert name not in translated, f"{name!r} left in English: {translated}"


def test_it_counts_armies_with_the_languages_plural_forms():
    with translation.override("cs"):
        few = narrator.describe({"seq": 1, "type": ev.OCCUPIED, "actor": 1,
                                "data": {"seat": 1, "from": "ukraine", "to": "siam",
                                         "armies": 3}})
        many = narrator.describe({"seq": 1, "type": ev.OCCUPIED, "actor": 1,
                                 "data": {"seat": 1, "from": "ukraine", "to": "siam",
                                          "armies": 7}})
    assert "3 armády" in few and "7 armád" in many
