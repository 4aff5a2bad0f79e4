"""The lobby as a returning player reads it: their move first, winners of finished games,
the rules of open games, games under way to watch, a tab title that says it is their move;
and the game page once it is over or paused."""

from __future__ import annotations

import re

from engine import events as ev
from games import seat_views
from games.models import Game
from games.moderation import moderate
from games.store.states import load_state
from lobby import open_games
from tests.games_in_states import open_game
from tests.notifications.support import conquer, seats_to_act, user_at
from tests.people import client_for, moderator, with_password
from tests.web.support import started_game
from web.page.log_page import PAGE
from words import narrator


def _row_names(page: str) -> list[str]:
    mine = page.split('id="mine-title"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'<a href="/games/\d+/">([^<]+)</a>', mine)


def test_my_games_come_in_the_order_they_need_me(alice, bob, as_alice):
    waiting = started_game([alice, bob])
    Game.objects.filter(pk=waiting.pk).update(name="Theirs")
    mine = started_game([alice, bob])
    Game.objects.filter(pk=mine.pk).update(name="Mine")
    open_one = open_game(alice, 3, "Filling")
    # "Mine" waits for alice (seat 0), "Theirs" for bob, whatever order was drawn: the
    # lobby reads the projection's current seat
    Game.objects.filter(pk=mine.pk).update(current_seat=0)
    Game.objects.filter(pk=waiting.pk).update(current_seat=1)
    page = as_alice.get("/games/").content.decode()

    assert _row_names(page) == ["Mine", "Theirs", open_one.name]
    assert "<title>(1) Your move" in page


def test_a_finished_game_names_its_winner_and_others_can_watch_running_ones(alice, bob,
                                                                           charlie):
    game = started_game([alice, bob], initial_placement="simultaneous")
    state = conquer(game, alice)
    assert state.finished
    running = started_game([alice, bob])
    Game.objects.filter(pk=running.pk).update(name="Under way")

    page = client_for(alice).get("/games/").content.decode()
    assert "You won" in page
    assert "Won by Red (alice)" in client_for(bob).get("/games/").content.decode()

    watching = client_for(charlie).get("/games/").content.decode()
    running_list = watching.split('id="running-title"', 1)[1].split("</section>", 1)[0]
    assert "Under way" in running_list and "alice, bob" in running_list
    assert game.name not in running_list  # finished: not under way


def test_a_team_win_is_every_team_members_win(alice, bob, charlie):
    dave = with_password("dave")
    game = started_game([alice, bob, charlie, dave], team_size=2)
    # Seat s plays in team s % 2 (docs/players/rules.md "Teams"): alice and charlie won together.
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED, winner=2)

    assert "You won" in client_for(alice).get("/games/").content.decode()
    assert "You won" in client_for(charlie).get("/games/").content.decode()
    lost = client_for(bob).get("/games/").content.decode()
    assert "You won" not in lost and "Won by Red (alice), Green (charlie)" in lost


def test_an_open_game_shows_its_rules_and_clock(alice, as_bob):
    open_game(alice, 3, "Slow and foggy", rules={"fog": True, "initial_placement": "simultaneous"},
              deadline_seconds=2 * 86400)

    page = as_bob.get("/games/").content.decode()
    line = page.split("Slow and foggy", 1)[1].split("</li>", 1)[0]
    assert "2 days per move" in line
    assert "fog of war" in line and "starting armies placed all at once" in line


def test_the_end_of_a_game_reveals_missions_and_sums_it_up(alice, bob, charlie):
    game = started_game([alice, bob, charlie], objective="missions",
                        initial_placement="simultaneous")
    state = conquer(game, alice)
    assert state.finished
    page = client_for(bob).get(f"/games/{game.pk}/").content.decode()

    summary = page.split('id="summary-title"', 1)[1].split("</section>", 1)[0]
    for seat in range(3):
        assert narrator.seat_name(seat) in summary
    assert summary.count("Secret mission:") == 3
    assert "attack roll" in summary and "won" in summary
    assert "Dice luck, in armies against the odds:" in summary  # the exact odds against what the dice gave
    # the log tells every mission now that the game is over
    log = client_for(bob).get(f"/games/{game.pk}/?log={PAGE}").content.decode()  # the first
    assert "Secret missions were dealt:" in log
    # nothing to fill in any more
    assert "to fill in the forms" not in page
    assert "No cards yet" not in page


def test_a_paused_game_says_why(alice, bob):
    game = started_game([alice, bob])
    moderate(game, moderator("mod"), "pause", "waiting for an answer from bob")

    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert "Paused by a moderator" in page and "waiting for an answer from bob" in page


def test_an_eliminated_player_is_not_asked_to_fill_in_forms(alice, bob, charlie):
    game = started_game([alice, bob, charlie], initial_placement="simultaneous")
    def someone_out(state):
        return any(p.out for p in state.players)

    state = conquer(game, alice, until=someone_out)
    loser = next(p.seat for p in state.players if p.out)
    page = client_for(user_at(game, loser)).get(f"/games/{game.pk}/").content.decode()
    assert "to fill in the forms" not in page
    assert "No cards yet" not in page


def test_the_log_says_whose_cards_an_elimination_took(alice, bob, charlie):
    game = started_game([alice, bob, charlie], initial_placement="simultaneous")
    conquer(game, alice, until=lambda state: any(p.eliminated for p in state.players))
    events = seat_views.event_dicts(game, None)
    told = [narrator.describe(e) for e in events if e["type"] == ev.PLAYER_ELIMINATED]
    assert told and re.search(r"eliminated .+ (and took their \d+ cards?|who held no cards)",
                              told[0])


def test_random_placements_read_as_sentences(alice, bob):
    game = started_game([alice, bob], initial_placement="simultaneous")
    state = load_state(game)
    seat = seats_to_act(state)[0]
    event = {"seq": 1, "type": ev.ARMIES_PLACED, "actor": None,
             "data": {"seat": seat, "random": True, "placements": {"alaska": 1}}}
    assert narrator.describe(event) == (
        f"Placed at random for {narrator.seat_name(seat)}: Alaska 1 (1 army).")


def test_refusals_name_territories_not_ids():
    from words.vocabulary import detail_words

    assert detail_words("alaska is not yours") == "Alaska is not yours"
    assert detail_words("roll 1 to 1 dice from north_africa") == (
        "roll 1 to 1 dice from North Africa")
    assert detail_words("'to' must be a territory id") == "'to' must be a territory"


def test_the_rules_panel_lists_only_rules_that_apply():
    from engine import Rules
    from web.page.rules_panel import rules_in_words

    three = {line["key"] for line in rules_in_words(Rules().to_dict(), 3)}
    assert not three & {"capitals_to_win", "capital_collapse", "neutral",
                        "neutral_reinforcement"}
    capitals_for_two = {line["key"] for line in rules_in_words(
        Rules.from_dict({"objective": "capitals"}).to_dict(), 2)}
    assert {"capitals_to_win", "capital_collapse", "neutral",
            "neutral_reinforcement"} <= capitals_for_two


def test_the_creator_chooses_whether_the_game_is_rated(as_alice):
    from tests.web.test_lobby import BASE, CUSTOM

    base = {**BASE, **CUSTOM, "preset": "classic", "bot_level": "normal"}
    # None: rated unless computer players are seated (games.models.Game.rated)
    for choice, bots, rated in (("auto", "0", None), ("auto", "1", None), ("no", "0", False),
                                ("yes", "2", True)):
        response = as_alice.post("/games/new/", {**base, "rated": choice, "bots": bots})
        assert response.status_code == 302, response.content.decode()[:500]
        assert Game.objects.latest("id").rated is rated


def test_every_game_not_over_is_listed_and_the_newest_of_the_rest(alice, bob, as_alice):
    """A player of many games finds an old game under way among them: the lobby lists every
    game not over and the newest ten of the others, the home page the ones under way."""
    from web.page.game_lists import FINISHED_SHOWN

    old = started_game([alice, bob])
    Game.objects.filter(pk=old.pk).update(name="Old but running")
    over = []
    for number in range(FINISHED_SHOWN + 3):
        game = open_game(alice, 2, f"Over {number}")
        open_games.cancel_game(game, alice)
        over.append(game.name)
    page = as_alice.get("/games/").content.decode()

    assert _row_names(page) == ["Old but running", *reversed(over[-FINISHED_SHOWN:])]
    assert 'href="/players/alice/?games=finished"' in page
    home = as_alice.get("/").content.decode()
    assert "Old but running" in home and "Over " not in home
