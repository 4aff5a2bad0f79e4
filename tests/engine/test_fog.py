"""Fog of war (docs/players/rules.md "Fog of war"): a seat sees its own territories, their neighbours
and its teammates'; events keep seq and type with what the seat could see; the end lifts it."""

from __future__ import annotations

import pytest

from engine import Event, RuleViolation, validate_rules, view
from engine.board import TERRITORIES
from engine.events import EVENT_TYPES, FIELDS
from engine.view import redact_events
from tests.engine import fog_referee
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    ERIN,
    SPECTATOR,
    card,
    given,
    position,
    when,
)

FOG = {"fog": True}
# Alice holds Australia; Bob holds Siam and the rest of Asia; Carol the rest of the world.
AUSTRALIA = ("indonesia", "new_guinea", "eastern_australia", "western_australia")
OWNERS = {**{t: ALICE for t in AUSTRALIA}, "siam": BOB, "india": BOB, "china": BOB}


def fogged_game(phase="attack", **extra):
    events = position(owners=OWNERS, rest=CAROL, armies={"indonesia": 8, "siam": 3},
                      phase=phase, **{**FOG, **extra})
    return given(*events), events


def test_a_seat_sees_its_territories_and_their_neighbours_only():
    state, _ = fogged_game()
    shown = view(state, ALICE)["territories"]
    assert shown["siam"] == {"owner": BOB, "armies": 3}
    assert shown["indonesia"] == {"owner": ALICE, "armies": 8}
    assert shown["india"] == {"owner": None, "armies": None, "fog": True}
    assert shown["alaska"] == {"owner": None, "armies": None, "fog": True}
    assert sum(1 for t in shown.values() if not t.get("fog")) == 5


def test_other_players_totals_are_fogged_but_card_counts_stay():
    state, _ = fogged_game(hands={BOB: [card("peru")]})
    bob = view(state, ALICE)["players"][BOB]
    assert bob["territories"] is None and bob["armies"] is None and bob["cards"] == 1
    assert view(state, ALICE)["players"][ALICE]["territories"] == 4


def test_a_spectator_sees_a_fully_fogged_board_until_the_end():
    state, _ = fogged_game()
    assert all(t == {"owner": None, "armies": None, "fog": True}
               for t in view(state, None)["territories"].values())
    state.finished = True
    assert all("fog" not in t for t in view(state, None)["territories"].values())


def test_a_teammate_s_territories_are_in_sight():
    events = position(players=4, owners={"alaska": ALICE, "argentina": CAROL, "brazil": BOB},
                      rest=DAVE, phase="attack", fog=True, team_size=2)
    shown = view(given(*events), ALICE)["territories"]
    assert shown["argentina"]["owner"] == CAROL
    assert shown["brazil"].get("fog")  # next to the teammate only: out of sight


def test_a_battle_next_to_a_seat_is_seen_with_its_dice_and_one_far_away_is_not():
    state, _ = fogged_game()
    outcome = when(state, ALICE, {"type": "attack", "from": "indonesia", "to": "siam"},
                   dice=[6, 5, 4, 1, 1])
    seen = redact_events(outcome.events, CAROL, False, state.rules, 3, state)
    assert all(e["data"] == {} for e in seen)  # Carol holds nothing near Siam
    bob_sees = redact_events(outcome.events, BOB, False, state.rules, 3, state)
    assert bob_sees[0]["data"]["attacker_dice"] == [6, 5, 4]
    assert bob_sees[0]["data"]["to"] == "siam"
    assert [e["seq"] for e in seen] == [e.seq for e in outcome.events]
    assert [e["type"] for e in seen] == [e.type for e in outcome.events]


def test_only_the_conqueror_is_told_of_the_occupation_it_owes():
    events = position(owners=OWNERS, rest=CAROL, armies={"indonesia": 8, "siam": 1},
                      phase="attack", **FOG)
    after = when(given(*events), ALICE, {"type": "attack", "from": "indonesia", "to": "siam"},
                 dice=[6, 5, 4, 1]).state
    assert after.phase == "occupy"
    assert view(after, ALICE)["pending"]["occupy"] == {
        "from": "indonesia", "to": "siam", "min": 3, "max": 7}
    # Carol and the spectator see neither end; Bob, who lost Siam, owes nothing either.
    for seat in (BOB, CAROL, SPECTATOR):
        assert view(after, seat)["pending"] == {
            "reinforcements": 0, "must_trade": False, "occupy": None}, seat


# Alice attacks Ural from Ukraine. Carol (Scandinavia) sees Ukraine, not Ural; Erin
# (Siberia) sees Ural, not Ukraine; Dave holds the rest and sees both; Bob is attacked (and
# keeps Alaska, far away).
EDGE = {"ukraine": ALICE, "ural": BOB, "alaska": BOB, "scandinavia": CAROL, "siberia": ERIN}


def battle_at_the_edge_of_sight():
    state = given(position(players=5, owners=EDGE, rest=DAVE, phase="attack",
                           armies={"ukraine": 8, "ural": 2}, **FOG))
    attack = when(state, ALICE, {"type": "attack", "from": "ukraine", "to": "ural"},
                  dice=[6, 5, 4, 3, 2])
    occupy = when(attack.state, ALICE, {"type": "occupy", "armies": 4})
    return state, attack, occupy


FULL_BATTLE = {"seat": ALICE, "from": "ukraine", "to": "ural", "defender": BOB,
               "attacker_dice": [6, 5, 4], "defender_dice": [3, 2], "attacker_losses": 0,
               "defender_losses": 2, "conquered": True}


@pytest.mark.parametrize(("seat", "battle", "occupied"), [
    # Bob saw the battle against him; once Ural is lost, neither end is in his sight.
    (BOB, FULL_BATTLE, {}),
    (DAVE, FULL_BATTLE, {"from": "ukraine", "to": "ural", "armies": 4}),
    # The battle is fought out of Carol's sight: she sees Ukraine's armies and what it
    # lost, nothing of Ural's strength or fate; then armies leaving Ukraine.
    (CAROL, {"seat": ALICE, "from": "ukraine", "attacker_losses": 0},
     {"from": "ukraine", "armies": 4}),
    # Next to Erin: the territory, the dice and the losses, not where the attack came from.
    (ERIN, {key: value for key, value in FULL_BATTLE.items() if key != "from"},
     {"to": "ural", "armies": 4}),
    (SPECTATOR, {}, {}),
])
def test_a_battle_tells_each_seat_what_its_side_of_the_table_shows(seat, battle, occupied):
    state, attack, occupy = battle_at_the_edge_of_sight()
    assert attack.events[0].data == FULL_BATTLE
    shown = redact_events(attack.events + occupy.events, seat, False, state.rules, 5, state)
    assert [e["type"] for e in shown] == ["battle", "occupied"]
    assert shown[0]["data"] == battle
    assert shown[1]["data"] == occupied


def test_other_players_reinforcements_and_trades_are_fogged():
    state, _ = fogged_game(phase="fortify")
    outcome = when(state, ALICE, {"type": "end_turn"})
    started = redact_events(outcome.events, CAROL, False, state.rules, 3, state)[-1]
    assert started["type"] == "turn_started"
    assert started["data"] == {"seat": BOB, "turn": outcome.of("turn_started")[0]["turn"]}
    own = redact_events(outcome.events, BOB, False, state.rules, 3, state)[-1]
    assert "total" in own["data"]


def test_fog_is_refused_with_claimed_setup():
    with pytest.raises(RuleViolation, match="fog"):
        validate_rules({"fog": True, "setup": "claim"}, 3)


def test_the_end_lifts_the_fog_in_the_event_stream():
    state, _ = fogged_game()
    state.finished = True
    shown = view(state, CAROL)["territories"]
    assert len([t for t in shown.values() if "fog" in t]) == 0
    assert len(shown) == len(TERRITORIES)


def test_the_referee_has_a_rule_for_every_field_of_every_declared_event():
    """A field the engine declares is refereed only once someone decided who may see it."""
    assert set(FIELDS) == set(EVENT_TYPES)
    assert {kind: set(rules) for kind, rules in fog_referee.EVENT_RULES.items()} == {
        kind: set(fields) for kind, fields in FIELDS.items()}


def test_the_referee_fails_on_a_field_it_has_no_rule_for():
    state, attack, _ = battle_at_the_edge_of_sight()
    reader = fog_referee.Reader(DAVE, frozenset([DAVE]), frozenset(TERRITORIES))
    battle = attack.events[0]
    shown = redact_events([battle], DAVE, False, state.rules, 5, state)[0]
    fog_referee.check_event(shown, battle, reader)
    grown = Event(battle.seq, battle.type, {**battle.data, "attacker_armies": 8}, battle.actor)
    with pytest.raises(AssertionError, match="no rule for battle"):
        fog_referee.check_event(shown, grown, reader)
    seen = view(attack.state, DAVE)
    sights = fog_referee.Sights(5, 1)
    fog_referee.check_view(seen, attack.state, sights.reader(DAVE, attack.state.owner))
    for where in (seen, seen["players"][BOB], seen["you"]):
        where["secret"] = 1
        with pytest.raises(AssertionError, match="no rule"):
            fog_referee.check_view(seen, attack.state, sights.reader(DAVE, attack.state.owner))
        del where["secret"]
    seen["pending"]["occupy"] = {"from": "ukraine", "to": "ural", "min": 3, "max": 7}
    with pytest.raises(AssertionError):
        fog_referee.check_view(seen, attack.state, sights.reader(DAVE, attack.state.owner))
