"""A moderator voids a game's rating: with a reason, recorded, in the moderation audit, and
the ratings become what they would be had the game never counted (the rebuild agrees)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from moderation.audit import history
from moderation.permissions import make_moderator
from ratings import recording
from ratings.models import ALL_SIZES, GameResult, PlayerResult, Rating, RatingVoid
from ratings.tasks import record_results
from tests import people
from tests.games.api_support import assert_error
from tests.people import client_for, token_client_for
from tests.ratings.support import finished_game, players, started_game

pytestmark = pytest.mark.django_db

REASON = "bob is a second account of alice's"


@pytest.fixture
def two_games(db):
    """alice beats bob twice: the second game counted half (the same opponent again)."""
    alice, bob = players("alice", "bob")
    first = finished_game([alice, bob], seed=1)
    second = finished_game([alice, bob], seed=2)
    record_results()
    assert PlayerResult.objects.get(game=second, user=alice).weight == 0.5
    return first, second


def void(user, game, reason=REASON):
    return client_for(user).post(f"/moderation/games/{game.pk}/void-rating/", {"reason": reason})


def numbers():
    return (sorted(Rating.objects.values_list("user_id", "pool", "mu", "sigma", "rating",
                                              "games", "wins", "placements")),
            sorted(PlayerResult.objects.values_list("game_id", "user_id", "rated", "weight",
                                                    "mu", "sigma", "rating",
                                                    "rating_before")))


def test_a_voided_game_is_as_if_it_had_never_counted(maud, two_games):
    first, second = two_games
    alice, bob = players("alice", "bob")

    answer = void(maud, first)

    assert answer.status_code == 302
    assert answer["Location"] == f"/moderation/games/{first.pk}/"
    voided = RatingVoid.objects.get(game=first)
    assert (voided.voided_by, voided.reason) == (maud, REASON)
    assert not GameResult.objects.get(game=first).rated
    assert not PlayerResult.objects.filter(game=first, rated=True).exists()
    # The second game is now their first meeting: a full game from the starting rating.
    places = dict(PlayerResult.objects.filter(game=second).values_list("user", "placement"))
    [[alice_after], [bob_after]] = recording.MODEL.rate(
        [[recording.MODEL.rating()], [recording.MODEL.rating()]],
        ranks=[places[alice.pk], places[bob.pk]])
    mine = PlayerResult.objects.get(game=second, user=alice)
    assert (mine.weight, mine.rating_before) == (1, recording.BASE)
    assert (mine.mu, mine.sigma) == pytest.approx((alice_after.mu, alice_after.sigma))
    assert Rating.objects.get(user=bob, pool=ALL_SIZES).mu == pytest.approx(bob_after.mu)
    assert Rating.objects.get(user=alice, pool=ALL_SIZES).games == 1
    # And the rebuild gives the same numbers.
    live = numbers()
    recording.rebuild()
    assert numbers() == live


def test_the_void_is_in_the_moderation_audit_and_on_the_game_page(maud, two_games):
    first, _ = two_games
    void(maud, first)

    audit = client_for(maud).get("/moderation/audit/?moderator=maud").content.decode()
    page = client_for(maud).get(f"/moderation/games/{first.pk}/").content.decode()

    assert REASON.replace("'", "&#x27;") in audit
    assert f'href="/moderation/games/{first.pk}/"' in audit
    assert 'id="rating"' in page and REASON.replace("'", "&#x27;") in page
    assert "void-rating/" not in page  # nothing left to void


def test_the_moderation_page_offers_the_void_only_for_a_finished_game(maud, two_games):
    first, _ = two_games
    alice, bob = players("alice", "bob")
    running = started_game([alice, bob])

    finished_page = client_for(maud).get(f"/moderation/games/{first.pk}/").content.decode()
    running_page = client_for(maud).get(f"/moderation/games/{running.pk}/").content.decode()

    assert f'action="/moderation/games/{first.pk}/void-rating/"' in finished_page
    assert "void-rating/" not in running_page


def test_only_a_moderator_may_void_and_nothing_changes_otherwise(maud, two_games):
    first, _ = two_games
    bob, = players("bob")
    before = numbers()

    assert void(bob, first).status_code == 403
    assert void(None, first)["Location"].startswith("/accounts/login/")

    assert not RatingVoid.objects.exists() and numbers() == before


def test_a_moderator_who_played_in_the_game_may_not_void_it(two_games):
    first, _ = two_games
    alice, = players("alice")
    make_moderator(alice)
    alice = get_user_model().objects.get(pk=alice.pk)
    before = numbers()
    client = client_for(alice)

    answer = client.post(f"/moderation/games/{first.pk}/void-rating/", {"reason": REASON})

    assert answer.status_code == 302
    assert not RatingVoid.objects.exists() and numbers() == before
    page = client.get(answer["Location"]).content.decode()
    assert "Nothing was done: you play in this game or its tournament: another moderator must act here" in page


@pytest.mark.parametrize("reason", ["", "   ", "x" * 501])
def test_a_void_needs_a_reason(maud, two_games, reason):
    first, _ = two_games

    void(maud, first, reason)

    assert not RatingVoid.objects.exists()


def test_a_running_game_or_one_voided_already_cannot_be_voided(maud, two_games):
    first, _ = two_games
    alice, bob = players("alice", "bob")
    running = started_game([alice, bob])
    void(maud, first)

    void(maud, running)
    void(maud, first, "again")

    assert list(RatingVoid.objects.values_list("game", "reason")) == [(first.pk, REASON)]


def test_the_api_voids_for_moderators_only(maud, two_games):
    first, second = two_games
    bob, = players("bob")
    url = f"/api/v1/games/{first.pk}/void-rating/"

    assert_error(token_client_for(bob).post(url, {"reason": "no"}, format="json"), 403, "not_moderator")
    assert_error(token_client_for(maud).post(url, {}, format="json"), 400, "bad_request")
    assert_error(token_client_for(maud).post("/api/v1/games/999999/void-rating/", {"reason": "x"},
                                format="json"), 404, "not_found")
    assert not RatingVoid.objects.exists()
    answer = token_client_for(maud).post(url, {"reason": REASON}, format="json")

    assert answer.status_code == 200, answer.content
    assert answer.json() == {"game": first.pk, "voided_by": "maud", "reason": REASON,
                             "created_at": answer.json()["created_at"]}
    assert PlayerResult.objects.get(game=second, user=bob).weight == 1
    assert_error(token_client_for(maud).post(url, {"reason": "again"}, format="json"), 400,
                 "already_voided")


def test_the_audit_tells_the_void_in_the_reader_s_language(maud, two_games):
    first, _ = two_games
    void(maud, first)

    with translation.override("cs"):
        [entry] = [e for e in history("maud") if e["kind"] == "rating_voided"]

    assert entry["text"].endswith(f"Důvod: {REASON}")


def test_the_void_button_answers_a_stranger_to_a_private_game_as_a_missing_game(maud, two_games):
    from games.models import Game
    first, _ = two_games
    Game.objects.filter(pk=first.pk).update(private=True)
    mallory = people.user("mallory")
    before = numbers()
    for who in (mallory, None):
        assert void(who, first).status_code == 404
        assert void(who, Game(pk=first.pk + 1000)).status_code == 404
    assert numbers() == before and not RatingVoid.objects.exists()
    assert void(maud, first).status_code == 302  # a moderator still may
    assert RatingVoid.objects.filter(game=first).exists()
