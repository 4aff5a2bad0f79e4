"""Placements from a log alone: winner first, then by when each seat left; a team shares."""

from __future__ import annotations

from ratings.placement import placements


def out(kind, seat):
    return (kind, {"seat": seat})


def test_it_places_the_winner_first_and_the_last_to_leave_next():
    events = [out("player_dropped", 2), out("player_eliminated", 0),
              ("game_finished", {"winner": 1, "reason": "domination"})]

    assert placements(events, 3) == {1: 1, 0: 2, 2: 3}


def test_seats_still_in_at_the_end_share_a_place():
    events = [out("player_eliminated", 3),
              ("game_finished", {"winner": 0, "reason": "round_limit"})]

    assert placements(events, 4) == {0: 1, 1: 2, 2: 2, 3: 4}


def test_a_seat_handed_to_a_bot_is_placed_when_its_player_left():
    events = [("seat_to_bot", {"seat": 0, "level": "normal"}), out("player_eliminated", 2),
              ("game_finished", {"winner": 0, "reason": "domination"})]

    assert placements(events, 3) == {1: 1, 2: 2, 0: 3}


def test_a_team_shares_its_placement_and_leaves_with_its_last_member():
    # Four seats in teams of two: team 0 is seats 0 and 2, team 1 seats 1 and 3.
    events = [out("player_eliminated", 1), out("player_dropped", 2),
              out("player_eliminated", 3),
              ("game_finished", {"winner": 0, "reason": "domination", "team": 0,
                                 "winners": [0, 2]})]

    assert placements(events, 4, team_size=2) == {0: 1, 2: 1, 1: 2, 3: 2}


def test_three_teams_are_placed_by_when_each_went_out():
    # Six seats in teams of two: team t is seats t and t + 3.
    events = [out("player_eliminated", 1), out("player_eliminated", 4),
              out("player_eliminated", 2), out("player_eliminated", 5),
              ("game_finished", {"winner": 0, "team": 0, "winners": [0, 3],
                                 "reason": "domination"})]

    assert placements(events, 6, team_size=2) == {0: 1, 3: 1, 2: 2, 5: 2, 1: 3, 4: 3}
