"""A finished game's result on its page (issue 28, item 10): the viewer's headline, the
rating change once recorded, the standings, and the rematch buttons."""

from __future__ import annotations

import re

import pytest

from games import service
from games.models import Game, Rematch
from ratings import recording
from ratings.models import PlayerResult
from tests.people import client_for
from tests.web.support import started_game


def resign(game, *users):
    for user in users:
        service.submit(service.player(user), game, {"type": "resign"})
    game.refresh_from_db()


@pytest.fixture
def over(alice, bob, charlie):
    """A game of three that alice won: charlie resigned first (3rd), then bob (2nd)."""
    game = started_game([alice, bob, charlie])
    resign(game, charlie, bob)
    assert game.status == Game.FINISHED
    return game


def test_each_player_reads_their_own_result_and_a_spectator_who_won(over, as_alice, as_bob,
                                                                    as_charlie, person):
    assert "<h2 id=\"result-title\" class=\"headline\">You won</h2>" in as_alice.get(
        f"/games/{over.pk}/").content.decode()
    assert "You lost (2nd of 3)" in as_bob.get(f"/games/{over.pk}/").content.decode()
    assert "You lost (3rd of 3)" in as_charlie.get(f"/games/{over.pk}/").content.decode()
    watching = client_for(person("dave")).get(f"/games/{over.pk}/").content.decode()
    assert "Red (alice) won</h2>" in watching
    assert "Rematch: play again" not in watching


def test_the_headline_is_in_czech_with_czech_ordinals(over, as_bob):
    page = as_bob.get(f"/games/{over.pk}/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()

    assert "Prohráli jste (2. místo z 3)" in page


def test_a_team_reads_that_it_won_together(alice, bob, charlie, person):
    dave = person("dave")
    game = started_game([alice, bob, charlie, dave], team_size=2)
    resign(game, bob, dave)  # seats 1 and 3: the second team

    assert "Your team won" in client_for(charlie).get(f"/games/{game.pk}/").content.decode()
    assert "Your team lost (2nd of 2 teams)" in client_for(dave).get(
        f"/games/{game.pk}/").content.decode()


def test_the_rating_change_shows_once_it_is_recorded(over, as_alice, settings, alice):
    page = as_alice.get(f"/games/{over.pk}/").content.decode()
    assert "Your rating change is being worked out" in page
    assert 'id="live-poll"' in page  # the page asks again until it is

    recording.record_pending()
    PlayerResult.objects.filter(game=over, user=alice).update(
        rated=True, rating_before=1500, rating=1523)
    page = as_alice.get(f"/games/{over.pk}/").content.decode()

    assert "Your rating: 1500 → 1523 (+23)." in page
    assert '<span class="change">+23</span>' in page
    assert 'id="live-poll"' not in page


def test_players_offer_accept_and_start_a_rematch_from_the_page(over, as_alice, as_bob,
                                                                as_charlie):
    page = as_bob.get(f"/games/{over.pk}/").content.decode()
    assert "Rematch: play again" in page and f'action="/games/{over.pk}/rematch/"' in page
    ahead = re.search(r'<code class="next-seed-hash">([0-9a-f]{64})</code>', page).group(1)

    as_bob.post(f"/games/{over.pk}/rematch/", {"entropy": ""})
    assert Rematch.objects.get(game=over).seed_hash == ahead  # drawn before bob's entropy
    seen = as_alice.get(f"/games/{over.pk}/").content.decode()
    assert "bob offers a rematch" in seen and "Waiting for: alice, charlie." in seen
    assert "Accept the rematch" in seen and "Decline the rematch" in seen
    committed = Rematch.objects.get(game=over).seed_hash
    assert f'<code class="rematch-seed-hash">{committed}</code>' in seen
    assert "bob offers a rematch of Web test" in as_alice.get("/notifications/").content.decode()

    as_alice.post(f"/games/{over.pk}/rematch/")
    response = as_charlie.post(f"/games/{over.pk}/rematch/")

    new = Rematch.objects.get(game=over).new_game
    assert response["Location"] == f"/games/{new.pk}/" and new.status == Game.ACTIVE
    assert new.seed_hash == committed
    assert "go to the new game" in as_bob.get(f"/games/{over.pk}/").content.decode()


def test_a_player_declines_the_rematch_from_the_page(over, as_alice, as_bob):
    as_alice.post(f"/games/{over.pk}/rematch/")

    as_bob.post(f"/games/{over.pk}/rematch/decline/")

    assert "bob declined the rematch." in as_alice.get(f"/games/{over.pk}/").content.decode()
    refused = as_alice.post(f"/games/{over.pk}/rematch/", follow=True).content.decode()
    assert "The rematch was declined: it is off." in refused
    assert Game.objects.count() == 1
