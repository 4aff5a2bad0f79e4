"""Racing joins: however many players join at once, a game never seats more than `players`,
starts once, and a start racing a join deals in exactly who is seated.

Real threads against the real database (SQLite serialises them by its write lock,
PostgreSQL by the lock on the game's row).
"""

from __future__ import annotations

import pytest

from games import errors
from games.models import Event, Game, Seat
from games.store.states import load_state
from lobby import open_games
from tests import people
from tests.games.support import at_once
from tests.games_in_states import open_game

pytestmark = pytest.mark.django_db(transaction=True)


def users(count: int, prefix: str = "racer") -> list:
    return people.users(*(f"{prefix}{i}" for i in range(count)), password="pw")


def test_it_never_seats_more_than_the_game_takes():
    creator, *others = users(18)
    game = open_game(creator, 6, "Race")
    for user in others[:3]:
        open_games.join_game(Game.objects.get(pk=game.pk), user)
    joiners = others[3:]  # 14 racing for the last 2 seats

    results = at_once([lambda u=u: open_games.join_game(Game.objects.get(pk=game.pk), u)
                       for u in joiners])

    seated = list(Seat.objects.filter(game=game).order_by("seat").values_list("seat", flat=True))
    assert seated == [0, 1, 2, 3, 4, 5]
    refusals = [r for r in results if isinstance(r, errors.ServiceError)]
    assert len(refusals) == 12, [type(r).__name__ + ": " + str(r) for r in results]
    assert {r.code for r in refusals} <= {"game_full", "game_not_open"}
    assert not [r for r in results if isinstance(r, Exception)
                and not isinstance(r, errors.ServiceError)]
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    assert Event.objects.filter(game=game, type="game_started").count() == 1
    assert load_state(game).seats == 6


def test_it_deals_in_exactly_who_is_seated_when_a_start_races_a_join():
    creator, second, third = users(3, "starter")
    game = open_game(creator, 4, "Race")
    open_games.join_game(Game.objects.get(pk=game.pk), second)

    at_once([
        lambda: open_games.start_game(Game.objects.get(pk=game.pk), creator),
        lambda: open_games.join_game(Game.objects.get(pk=game.pk), third),
    ])

    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    assert load_state(game).seats == Seat.objects.filter(game=game).count() == game.players


def test_a_join_racing_a_decline_leaves_one_answer():
    """The invitee joins and declines at once (two tabs): either they sit and their
    invitation is accepted, or they do not and it is declined, never seated and declined."""
    from games.models import Invitation
    from lobby import invitations
    creator, invitee = users(2, "invited")
    for _ in range(12):
        game = open_game(creator, 3, "Race", private=True)
        invitations.invite(game, creator, invitee.username)
        at_once([lambda g=game.pk: open_games.join_game(Game.objects.get(pk=g), invitee),
                 lambda g=game.pk: invitations.decline(Game.objects.get(pk=g), invitee)])
        seated = Seat.objects.filter(game=game, user=invitee).exists()
        status = Invitation.objects.get(game=game, user=invitee).status
        assert (seated, status) in ((True, Invitation.ACCEPTED), (False, Invitation.DECLINED))
