"""The engine's one answer to "what may this seat do now" (engine.moves.legal) agrees
with decide() in random games of every option mix: every listed attack and fortification
is accepted, every unlisted one refused, and the command a player makes is listed."""

from __future__ import annotations

import random

import pytest

from engine import (
    FairDice,
    RuleViolation,
    StartGame,
    TimeOut,
    decide,
    evolve,
    parse_command,
    replay,
    validate_rules,
)
from engine.board import NEIGHBOURS, TERRITORIES
from engine.moves import clock_key, decision, legal, seats_to_act
from tests.engine.players import bot_command
from tests.engine.test_properties import random_rules


def accepted(state, seat, payload, dice) -> bool:
    try:
        decide(state, parse_command(payload, seat), dice)
    except RuleViolation:
        return False
    return True


def check(state, dice) -> None:
    for seat in range(state.seats):
        may = legal(state, seat)
        if state.finished or state.players[seat].out:
            assert may["commands"] == []
            continue
        if seat not in seats_to_act(state):
            assert set(may["commands"]) <= {"set_defense", "resign"}
            continue
        own = [t for t in TERRITORIES if state.owner[t] == seat]
        for source in own:
            for target in NEIGHBOURS[source]:
                attack = {"type": "attack", "from": source, "to": target, "dice": 1}
                listed = target in may["attack"].get(source, [])
                if state.phase == "attack":
                    assert accepted(state, seat, attack, dice) == listed, (source, target)
        for source, targets in may["fortify"].items():
            for target in targets:
                move = {"type": "fortify", "from": source, "to": target, "armies": 1}
                if state.rules.fortify == "spread":
                    move = {"type": "fortify", "from": source,
                            "moves": [{"to": target, "armies": 1}]}
                assert accepted(state, seat, move, dice), (source, target)


@pytest.mark.parametrize("game_number", range(40))
def test_the_engine_lists_exactly_what_it_accepts(game_number):
    rnd = random.Random(10_000 + game_number)
    players, raw = random_rules(rnd)
    dice = FairDice(f"{game_number:064x}", f"moves-{game_number}")
    state = replay(decide(None, StartGame("g", players, validate_rules(raw, players)), dice))
    for step in range(400):
        if state.finished:
            break
        if step % 7 == 0:
            check(state, dice)
        owing = seats_to_act(state)
        if not owing:
            command = TimeOut()
        else:
            seat = rnd.choice(owing)
            payload = bot_command(state, seat, rnd)
            if payload["type"] not in legal(state, seat)["commands"]:
                # the property bot's deliberate tries (an attack on a teammate) are refused
                assert not accepted(state, seat, payload, dice), (state.phase, payload)
                continue
            command = parse_command(payload, seat)
        try:
            events = decide(state, command, dice)
        except RuleViolation:
            continue
        for event in events:
            state = evolve(state, event)
    check(state, dice)


def test_a_paused_game_owes_a_decision_but_runs_no_clock():
    dice = FairDice("0" * 64, "g")
    state = replay(decide(None, StartGame("g", 3, validate_rules({"setup": "random"}, 3)),
                          dice))
    assert decision(state) == clock_key(state) is not None
    state.paused = True
    assert decision(state) is not None and clock_key(state) is None
    assert set(legal(state, state.current)["commands"]) == {"set_defense", "resign"}
