"""Tournaments for the tests: made over the API, sign-up closed by the worker's sweep, and
games ended by test helpers (people: tests/people.py)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games import service
from games.models import Game
from games.store.states import load_state
from tests.people import api_client_for
from tournaments.models import Table, Tournament

API = "/api/v1/tournaments/"


def create(creator, **fields) -> dict:
    body = {"name": "Spring cup", "format": "knockout", "seats": 4, "advance": 2,
            "max_players": 8, "rules": {"placement_batch": 100},
            "signup_closes": (timezone.now() + timedelta(hours=1)).isoformat(), **fields}
    answer = api_client_for(creator).post(API, body, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


def close_signup(tournament_id: int) -> None:
    """Sign-up's time is up: the beat sweep finds it."""
    from tournaments.tasks import sweep_tournaments

    Tournament.objects.filter(pk=tournament_id).update(
        signup_closes=timezone.now() - timedelta(seconds=1))
    sweep_tournaments()


def tables(tournament_id: int, round_number: int) -> list[Table]:
    return list(Table.objects.filter(tournament_id=tournament_id, round=round_number)
                .select_related("game"))


def finish_in_seat_order(game: Game) -> None:
    """The last seat resigns first, and so on: seat 0 wins, seat 1 is second, ..."""
    seated = {s.seat: s.user for s in game.seats.all()}
    for seat in sorted(seated, reverse=True)[:-1]:
        game.refresh_from_db()
        if seat in load_state(game).living():
            service.submit(service.player(seated[seat]), game, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED


def form(**fields) -> dict:
    """The page's creation form as a browser posts it: a knockout under the preset Classic,
    unless `fields` say otherwise."""
    return {"name": "Autumn cup", "format": "knockout", "seats": "4", "advance": "1",
            "rounds": "3", "max_players": "8", "deadline_seconds": "86400",
            "signup_closes": (timezone.now() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M"),
            **fields}
