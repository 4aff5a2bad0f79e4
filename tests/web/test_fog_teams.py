"""Fog of war and teams on the pages and in mail: the board draws fogged territories as
unknown, the players table and log tell only what the reader may know, teams are shown
grouped; the lobby creates both; a turn mail's board and log are fogged too."""

from __future__ import annotations

import random
import re

import pytest
from django.core import mail
from django.utils import translation

import engine as rules
from engine.board import TERRITORIES
from engine.moves import seats_to_act
from games import service
from games.models import Game
from games.store.log import stored_events
from games.store.states import load_state
from notifications import delivery
from notifications.models import Notification
from tests.engine import fog_referee
from tests.engine.players import bot_command
from tests.people import client_for, with_password
from tests.web.support import started_game
from tests.web.test_lobby import CUSTOM
from words import narrator

BASE = {"name": "Fog night", "players": "3", "deadline_seconds": "86400"}


def played(game: Game, users: list, until, seed: int = 1):
    rnd = random.Random(seed)
    for _ in range(3000):
        state = load_state(game)
        if until(state):
            return state
        seat = rnd.choice(seats_to_act(state))
        try:
            service.submit(service.player(users[seat]), game, bot_command(state, seat, rnd), state.version)
        except Exception:  # noqa: BLE001 - the property bot tries refused moves on purpose
            continue
    raise AssertionError("never got there")


def board_attributes(page: str) -> dict[str, dict]:
    """Each territory's data-* attributes as the page's board draws them."""
    found = {}
    for tag in re.findall(r'<(?:a|g) [^>]*data-territory="[^"]+"[^>]*>', page):
        attributes = dict(re.findall(r'data-([a-z]+)="([^"]*)"', tag))
        found[attributes["territory"]] = attributes
    return found


@pytest.fixture
def trio(db):
    return [with_password("alice"), with_password("bob"), with_password("dave")]


@pytest.fixture
def fog_game(trio):
    game = started_game(trio, setup="random", fog=True)
    played(game, trio, lambda s: s.turn >= 4)
    return game


def test_the_board_draws_what_is_out_of_sight_as_unknown(fog_game, trio):
    state = load_state(fog_game)
    for seat, who in enumerate(trio):
        page = client_for(who).get(f"/games/{fog_game.pk}/").content.decode()
        board = board_attributes(page)
        assert set(board) == set(TERRITORIES)
        sees = fog_referee.allowed(state.owner, seat, 3, 1)
        for territory, shown in board.items():
            if territory in sees:
                assert shown["owner"] == str(state.owner[territory]) and "fog" not in shown
                assert shown["armies"] == str(state.armies[territory])
            else:
                assert shown["owner"] == "" and shown["armies"] == "" and shown["fog"] == "1"
        assert "Fog of war" in page
        # another player's totals are unknown in the players table
        assert re.search(r"<td>\?</td><td>\?</td>", page)


def test_a_spectator_sees_a_fully_fogged_board_and_a_log_without_places(fog_game):
    page = client_for(with_password("erin")).get(f"/games/{fog_game.pk}/").content.decode()
    board = board_attributes(page)
    assert all(shown.get("fog") == "1" for shown in board.values())
    log = page[page.index('class="log'):]
    log = log[:log.index("</section>")]
    assert "A battle out of sight." in log or "placed armies out of sight" in log
    from words.vocabulary import territory_name

    assert not [t for t in TERRITORIES if territory_name(t) in log]


def battle_seen_from_its_source_only(game: Game):
    """A seat and a battle it saw attack from a territory in its sight into one out of it
    (the referee's sight, before the battle or after it)."""
    state = None
    for event in stored_events(game):
        before = dict(state.owner) if state else dict.fromkeys(TERRITORIES)
        state = rules.evolve(state, event)
        if event.type != "battle":
            continue
        for seat in range(game.players):
            sees = (fog_referee.allowed(before, seat, game.players, 1)
                    | fog_referee.allowed(state.owner, seat, game.players, 1))
            if event.data["from"] in sees and event.data["to"] not in sees:
                return seat, event
    return None


def test_a_battle_seen_from_its_source_only_shows_no_dice_nor_target(fog_game, trio):
    found = battle_seen_from_its_source_only(fog_game)
    for turn in (8, 12, 16):
        if found:
            break
        played(fog_game, trio, lambda s, turn=turn: s.turn >= turn or s.finished)
        found = battle_seen_from_its_source_only(fog_game)
    assert found, "no battle seen from its source only"
    seat, battle = found
    from words.vocabulary import territory_name

    as_seat = client_for(trio[seat])
    for answer in (as_seat.get(f"/games/{fog_game.pk}/?log={battle.seq}"),  # the page
                   as_seat.get(f"/games/{fog_game.pk}/live/?log={battle.seq}",  # its update
                               HTTP_HX_REQUEST="true")):
        page = answer.content.decode()
        line = re.search(rf'<li class="event battle[^"]*" value="{battle.seq}">(.*?)</li>',
                         page, re.S)
        assert line, battle.seq
        line = line.group(1)
        assert f"attacked out of sight from {territory_name(battle.data['from'])}" in line
        assert 'class="dice"' not in line
        assert territory_name(battle.data["to"]) not in line


@pytest.mark.parametrize(("language", "lost", "told"), [
    ("en", 1, "Blue attacked out of sight from Ukraine, Blue lost 1."),
    ("en", 0, "Blue attacked out of sight from Ukraine."),
    ("cs", 1, "Modrý zaútočil z území Ukrajina na území mimo dohled, Modrý ztratil 1."),
    ("pl", 0, "Niebieski zaatakował z terytorium Ukraina terytorium poza zasięgiem wzroku."),
])
def test_the_narrator_tells_a_battle_seen_from_its_source_only(language, lost, told):
    event = {"seq": 9, "type": "battle", "actor": 1,
             "data": {"seat": 1, "from": "ukraine", "attacker_losses": lost}}
    with translation.override(language):
        assert narrator.describe(event) == told


def test_after_the_end_the_page_shows_everything(fog_game, trio):
    for who in trio[:2]:
        service.submit(service.player(who), fog_game, {"type": "resign"})
    fog_game.refresh_from_db()
    assert fog_game.status == Game.FINISHED
    page = client_for(with_password("erin")).get(f"/games/{fog_game.pk}/").content.decode()
    assert not any(shown.get("fog") for shown in board_attributes(page).values())


def test_history_at_a_move_stays_fogged(fog_game, trio):
    state = load_state(fog_game, 20)
    page = client_for(trio[1]).get(f"/games/{fog_game.pk}/?at=20").content.decode()
    sees = fog_referee.allowed(state.owner, 1, 3, 1)
    for territory, shown in board_attributes(page).items():
        assert (shown.get("fog") == "1") == (territory not in sees), territory


def test_a_team_game_page_shows_teams_grouped(db):
    four = [with_password("alice"), with_password("bob"), with_password("carol"), with_password("dave")]
    game = started_game(four, setup="random", team_size=2)
    page = client_for(four[0]).get(f"/games/{game.pk}/").content.decode()
    rows = re.findall(r'<tr class="[^"]*" data-seat="(\d)" data-team="(\d)">', page)
    assert rows == [("0", "0"), ("2", "0"), ("1", "1"), ("3", "1")]
    assert "Team 1" in page and "team of Green" in page and "team of Yellow" in page
    assert "2 teams of 2" in page  # the rules panel
    service.submit(service.player(four[1]), game, {"type": "resign"})
    service.submit(service.player(four[3]), game, {"type": "resign"})
    page = client_for(four[2]).get(f"/games/{game.pk}/").content.decode()
    assert "Team 1 (Red (alice), Green (carol)) won" in page


@pytest.mark.parametrize(("preset", "players", "rules"), [
    ("fog", 3, {"fog": True, "team_size": 1}),
    ("teams", 4, {"team_size": 2, "fog": False}),
])
def test_the_lobby_creates_fog_and_team_games(db, preset, players, rules):
    response = client_for(with_password("alice")).post("/games/new/", {**BASE, **CUSTOM,
                                                              "preset": preset})
    game = Game.objects.get()
    assert response.status_code == 302 and game.players == players
    assert {k: game.rules[k] for k in rules} == rules


def test_the_lobby_refuses_teams_with_missions_as_a_form_message(db):
    as_alice = client_for(with_password("alice"))
    lobby = as_alice.get("/games/").content.decode()
    assert 'name="fog"' in lobby and 'name="team_size"' in lobby
    response = as_alice.post("/games/new/", {
        **BASE, "players": "4", "preset": "custom", "setup": "deal",
        "initial_placement": "turns", "placement_batch": "1", "card_values": "escalating",
        "fixed_infantry": "4", "fixed_cavalry": "6", "fixed_artillery": "8",
        "fixed_mixed": "10", "card_territory_bonus": "once", "occupy_minimum": "dice",
        "fortify": "adjacent", "objective": "missions", "capitals_to_win": "table",
        "neutral_reinforcement": "auto", "max_missed_turns": "3", "team_size": "2"})
    assert response.status_code == 400
    assert "not played with teams" in response.content.decode()
    assert not Game.objects.exists()


def test_a_turn_mail_shows_a_fogged_board_and_log(fog_game, trio, settings):
    state = load_state(fog_game)
    row = (Notification.objects.filter(game=fog_game, kind=Notification.TURN,
                                       user=trio[state.current]).order_by("-pk").first())
    assert row is not None
    assert delivery.send_one(row.pk) == "sent"
    body = mail.outbox[-1].body
    seat = state.current
    upto = load_state(fog_game, row.event_seq)
    sees = fog_referee.allowed(upto.owner, seat, 3, 1)
    from words.vocabulary import territory_name

    for territory in TERRITORIES:
        line = next(x for x in body.splitlines() if x.startswith(f"  {territory_name(territory)} "))
        assert ("(out of sight)" in line) == (territory not in sees), line
