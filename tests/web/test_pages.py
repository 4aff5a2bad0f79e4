"""The home page, the lobby and the game page, for players and spectators."""

from __future__ import annotations

import re

from engine.board import BORDERS, CARDS, NEIGHBOURS, TERRITORIES
from engine.missions import effective_mission
from games import seat_views, service
from games.models import Event, Game
from games.store.seats import read_seats
from games.store.states import load_state
from lobby import open_games
from tests.games_in_states import open_game
from tests.people import client_for, with_password
from tests.play import play_until
from tests.web.support import started_game, whole_log
from words.vocabulary import mission_text, territory_name


def board_attributes(html: str) -> dict:
    found = {}
    for tag in re.findall(r"<a [^>]*data-territory=[^>]*>", html):
        territory = re.search(r'data-territory="([^"]+)"', tag).group(1)
        owner = re.search(r'data-owner="([^"]*)"', tag).group(1)
        armies = re.search(r'data-armies="([^"]*)"', tag).group(1)
        found[territory] = (owner, int(armies))
    return found


def test_it_serves_the_home_page_with_a_link_to_the_lobby(client, db):  # the maps offered
    response = client.get("/")

    assert response.status_code == 200
    assert b'href="/games/"' in response.content


def test_it_lists_my_games_on_the_home_page(alice, bob, as_alice):
    game = started_game([alice, bob], setup="random")

    response = as_alice.get("/")

    assert game.name.encode() in response.content


def test_it_shows_the_lobby_to_anyone(client, alice):
    open_game(alice, 3, "Open table")

    response = client.get("/games/")

    assert response.status_code == 200
    assert b"Open table" in response.content
    assert b'id="create-game"' not in response.content  # signed out: nothing to create with


def test_it_shows_my_games_with_whose_turn_and_the_deadline(alice, bob, as_alice):
    game = started_game([alice, bob], setup="random")
    current = game.current_seat

    response = as_alice.get("/games/")

    html = response.content.decode()
    assert "My games" in html and game.name in html
    assert ("Your move!" in html) == (current == 0)
    assert game.deadline.strftime("%H:%M") in html


def test_it_draws_the_whole_board_with_owner_and_armies(alice, bob, client):
    game = started_game([alice, bob], setup="random")
    state = play_until(game, [alice, bob], lambda s: True)
    view = seat_views.game_view(game, read_seats(game), state, None)

    html = client.get(f"/games/{game.pk}/").content.decode()

    board = board_attributes(html)
    assert set(board) == set(TERRITORIES)
    for territory, square in view["territories"].items():
        assert board[territory] == (str(square["owner"]), square["armies"])
    drawn = set(re.findall(r'data-border="([a-z_]+) ([a-z_]+)"', html))
    assert drawn == set(BORDERS)
    assert 'data-border="alaska kamchatka"' in html


def test_it_highlights_the_selected_territory_and_its_targets(alice, bob):
    game = started_game([alice, bob], setup="random")
    state = play_until(game, [alice, bob], lambda s: s.phase == "attack")
    seat = state.current
    source = next(t for t in state.territories_of(seat) if state.armies[t] >= 2
                  and any(state.owner[n] != seat for n in NEIGHBOURS[t]))

    html = client_for([alice, bob][seat]).get(f"/games/{game.pk}/?sel={source}").content.decode()

    assert re.search(rf'class="territory selected mine" id="t-{source}"', html)
    for neighbour in NEIGHBOURS[source]:
        if state.owner[neighbour] != seat:
            assert re.search(rf'class="territory target" id="t-{neighbour}"', html)
    assert f'<option value="{source}" selected>' in html


def test_it_shows_an_open_game_with_join_and_start(alice, bob, as_bob, as_alice):
    game = open_game(alice, 3, "Waiting")
    open_games.join_game(game, bob)

    as_bob_page = as_bob.get(f"/games/{game.pk}/").content.decode()
    as_alice_page = as_alice.get(f"/games/{game.pk}/").content.decode()

    assert "2 of 3 have joined" in as_bob_page
    assert "Start now" not in as_bob_page and "Start now" in as_alice_page


def test_it_shows_a_spectator_nothing_hidden(alice, bob, as_charlie):
    dave = with_password("dave")
    game = started_game([alice, bob, dave], objective="missions", setup="random")
    state = play_until(game, [alice, bob, dave],
                       lambda s: sum(len(p.cards) for p in s.players) >= 2)

    html = whole_log(as_charlie, game)

    assert "Watching" in html
    assert "Your secret mission" not in html and "Your cards" not in html
    for mission in {p.mission for p in state.players}:
        assert mission_text(mission) not in html
    assert "drew a card:" not in html  # only "drew a card."
    assert game.seed not in html
    assert 'name="type"' not in html  # no play form at all


def test_it_shows_a_seated_player_their_own_cards_and_mission(alice, bob):
    dave = with_password("dave")
    game = started_game([alice, bob, dave], objective="missions", setup="random")
    state = play_until(game, [alice, bob, dave], lambda s: len(s.players[1].cards) >= 1)

    html = client_for(bob).get(f"/games/{game.pk}/").content.decode()

    assert "Your secret mission" in html
    assert mission_text(effective_mission(state, 1)) in html
    for card in state.players[1].cards:
        territory = CARDS[card][0]
        assert territory is None or territory_name(territory) in html


def test_it_shows_the_board_as_of_a_past_move(alice, bob, client):
    game = started_game([alice, bob], setup="random")
    state = play_until(game, [alice, bob], lambda s: s.turn >= 3)
    past = load_state(game, 5)

    html = client.get(f"/games/{game.pk}/?at=5").content.decode()

    board = board_attributes(html)
    assert all(board[t] == (str(past.owner[t]), past.armies[t]) for t in TERRITORIES)
    assert "after move 5 of" in html
    assert "data-countdown" not in html  # the deadline is today's, not that move's
    assert state.version > 5
    assert "data-countdown" in client.get(f"/games/{game.pk}/").content.decode()


def test_it_writes_the_log_in_words(alice, bob, client):
    game = started_game([alice, bob], setup="random")
    play_until(game, [alice, bob], lambda s: s.turn >= 3 and Event.objects.filter(
        game=game, type="battle").exists())

    html = whole_log(client, game)

    assert "The game started. Turn order:" in html
    assert re.search(r"(Red|Blue) attacked [A-Z][A-Za-z ]+ from [A-Z][A-Za-z ]+: [1-6 ]+ against [1-6 ]+,", html)


def test_it_answers_the_poll_with_nothing_until_the_game_moves(alice, bob, client):
    game = started_game([alice, bob], setup="random")
    page = client.get(f"/games/{game.pk}/").content.decode()
    stamp = re.search(r'data-stamp="([^"]+)"', page).group(1)

    still = client.get(f"/games/{game.pk}/live/?v={stamp}")
    seen = game.version
    play_until(game, [alice, bob], lambda s: s.version > seen)
    moved = client.get(f"/games/{game.pk}/live/?v={stamp}", HTTP_HX_REQUEST="true")

    assert still.status_code == 204
    assert moved.status_code == 200
    assert moved.content.decode().startswith('<div id="game"')


def test_it_tells_the_poll_when_someone_joins(alice, bob, client):
    game = open_game(alice, 3, "Waiting")
    page = client.get(f"/games/{game.pk}/").content.decode()
    stamp = re.search(r'data-stamp="([^"]+)"', page).group(1)

    open_games.join_game(game, bob)

    assert client.get(f"/games/{game.pk}/live/?v={stamp}").status_code == 200


def test_it_reveals_the_seed_and_verifies_a_finished_game(alice, bob, as_alice, client):
    game = started_game([alice, bob], setup="random")
    service.submit(service.player(bob), game, {"type": "resign"})
    game.refresh_from_db()
    assert game.status == Game.FINISHED

    html = client.get(f"/games/{game.pk}/").content.decode()

    assert game.seed in html
    assert "Verified: the seed matches its hash" in html
    assert "Red (alice) won" in html


def test_it_shows_the_players_entropy_in_a_finished_game_s_seed_and_verifies_it(
        alice, bob, client):
    game = open_game(alice, 2, "Mixed", rules={"setup": "random"}, entropy="alice's")
    open_games.join_game(game, bob, entropy="bob <b>bold</b>")
    service.submit(service.player(bob), game, {"type": "resign"})
    game.refresh_from_db()

    html = client.get(f"/games/{game.pk}/").content.decode()

    assert game.dice_seed != game.seed
    assert f'<code class="server-seed">{game.seed}</code>' in html
    assert f'<code class="seed">{game.dice_seed}</code>' in html
    assert "<code>alice&#x27;s</code>" in html and "bob &lt;b&gt;bold&lt;/b&gt;" in html
    assert "Verified: the seed matches its hash" in html


def test_it_answers_404_for_a_missing_game(client, db):
    assert client.get("/games/999/").status_code == 404
