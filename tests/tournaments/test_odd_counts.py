"""Any number of entrants draws legal tables: knockouts of 3, 5 and 7 players and a round
robin with an odd count are played to a winner through the worker's tasks; 0 or 1 entrant
ends the tournament with mail."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from engine import FairDice
from notifications.models import Notification
from tests import people
from tests.people import api_client_for
from tests.play import play_until
from tests.tournaments.support import API, close_signup, create, finish_in_seat_order, tables
from tournaments.draw import table_plan
from tournaments.models import Entry, Tournament
from tournaments.tasks import advance_for_game, sweep_tournaments

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seats", range(2, 7))
@pytest.mark.parametrize("players", range(2, 41))
def test_every_count_is_cut_into_legal_tables(players, seats):
    sizes, byes = table_plan(players, seats)

    assert all(2 <= size <= seats for size in sizes)
    assert sum(sizes) + byes == players
    # A bye only where no cut exists (two seats, an odd count), and then only one.
    assert byes == (1 if seats == 2 and players % 2 else 0)
    assert len(sizes) == -(-(players - byes) // seats)  # as few tables as hold them
    assert max(sizes) - min(sizes) <= 1


def test_counts_that_were_fine_are_cut_as_before():
    # The cut of every tournament drawn before byes existed stays the same.
    assert table_plan(8, 4) == ([4, 4], 0)
    assert table_plan(5, 4) == ([3, 2], 0)
    assert table_plan(7, 3) == ([3, 2, 2], 0)
    assert table_plan(6, 2) == ([2, 2, 2], 0)


def signed_up(count: int, **fields) -> tuple[int, list]:
    players = people.players(count)
    made = create(players[0], **fields)
    for player in players:
        assert api_client_for(player).post(f"{API}{made['id']}/join/").status_code == 200
    return made["id"], players


def play_round(tournament_id: int, round_number: int, bots: bool = False) -> None:
    """Every game of the round ends (seat 0 wins), the worker told of each as it ends."""
    for table in tables(tournament_id, round_number):
        if bots:
            seated = [s.user for s in table.game.seats.order_by("seat")]
            play_until(table.game, seated, lambda state: state.turn >= 3)
        finish_in_seat_order(table.game)
        advance_for_game(table.game_id)


def play_knockout(tournament_id: int) -> list[list[int]]:
    """Rounds until the tournament is over; the table sizes of each round."""
    sizes, round_number = [], 1
    while Tournament.objects.get(pk=tournament_id).status == Tournament.RUNNING:
        assert round_number < 10, "the knockout never ends"
        drawn = tables(tournament_id, round_number)
        assert drawn, f"round {round_number} has no game"
        sizes.append(sorted((t.game.seats.count() for t in drawn), reverse=True))
        play_round(tournament_id, round_number, bots=round_number == 1)
        round_number += 1
    return sizes


@pytest.mark.parametrize("count, seats, advance, rounds", [
    (3, 2, 1, [[2], [2]]),
    (5, 2, 1, [[2, 2], [2], [2]]),
    (7, 2, 1, [[2, 2, 2], [2, 2], [2]]),
    (5, 4, 2, [[3, 2], [3]]),
    (7, 3, 2, [[3, 2, 2], [2, 2], [2]]),
])
def test_an_odd_knockout_is_played_to_a_winner(count, seats, advance, rounds):
    tournament_id, players = signed_up(count, seats=seats, advance=advance)

    close_signup(tournament_id)

    assert Tournament.objects.get(pk=tournament_id).status == "running"
    assert play_knockout(tournament_id) == rounds
    body = APIClient().get(f"{API}{tournament_id}/").json()
    assert body["status"] == "finished" and body["winner"]
    assert body["standings"][0]["username"] == body["winner"]
    assert [row["out_in_round"] for row in body["standings"]].count(None) == 1
    everyone = Notification.objects.filter(kind="tournament", payload__what="finished")
    assert everyone.count() == count
    # Nobody sat out twice while another never did.
    byes = [len(e.byes) for e in Entry.objects.filter(tournament_id=tournament_id)]
    assert max(byes) <= 1


def test_the_bye_goes_to_the_last_drawn_and_the_pairs_are_cut_as_before():
    tournament_id, players = signed_up(5, seats=2, advance=1)

    close_signup(tournament_id)

    tournament = Tournament.objects.get(pk=tournament_id)
    order = sorted(p.pk for p in players)
    FairDice(tournament.seed, f"tournament-{tournament_id}").at(1).shuffle(order)
    assert [[s.user_id for s in t.game.seats.order_by("seat")]
            for t in tables(tournament_id, 1)] == [order[0:2], order[2:4]]
    assert Entry.objects.get(tournament=tournament, user_id=order[4]).byes == [1]
    page = APIClient().get(f"{API}{tournament_id}/").json()
    bye_name = next(p.username for p in players if p.pk == order[4])
    assert page["bracket"][0]["byes"] == [bye_name]
    # The bye player goes through to round 2 without a game.
    play_round(tournament_id, 1)
    second = {s.user_id for t in tables(tournament_id, 2) for s in t.game.seats.all()}
    assert order[4] in second
    # In round 2 (three players) the bye goes to someone who has not had one.
    assert Entry.objects.get(tournament=tournament, user_id=order[4]).byes == [1]
    assert [2 in e.byes for e in Entry.objects.filter(tournament=tournament)].count(True) == 1


def test_a_round_robin_with_an_odd_count_seats_everyone_in_turn():
    tournament_id, players = signed_up(5, format="round_robin", seats=2, rounds=3)

    close_signup(tournament_id)

    groups = sorted(Entry.objects.filter(tournament_id=tournament_id)
                    .values_list("group", flat=True))
    assert groups == [0, 0, 1, 1, 1]  # two and three: the three take turns sitting out
    for round_number in (1, 2, 3):
        drawn = tables(tournament_id, round_number)
        assert [t.game.seats.count() for t in drawn] == [2, 2]
        for table in drawn:
            finish_in_seat_order(table.game)
        sweep_tournaments()  # the beat finds the round over

    body = APIClient().get(f"{API}{tournament_id}/").json()
    assert body["status"] == "finished" and body["winner"] == body["standings"][0]["username"]
    trio = Entry.objects.filter(tournament_id=tournament_id, group=1)
    assert sorted(r for e in trio for r in e.byes) == [1, 2, 3]  # each sat out once
    # Each pair of the three met once; a bye counts as a win (one point): 3 games, 3 byes.
    assert sum(e.points for e in trio) == 3 + 3
    pair = Entry.objects.filter(tournament_id=tournament_id, group=0)
    assert sum(e.points for e in pair) == 3


@pytest.mark.parametrize("count", [0, 1])
def test_a_tournament_of_fewer_than_two_ends_with_mail(count):
    alice, = people.players(1)
    made = create(alice)
    if count:
        api_client_for(alice).post(f"{API}{made['id']}/join/")

    close_signup(made["id"])
    sweep_tournaments()  # and nothing more happens

    tournament = Tournament.objects.get(pk=made["id"])
    assert tournament.status == "cancelled" and tournament.finished_at is not None
    mails = Notification.objects.filter(kind="tournament", payload__what="cancelled")
    assert [m.user for m in mails] == ([alice] if count else [])
    page = APIClient().get(f"/tournaments/{made['id']}/").content.decode()
    assert "fewer than two players signed up" in page
