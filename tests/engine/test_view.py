"""Hidden information: what a seat, another seat and a spectator may see of the state and
of each event, before and after the game is finished."""

from __future__ import annotations

import json

import pytest

from engine import Event, redact_event, view
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    SPECTATOR,
    card,
    given,
    history,
    play,
    position,
    start,
    when,
)

ALICE_CARDS = [card("peru"), card("ural"), 43]
BOB_CARDS = [card("japan")]
MISSIONS = ["north_america_africa", "asia_africa", "europe_australia_plus_one"]
CAPITALS = {ALICE: "alaska", BOB: "kamchatka", CAROL: "brazil"}
OTHERS = {ALICE: [BOB, CAROL, SPECTATOR], BOB: [ALICE, CAROL, SPECTATOR],
          CAROL: [ALICE, BOB, SPECTATOR]}


def missions_game():
    return given(position(objective="missions", missions=MISSIONS,
                          hands={ALICE: ALICE_CARDS, BOB: BOB_CARDS}))


def capitals_game(**kwargs):
    return given(position(objective="capitals", capitals=CAPITALS,
                          owners={t: s for s, t in CAPITALS.items()}, **kwargs))


def cards_shown(tree) -> list[int]:
    """Every card the tree shows face up (as {id, territory, symbol})."""
    found = []
    if isinstance(tree, dict):
        if {"id", "territory", "symbol"} <= set(tree):
            found.append(tree["id"])
        for value in tree.values():
            found.extend(cards_shown(value))
    elif isinstance(tree, list):
        for value in tree:
            found.extend(cards_shown(value))
    return found


def text(tree) -> str:
    return json.dumps(tree, sort_keys=True)


# ---- the state ---------------------------------------------------------------------------
def test_it_shows_a_player_their_own_cards():
    you = view(missions_game(), ALICE)["you"]

    assert [c["id"] for c in you["cards"]] == ALICE_CARDS
    assert you["cards"][2] == {"id": 43, "territory": None, "symbol": "wild"}


@pytest.mark.parametrize("viewer", [BOB, CAROL, SPECTATOR])
def test_it_shows_others_only_how_many_cards_a_player_holds(viewer):
    seen = view(missions_game(), viewer)

    assert seen["players"][ALICE]["cards"] == 3
    assert "hand" not in seen["players"][ALICE]
    assert not set(cards_shown(seen)) & set(ALICE_CARDS)


def test_it_shows_a_player_their_own_mission_and_no_one_elses():
    for seat in (ALICE, BOB, CAROL):
        seen = view(missions_game(), seat)
        assert seen["you"]["mission"]["id"] == MISSIONS[seat]
        for other in (ALICE, BOB, CAROL):
            if other != seat:
                assert MISSIONS[other] not in text(seen)
        assert all("mission" not in entry for entry in seen["players"])


def test_it_shows_a_spectator_no_mission_at_all():
    seen = view(missions_game(), SPECTATOR)

    assert seen["you"] is None
    assert not any(mission in text(seen) for mission in MISSIONS)


def test_it_shows_a_player_their_own_capital_and_no_one_elses():
    state = capitals_game()

    for seat in (ALICE, BOB, CAROL):
        seen = view(state, seat)
        assert seen["you"]["capital"] == CAPITALS[seat]
        assert seen["capitals"] == {}
        assert all("capital" not in entry for entry in seen["players"])


def test_it_shows_a_spectator_no_capital():
    seen = view(capitals_game(), SPECTATOR)

    assert seen["capitals"] == {}
    assert seen["you"] is None


def test_it_shows_everyone_a_captured_capital():
    state = capitals_game(armies={"alaska": 8, "kamchatka": 1}, phase="attack", players=4,
                          rest=CAROL)
    state = play(state, (ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"}),
                 dice=[6, 6, 6, 1])

    for viewer in (CAROL, SPECTATOR):
        assert view(state, viewer)["capitals"] == {"kamchatka": BOB}


def simultaneous_with_alice_in():
    state = start(3, initial_placement="simultaneous").state
    territory = state.territories_of(ALICE)[0]
    outcome = when(state, ALICE, {"type": "place", "placements": {territory: 21}})
    return outcome, territory


def test_it_shows_a_player_their_own_undisclosed_placement():
    outcome, territory = simultaneous_with_alice_in()

    seen = view(outcome.state, ALICE)

    assert seen["you"]["hidden_placement"] == {territory: 21}
    assert seen["pending"]["reinforcements"] == 0


@pytest.mark.parametrize("viewer", [BOB, CAROL, SPECTATOR])
def test_it_hides_an_undisclosed_placement_from_everyone_else(viewer):
    outcome, territory = simultaneous_with_alice_in()

    seen = view(outcome.state, viewer)

    assert seen["territories"][territory] == {"owner": ALICE, "armies": 1}
    assert seen["players"][ALICE]["armies"] == 14
    assert "21" not in text(seen["territories"])
    if viewer is not None:
        assert seen["you"]["hidden_placement"] is None
        assert seen["pending"]["reinforcements"] == 21


def test_it_tells_a_spectator_nothing_is_owed_by_them():
    seen = view(missions_game(), SPECTATOR)

    assert seen["pending"] == {"reinforcements": 0, "must_trade": False, "occupy": None}


def test_it_shows_the_player_whose_turn_it_is_what_is_owed():
    state = given(position(hands={ALICE: [0, 1, 2, 3, 4]}))

    assert view(state, ALICE)["pending"]["must_trade"]
    assert view(state, ALICE)["pending"]["reinforcements"] == state.reinforcements
    assert not view(state, BOB)["pending"]["must_trade"]
    assert view(state, BOB)["pending"]["reinforcements"] == 0


def test_it_tells_only_the_conqueror_where_to_move_in():
    """An occupation owed is the conqueror's business: the others learn of the conquest
    from the board and the log, not from their own `pending`."""
    state = given(position(owners={"siam": BOB, "indonesia": ALICE},
                           armies={"indonesia": 8, "siam": 1}, phase="attack"))
    after = when(state, ALICE, {"type": "attack", "from": "indonesia", "to": "siam"},
                 dice=[6, 5, 4, 1]).state
    assert after.phase == "occupy"

    assert view(after, ALICE)["pending"]["occupy"] == {
        "from": "indonesia", "to": "siam", "min": 3, "max": 7}
    for viewer in OTHERS[ALICE]:
        assert view(after, viewer)["pending"] == {
            "reinforcements": 0, "must_trade": False, "occupy": None}, viewer


def test_it_reveals_every_hand_mission_and_capital_once_the_game_is_finished():
    events = position(objective="missions", missions=MISSIONS,
                      hands={ALICE: ALICE_CARDS, BOB: BOB_CARDS})
    state = given(events, ("game_finished", {"winner": ALICE, "reason": "mission"}))

    seen = view(state, SPECTATOR)

    assert [entry["mission"]["id"] for entry in seen["players"]] == MISSIONS
    assert [[c["id"] for c in entry["hand"]] for entry in seen["players"]] == [
        ALICE_CARDS, BOB_CARDS, []]

    capitals = given(position(objective="capitals", capitals=CAPITALS,
                              owners={t: s for s, t in CAPITALS.items()}),
                     ("game_finished", {"winner": ALICE, "reason": "capitals"}))
    seen = view(capitals, BOB)
    assert [entry["capital"] for entry in seen["players"]] == list(CAPITALS.values())
    assert seen["capitals"] == {t: s for s, t in CAPITALS.items()}


# ---- events ------------------------------------------------------------------------------
def event(kind, data, actor=None) -> Event:
    return Event(7, kind, data, actor)


@pytest.mark.parametrize("viewer", [ALICE, BOB, SPECTATOR])
def test_it_hides_the_order_of_every_shuffled_deck(viewer):
    shuffled = event("deck_shuffled", {"cards": list(range(44))})

    assert redact_event(shuffled, viewer, finished=False)["data"] == {"count": 44}


def test_it_shows_each_seat_its_own_mission_only():
    dealt = event("missions_dealt", {"missions": MISSIONS})

    assert redact_event(dealt, BOB, False)["data"] == {
        "missions": [None, "asia_africa", None]}
    assert redact_event(dealt, SPECTATOR, False)["data"] == {"missions": [None, None, None]}


def test_it_hides_a_drawn_card_from_everyone_but_the_drawer():
    drawn = event("card_drawn", {"seat": ALICE, "card": 12})

    assert redact_event(drawn, ALICE, False)["data"] == {"seat": ALICE, "card": 12}
    for viewer in OTHERS[ALICE]:
        assert redact_event(drawn, viewer, False)["data"] == {"seat": ALICE}


def test_it_hides_a_chosen_capital_from_everyone_but_its_owner():
    chosen = event("capital_chosen", {"seat": BOB, "territory": "kamchatka"}, BOB)

    assert redact_event(chosen, BOB, False)["data"]["territory"] == "kamchatka"
    for viewer in OTHERS[BOB]:
        assert redact_event(chosen, viewer, False)["data"] == {"seat": BOB}


def test_it_hides_a_random_capital_too():
    chosen = event("capital_chosen", {"seat": BOB, "territory": "kamchatka", "random": True})

    assert "kamchatka" not in text(redact_event(chosen, CAROL, False))


def test_it_hides_a_submitted_placement_from_everyone_but_its_owner():
    outcome, territory = simultaneous_with_alice_in()
    submitted = outcome.events[0]

    assert redact_event(submitted, ALICE, False)["data"]["placements"] == {territory: 21}
    for viewer in OTHERS[ALICE]:
        assert redact_event(submitted, viewer, False)["data"] == {"seat": ALICE}


def test_it_shows_the_cards_of_an_elimination_only_to_the_two_players():
    eliminated = event("player_eliminated", {"seat": BOB, "by": ALICE, "cards": [4, 5]})

    for viewer in (ALICE, BOB):
        assert redact_event(eliminated, viewer, False)["data"]["cards"] == [4, 5]
    for viewer in (CAROL, SPECTATOR):
        assert redact_event(eliminated, viewer, False)["data"] == {
            "seat": BOB, "by": ALICE, "cards": 2}


def test_it_shows_the_cards_of_a_captured_capital_only_to_the_two_players():
    captured = event("capital_captured", {"seat": ALICE, "owner": BOB, "territory": "kamchatka",
                                          "cards": [4, 5, 6], "collapsed": []})

    for viewer in (ALICE, BOB):
        assert redact_event(captured, viewer, False)["data"]["cards"] == [4, 5, 6]
    for viewer in (CAROL, SPECTATOR):
        data = redact_event(captured, viewer, False)["data"]
        assert data["cards"] == 3 and data["territory"] == "kamchatka"


@pytest.mark.parametrize("kind, data", [
    ("cards_traded", {"seat": ALICE, "cards": [0, 1, 2], "value": 4, "bonus": {}}),
    ("battle", {"seat": ALICE, "from": "alaska", "to": "kamchatka", "attacker_dice": [6],
                "defender_dice": [1], "attacker_losses": 0, "defender_losses": 1,
                "conquered": False}),
    ("armies_placed", {"seat": ALICE, "placements": {"alaska": 3}}),
    ("territories_dealt", {"owners": {"alaska": ALICE}}),
])
def test_it_shows_public_events_to_everyone(kind, data):
    for viewer in (ALICE, BOB, SPECTATOR):
        assert redact_event(event(kind, data), viewer, False)["data"] == data


@pytest.mark.parametrize("kind, data", [
    ("deck_shuffled", {"cards": [3, 1, 2]}),
    ("missions_dealt", {"missions": MISSIONS}),
    ("card_drawn", {"seat": ALICE, "card": 12}),
    ("capital_chosen", {"seat": ALICE, "territory": "alaska"}),
    ("placement_submitted", {"seat": ALICE, "placements": {"alaska": 21}}),
    ("player_eliminated", {"seat": BOB, "by": ALICE, "cards": [4, 5]}),
])
def test_it_shows_every_event_whole_once_the_game_is_finished(kind, data):
    for viewer in (BOB, CAROL, SPECTATOR):
        assert redact_event(event(kind, data), viewer, True)["data"] == data


def test_it_never_leaks_a_secret_in_any_event_of_a_played_game():
    """Every event of a short game, redacted for another seat and a spectator."""
    events = history(position(objective="missions", missions=MISSIONS,
                              hands={ALICE: ALICE_CARDS, BOB: BOB_CARDS}, phase="attack",
                              owners={"alaska": ALICE, "kamchatka": BOB},
                              armies={"alaska": 8, "kamchatka": 1}))
    state = given(*events)
    outcome = when(state, ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"},
                   dice=[6, 6, 6, 1])
    more = when(outcome.state, ALICE, {"type": "occupy", "armies": 3})
    end = when(more.state, ALICE, {"type": "end_turn"})
    drawn = end.of("card_drawn")[0]["card"]
    stream = events + outcome.events + more.events + end.events

    for viewer in (BOB, CAROL, SPECTATOR):
        redacted = [redact_event(e, viewer, False) for e in stream]
        hidden = [mission for seat, mission in enumerate(MISSIONS) if seat != viewer]
        assert not any(mission in text(redacted) for mission in hidden)
        for e in redacted:
            if e["type"] == "card_drawn" and e["data"]["seat"] != viewer:
                assert "card" not in e["data"]
            assert e["type"] != "deck_shuffled" or "cards" not in e["data"]
    alice_sees = [redact_event(e, ALICE, False) for e in end.events]
    assert {"seat": ALICE, "card": drawn} in [e["data"] for e in alice_sees]
