"""Every path that makes a game commits its server seed before it takes any player's entropy
(issue 41, item 3): the lobby, a rematch, a tournament's tables, a challenge, an invitation,
a speed game and a game against the computer. Each is walked through as a careful player
does it (the creator, or the player offering a rematch, reads the seed drawn ahead for
them before sending entropy), and the record says the order: when the seed the game plays
by was committed (the game's seed_committed_at, else its creation), and when each
contribution the game started with was taken (a seat's when it was taken, a rematch's with
its player's yes)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from engine import seed_hash
from games.models import Game, Rematch, Seat
from lobby import challenges
from tests import people
from tests.games.api_support import game_url
from tests.people import api_client_for
from tests.tournaments.support import close_signup, create, tables


def _seen(client, path: str) -> str:
    """The seed hash a player reads before sending their entropy."""
    answer = client.get(path)
    assert answer.status_code == 200, answer.content
    return answer.json()["seed_hash"]


def _join(client, game_id: int, entropy: str) -> str:
    seen = _seen(client, game_url(game_id))
    answer = client.post(game_url(game_id, "join/"), {"entropy": entropy}, format="json")
    assert answer.status_code == 200, answer.content
    return seen


def _ahead(client) -> str:
    """The hash of the seed drawn ahead for the caller's next game or rematch offer."""
    return _seen(client, "/api/v1/account/next-seed/")


def _created(client, entropy: str, **fields) -> tuple[int, str]:
    seen = _ahead(client)
    answer = client.post("/api/v1/games/", {"name": "Dice", "players": 2, "entropy": entropy,
                                            **fields}, format="json")
    assert answer.status_code == 201, answer.content
    assert answer.json()["seed_hash"] == seen
    return answer.json()["id"], seen


def lobby(alice, bob, charlie):
    game_id, seen = _created(alice, "alice's")
    return game_id, [seen, _join(bob, game_id, "bob's")]


def speed_game(alice, bob, charlie):
    game_id, seen = _created(alice, "alice's", speed=True)
    return game_id, [seen, _join(bob, game_id, "bob's")]


def against_the_computer(alice, bob, charlie):
    game_id, seen = _created(alice, "alice's", bots=["easy"])
    return game_id, [seen]


def invitation(alice, bob, charlie):
    game_id, seen = _created(alice, "alice's", private=True)
    invited = alice.post(game_url(game_id, "invite/"), {"username": "bob"}, format="json")
    assert invited.status_code in (200, 201), invited.content
    return game_id, [seen, _join(bob, game_id, "bob's")]


def challenge(alice, bob, charlie):
    seen = _ahead(alice)
    challenger = get_user_model().objects.get(username="alice")
    game = challenges.challenge(challenger, "bob", 2)
    return game.pk, [seen, _join(bob, game.pk, "bob's")]


def rematch(alice, bob, charlie):
    game_id = lobby(alice, bob, charlie)[0]
    resigned = alice.post(game_url(game_id, "commands/"), {"type": "resign"}, format="json")
    assert resigned.status_code == 201, resigned.content
    ahead = _ahead(alice)
    offered = alice.post(game_url(game_id, "rematch/"), {"entropy": "alice again"},
                         format="json")
    assert offered.status_code == 201, offered.content
    seen = [ahead, offered.json()["seed_hash"], _seen(bob, game_url(game_id, "rematch/"))]
    accepted = bob.post(game_url(game_id, "rematch/"), {"entropy": "bob again"},
                        format="json")
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["seed_hash"] == seen[0]
    return accepted.json()["game"], seen


def tournament(alice, bob, charlie):
    entrants = people.players(2)  # people of their own: the tournament's helpers make them
    made = create(entrants[0], seats=2, advance=1)
    for user in entrants:
        assert api_client_for(user).post(f"/api/v1/tournaments/{made['id']}/join/").status_code \
            in (200, 201)
    kept = [_ahead(api_client_for(user)) for user in entrants]
    close_signup(made["id"])
    # A table is made for its players, not by them: the seeds drawn ahead stay theirs.
    assert [_ahead(api_client_for(user)) for user in entrants] == kept
    return tables(made["id"], 1)[0].game_id, []


def commitment(game: Game):
    """(seed hash, when it was committed) of the seed `game` plays by, from the record."""
    return game.seed_hash, game.seed_committed_at or game.created_at


def contributions_taken(game: Game) -> dict[str, object]:
    """Each contribution `game` started with, and when the server took it."""
    offer = Rematch.objects.filter(new_game=game).first()
    if offer is not None:
        return dict(offer.answers.filter(entropy__isnull=False)
                    .values_list("entropy", "accepted_at"))
    return dict(Seat.objects.filter(game=game, entropy__isnull=False)
                .values_list("entropy", "joined_at"))


PATHS = [lobby, rematch, tournament, challenge, invitation, speed_game, against_the_computer]


@pytest.mark.parametrize("path", PATHS, ids=[p.__name__ for p in PATHS])
def test_the_seed_is_committed_before_any_entropy_is_taken(path, person):
    clients = [person(name) for name in ("alice", "bob", "charlie")] \
        if path is not tournament else [None, None, None]
    game_id, seen = path(*clients)

    game = Game.objects.get(pk=game_id)
    assert game.status == Game.ACTIVE
    committed_hash, committed_at = commitment(game)
    assert committed_hash == game.seed_hash == seed_hash(game.seed)
    offer = Rematch.objects.filter(new_game=game).first()
    assert offer is None or offer.seed_hash == game.seed_hash
    # Whoever sent entropy after reading the hash read the one the game plays by.
    assert all(hash_seen == game.seed_hash for hash_seen in seen)
    taken = contributions_taken(game)
    assert sorted(taken) == sorted(game.contributions or [])
    for text, when in taken.items():
        assert committed_at < when, f"{text!r} was taken before the seed was committed"
    if path not in (tournament, challenge):
        assert taken, "every path but the ones that take no entropy was sent some"
    if path is not tournament:  # the creator's (or offerer's) was drawn ahead, then taken
        assert game.seed_committed_at is not None
