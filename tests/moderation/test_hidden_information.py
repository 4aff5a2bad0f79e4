"""A moderator who also plays sees nothing hidden of the others through any moderator page:
the moderation pages, the audit and the admin show a running game as a spectator sees it."""

from __future__ import annotations

import pytest

from engine.missions import describe
from games.errors import ServiceError
from games.moderation import moderate
from games.store.states import load_state
from moderation.chat import hide_message, post_message
from tests.moderation.support import started_game
from tests.people import client_for, moderator, user
from tests.play import play_until


def pages(game, client) -> dict:
    urls = [f"/moderation/games/{game.pk}/", "/moderation/", "/moderation/audit/",
            f"/admin/games/event/?game={game.pk}", f"/admin/games/game/{game.pk}/change/"]
    urls += [f"/admin/games/event/{pk}/change/"
             for pk in game.events.order_by("seq").values_list("pk", flat=True)]
    return {url: client.get(url) for url in urls}


def test_it_shows_a_playing_moderator_no_mission_card_or_seed(db):
    alice = moderator("alice")  # plays and moderates
    players = [alice, user("bob"), user("erin")]
    game = started_game(players, objective="missions")
    state = play_until(game, players, lambda s: sum(len(p.cards) for p in s.players) >= 2)
    other = moderator("olga")  # alice may not moderate her own game
    moderate(game, other, "pause", "checking")
    hide_message(post_message(game, players[1], "hi"), other, "test")
    state = load_state(game)
    secrets = [game.seed]
    held = [card for player in state.players for card in player.cards]
    assert game.events.filter(type="card_drawn").exists()
    for player in state.players:
        secrets += [player.mission, describe(player.mission)]
    for url, answer in pages(game, client_for(alice)).items():
        assert answer.status_code == 200, url
        page = answer.content.decode()
        for secret in secrets:
            assert secret not in page, (url, secret)
        assert "drew a card:" not in page, url  # the words a card's holder reads
        for card in held:
            assert f"&quot;card&quot;: {card}" not in page, (url, card)
    view = client_for(alice).get(f"/moderation/games/{game.pk}/").context["view"]
    assert view["you"] is None
    assert all(not {"mission", "capital", "hand"} & set(p) for p in view["players"])


def test_it_tells_a_playing_moderator_they_see_it_as_a_spectator(game, alice):
    moderator("alice")
    page = client_for(alice).get(f"/moderation/games/{game.pk}/").content.decode()
    assert "You play in this game" in page


def test_it_shows_the_hidden_data_once_the_game_is_over(alice, bob, maud):
    game = started_game([alice, bob])
    play_until(game, [alice, bob], lambda s: any(p.cards for p in s.players))
    drawn = game.events.filter(type="card_drawn").first()
    page = client_for(maud).get(f"/admin/games/event/{drawn.pk}/change/").content.decode()
    assert f"&quot;card&quot;: {drawn.data['card']}" not in page
    moderate(game, maud, "abort", "over")
    page = client_for(maud).get(f"/admin/games/event/{drawn.pk}/change/").content.decode()
    assert f"&quot;card&quot;: {drawn.data['card']}" in page


@pytest.mark.parametrize("action", ["pause", "abort", "end_turn", "drop", "extend_deadline"])
def test_it_refuses_a_moderator_who_plays_in_the_game(db, action):
    alice = moderator("alice")
    game = started_game([alice, user("bob")])
    count = game.events.count()

    with pytest.raises(ServiceError) as refusal:
        moderate(game, alice, action, "my own game", seat=1)

    assert refusal.value.code == "own_game" and refusal.value.status == 403
    assert game.events.count() == count


def test_it_refuses_a_playing_moderator_hiding_chat_in_their_game(db):
    alice, bob = moderator("alice"), user("bob")
    game = started_game([alice, bob])
    message = post_message(game, bob, "hello")

    with pytest.raises(ServiceError) as refusal:
        hide_message(message, alice, "mine")

    assert refusal.value.code == "own_game"
