"""Teams (docs/players/rules.md "Teams"): seat s plays in team s % teams; teammates never attack each
other, may fortify onto each other's territories and see each other's cards; a team wins
when every other team is out, and every member of it is a winner."""

from __future__ import annotations

import pytest

from engine import RuleViolation, validate_rules, view
from tests.engine.support import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    card,
    given,
    position,
    refused,
    when,
)

# Four players in two teams: Alice and Carol (team 0), Bob and Dave (team 1).
TEAMS = {"team_size": 2}


def two_on_two(phase="attack", owners=None, armies=None, **rules):
    return given(*position(players=4, owners=owners, armies=armies, phase=phase,
                           **{**TEAMS, **rules}))


@pytest.mark.parametrize("players, size, teams", [(4, 2, 2), (6, 3, 2), (6, 2, 3)])
def test_it_forms_teams_by_seat(players, size, teams):
    state = given(*position(players=players, team_size=size))
    assert {state.team_of(s) for s in range(players)} == set(range(teams))
    assert all(state.team_of(s) == s % teams for s in range(players))
    assert [p["team"] for p in view(state, ALICE)["players"]] == [s % teams for s in range(players)]


@pytest.mark.parametrize("players, size", [(3, 2), (5, 2), (2, 2), (4, 3), (3, 3)])
def test_it_refuses_a_table_that_does_not_split_into_two_teams_or_more(players, size):
    with pytest.raises(RuleViolation, match="team_size"):
        validate_rules({"team_size": size}, players)


@pytest.mark.parametrize("objective", ["missions", "capitals"])
def test_it_refuses_missions_and_capitals_with_teams(objective):
    with pytest.raises(RuleViolation, match="not played with teams"):
        validate_rules({"team_size": 2, "objective": objective}, 4)


def test_it_refuses_an_attack_on_a_teammate():
    state = two_on_two(owners={"alaska": ALICE, "alberta": CAROL}, armies={"alaska": 5})
    refusal = refused(state, ALICE, {"type": "attack", "from": "alaska", "to": "alberta"},
                      "bad_target")
    assert "teammate" in str(refusal)
    assert "alberta" not in view(state, ALICE)["you"]["may"]["attack"].get("alaska", [])


def test_it_fortifies_onto_a_teammate_s_territory_and_the_armies_are_theirs():
    state = two_on_two(owners={"alaska": ALICE, "alberta": CAROL}, armies={"alaska": 5})
    assert "alberta" in view(state, ALICE)["you"]["may"]["fortify"]["alaska"]

    outcome = when(state, ALICE, {"type": "fortify", "from": "alaska", "to": "alberta",
                                  "armies": 3})

    assert outcome.state.owner["alberta"] == CAROL
    assert outcome.state.armies["alberta"] == state.armies["alberta"] + 3


def test_a_connected_fortify_runs_through_a_teammate_s_territories():
    owners = {"alaska": ALICE, "alberta": CAROL, "ontario": ALICE}
    state = two_on_two(owners=owners, armies={"alaska": 5}, fortify="connected")
    when(state, ALICE, {"type": "fortify", "from": "alaska", "to": "ontario", "armies": 2})


def test_a_fortify_onto_an_opponent_is_refused():
    state = two_on_two(owners={"alaska": ALICE, "alberta": BOB}, armies={"alaska": 5})
    refused(state, ALICE, {"type": "fortify", "from": "alaska", "to": "alberta", "armies": 1},
            "not_owner")


def test_teammates_see_each_other_s_cards_and_no_one_else_does():
    state = two_on_two(hands={CAROL: [card("peru"), card("brazil")], BOB: [card("egypt")]})
    carol = next(p for p in view(state, ALICE)["players"] if p["seat"] == CAROL)
    assert [c["territory"] for c in carol["hand"]] == ["peru", "brazil"]
    assert all("hand" not in p for p in view(state, ALICE)["players"] if p["seat"] == BOB)
    assert all("hand" not in p for p in view(state, None)["players"])


def test_a_team_wins_when_every_other_team_is_out_and_each_member_is_a_winner():
    # Bob is already out; Dave holds one territory, which Alice takes.
    owners = {"alaska": ALICE, "kamchatka": DAVE, "peru": CAROL}
    state = two_on_two(owners=owners, rest=ALICE, armies={"alaska": 10, "kamchatka": 1},
                       earlier=[("player_dropped", {"seat": BOB, "reason": "resigned",
                                                    "cards_to": "deck"})])
    outcome = when(state, ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"},
                   dice=[6, 6, 6, 1])
    finished = outcome.of("game_finished")
    assert finished == [{"winner": ALICE, "reason": "domination", "team": 0,
                         "winners": [ALICE, CAROL]}]
    shown = view(outcome.state, None)
    assert shown["winners"] == [ALICE, CAROL] and shown["winning_team"] == 0


def test_the_game_goes_on_while_a_teammate_lives():
    owners = {"alaska": ALICE, "kamchatka": DAVE}
    state = two_on_two(owners=owners, armies={"alaska": 10, "kamchatka": 1})
    outcome = when(state, ALICE, {"type": "attack", "from": "alaska", "to": "kamchatka"},
                   dice=[6, 6, 6, 1])
    assert not outcome.of("game_finished")
    assert not outcome.state.finished


def test_the_legal_moves_never_list_a_teammate_as_a_target():
    state = two_on_two(owners={"alaska": ALICE, "alberta": CAROL, "kamchatka": BOB},
                       armies={"alaska": 6})
    targets = view(state, ALICE)["you"]["may"]["attack"]["alaska"]
    assert "alberta" not in targets and "kamchatka" in targets

