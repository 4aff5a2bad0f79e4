"""Hidden information: before a game is finished, no answer of any endpoint shows another
seat's cards, mission or capital, an undisclosed simultaneous placement, or the seed; once it
is finished, the record shows all of it and verifies.

Each answer is checked twice: as text, searched for the secret values themselves, and as
structure (hands, card_drawn.card, missions_dealt, capital_chosen, placement_submitted ...).
The games are played over HTTP by bots (tests.engine.players), with alice, bob and dave seated
and charlie and an anonymous client watching.
"""

from __future__ import annotations

import dataclasses
import random
from dataclasses import dataclass, field

import pytest

import engine as rules
from engine.commands import parse_command
from engine.missions import describe, effective_mission
from engine.moves import seats_to_act
from games.models import Event, Game, Seat
from games.store.append import append
from games.store.log import stored_events
from games.store.states import load_state, rebuild_snapshots
from tests.engine.players import bot_command
from tests.games.api_support import API, compact, game_url, play, send, state_of
from tests.games_in_states import new_game
from tests.people import signed_up

ENDPOINTS = ("", "events/", "record/")


@dataclass
class Table:
    seats: dict  # seat -> client
    watchers: dict  # name -> client (not seated)

    def observers(self):
        """(seat or None, client) for every seat and every watcher."""
        return [*self.seats.items(), *((None, c) for c in self.watchers.values())]


@pytest.fixture
def table(alice, bob, charlie, anonymous):
    return Table({0: alice, 1: bob, 2: signed_up("dave")},
                 {"charlie": charlie, "anonymous": anonymous})


# ---- what is secret at a moment, and the checks ----------------------------------------
@dataclass
class Secrets:
    seed: str
    missions: dict = field(default_factory=dict)  # seat -> mission id
    capitals: dict = field(default_factory=dict)  # seat -> capital not yet revealed
    hands: dict = field(default_factory=dict)  # seat -> card ids
    placements: dict = field(default_factory=dict)  # seat -> simultaneous placement not shown

    def any_for(self, observer) -> bool:
        others = [s for s in self.hands if s != observer]
        return any(self.missions.get(s) or self.capitals.get(s) or self.hands.get(s)
                   or self.placements.get(s) for s in others)


def secrets_of(game: Game, state) -> Secrets:
    return Secrets(
        seed=game.seed,
        missions={p.seat: p.mission for p in state.players if p.mission},
        capitals={p.seat: p.capital for p in state.players
                  if p.capital and p.capital not in state.revealed_capitals},
        hands={p.seat: list(p.cards) for p in state.players},
        placements={p.seat: dict(p.hidden_placement) for p in state.players
                    if p.hidden_placement},
    )


def own_words(observer, state) -> set[str]:
    """Mission text the observer may see: their own card and what it now means."""
    if observer is None or state.players[observer].mission is None:
        return set()
    own = {state.players[observer].mission, effective_mission(state, observer)}
    return own | {describe(m) for m in own}


def views_in(body) -> list[dict]:
    if isinstance(body, dict) and "territories" in body and "you" in body:
        return [body]
    if isinstance(body, dict) and isinstance(body.get("game"), dict):
        return [body["game"]]
    return []


def events_in(body) -> list[dict]:
    if isinstance(body, dict) and isinstance(body.get("events"), list):
        return body["events"]
    return []


def assert_hidden(body, observer, secrets: Secrets, state, where: str) -> None:
    """`body`, an answer to `observer` (a seat, or None for a watcher), shows no secret."""
    text = compact(body)
    assert secrets.seed not in text, f"{where}: the seed"
    mine = own_words(observer, state)
    for seat in secrets.hands:
        if seat == observer:
            continue
        mission = secrets.missions.get(seat)
        if mission and mission not in mine:
            assert f'"{mission}"' not in text, f"{where}: seat {seat}'s mission"
            assert describe(mission) not in text, f"{where}: seat {seat}'s mission"
        capital = secrets.capitals.get(seat)
        if capital:
            assert f'"capital":"{capital}"' not in text, f"{where}: seat {seat}'s capital"
        placement = secrets.placements.get(seat)
        if placement:
            for form in (placement, dict(sorted(placement.items()))):
                assert compact(form) not in text, f"{where}: seat {seat}'s placement"
    for view in views_in(body):
        assert_view_hides(view, observer, secrets, where)
    for event in events_in(body):
        assert_event_hides(event, observer, where)


def assert_view_hides(view, observer, secrets: Secrets, where: str) -> None:
    if observer is None:
        assert view["you"] is None, where
    else:
        assert view["you"]["seat"] == observer, where
    for player in view["players"]:
        assert isinstance(player["cards"], int), where
        if player["seat"] != observer:
            for key in ("hand", "mission", "capital", "hidden_placement"):
                assert player.get(key) in (None, []), f"{where}: players[{player['seat']}].{key}"
    for capital in secrets.capitals.values():
        assert capital not in (view.get("capitals") or {}), f"{where}: capitals"


def assert_event_hides(event, observer, where: str) -> None:
    data, kind, where = event["data"], event["type"], f"{where} event {event['seq']}"
    if kind == "deck_shuffled":
        assert "cards" not in data, where
    elif kind == "missions_dealt":
        assert all(m is None for s, m in enumerate(data["missions"]) if s != observer), where
    elif kind in ("card_drawn", "capital_chosen", "placement_submitted"):
        hidden = {"card_drawn": "card", "capital_chosen": "territory",
                  "placement_submitted": "placements"}[kind]
        if data["seat"] != observer:
            assert hidden not in data, where
    elif kind == "player_eliminated" and observer not in (data["seat"], data["by"]):
        assert isinstance(data["cards"], int), where
    elif kind == "capital_captured" and observer not in (data["seat"], data["owner"]):
        assert isinstance(data["cards"], int), where


def check_everyone(table: Table, game_id: int) -> Secrets:
    """Every endpoint, as every seat and every watcher, against what is secret now."""
    game = Game.objects.get(pk=game_id)
    state = load_state(game)
    assert not state.finished
    secrets = secrets_of(game, state)
    for observer, client in table.observers():
        for tail in ENDPOINTS:
            answer = client.get(game_url(game_id, tail))
            assert answer.status_code == 200, answer.content
            assert_hidden(answer.json(), observer, secrets, state, f"{tail or 'view'} {observer}")
        for query in ("", "?mine=1" if observer is not None else "?status=active"):
            listed = client.get(f"{API}/games/{query}")
            assert_hidden(listed.json(), observer, secrets, state, f"list {observer}")
    view = table.seats[0].get(game_url(game_id)).json()
    assert sorted(c["id"] for c in view["you"]["cards"]) == sorted(secrets.hands[0])
    return secrets


def check_every_version(table: Table, game_id: int, versions=None) -> int:
    """?at=N for every N (or those given), as everyone, against what was secret at N."""
    game = Game.objects.get(pk=game_id)
    wanted = set(versions or range(1, game.version + 1))
    state, checked = None, 0
    for event in stored_events(game):
        state = rules.evolve(state, event)
        if event.seq not in wanted:
            continue
        secrets = secrets_of(game, state)
        for observer, client in table.observers():
            answer = client.get(game_url(game_id), {"at": event.seq})
            assert answer.status_code == 200, answer.content
            body = answer.json()
            assert body["version"] == event.seq
            assert_hidden(body, observer, secrets, state, f"at={event.seq} {observer}")
            if observer is not None:
                assert sorted(c["id"] for c in body["you"]["cards"]) == sorted(
                    state.players[observer].cards)
        checked += 1
    return checked


def play_checked(table: Table, game_id: int, rnd, moves: int, until=lambda s: False,
                 full_every: int = 40) -> dict:
    """Bots play over HTTP; every command's answer is checked against its sender, and every
    endpoint against everyone now and then. Returns what came about (event types seen)."""
    game = Game.objects.get(pk=game_id)
    seen: dict = {}
    for move in range(moves):
        state = load_state(game)
        if state.finished or until(state):
            break
        seat = rnd.choice(seats_to_act(state))
        command = bot_command(state, seat, rnd) | {"expected_version": state.version}
        answer = send(table.seats[seat], game_id, command)
        assert answer.status_code in (201, 400), answer.content
        after = load_state(game)
        body = answer.json()
        if after.finished:
            break
        assert_hidden(body, seat, secrets_of(game, after), after, f"commands {command}")
        for event in events_in(body):
            seen.setdefault(event["type"], []).append(event["data"])
        if move % full_every == full_every - 1:
            check_everyone(table, game_id)
    return seen


def finish(table: Table, game_id: int) -> None:
    """Everyone but the first living seat resigns, until the game is over (a resignation may
    end it sooner: a mission can be met by another seat leaving)."""
    for seat in state_of(game_id).living()[1:]:
        state = state_of(game_id)
        if state.finished:
            break
        answer = send(table.seats[seat], game_id, {"type": "resign"})
        assert answer.status_code == 201, (seat, state.phase, state.current, answer.json())
    assert state_of(game_id).finished


def assert_revealed(table: Table, game_id: int) -> dict:
    """Once finished: the seed and every hidden thing, for anyone; and the record verifies."""
    game = Game.objects.get(pk=game_id)
    state = load_state(game)
    for _, client in table.observers():
        record = client.get(game_url(game_id, "record/")).json()
        assert record["seed"] == game.seed
        result = rules.verify(record)
        assert result.ok, result.problems
        for event in record["events"]:
            data = event["data"]
            if event["type"] == "deck_shuffled":
                assert "cards" in data
            if event["type"] == "missions_dealt":
                assert None not in data["missions"]
            if event["type"] == "card_drawn":
                assert "card" in data
            if event["type"] == "capital_chosen":
                assert "territory" in data
            if event["type"] == "placement_submitted":
                assert "placements" in data
        events = client.get(game_url(game_id, "events/")).json()["events"]
        assert events == record["events"]
        view = client.get(game_url(game_id)).json()
        for player in view["players"]:
            truth = state.players[player["seat"]]
            assert [c["id"] for c in player["hand"]] == truth.cards
            assert player["capital"] == truth.capital
            assert (player["mission"] or {}).get("id") == truth.mission
    return record


# ---- the games -------------------------------------------------------------------------
@pytest.mark.slow  # a whole game: CI plays it on the PostgreSQL pass only
def test_it_hides_missions_placements_cards_and_the_seed(table):
    alice, bob, dave = table.seats.values()
    game_id = new_game(alice, bob, dave, objective="missions",
                       initial_placement="simultaneous")
    secrets = check_everyone(table, game_id)
    assert len(secrets.missions) == 3 and secrets.seed
    rnd = random.Random("missions")

    # The simultaneous placement: each one stays hidden until the last is in.
    for seat in (1, 0):
        state = state_of(game_id)
        command = bot_command(state, seat, rnd)
        answer = send(table.seats[seat], game_id, command)
        assert answer.status_code == 201, answer.content
        assert answer.json()["game"]["you"]["hidden_placement"] == command["placements"]
        secrets = check_everyone(table, game_id)
        assert secrets.placements[seat] == command["placements"]
        for other in {0, 1, 2} - {seat}:
            view = table.seats[other].get(game_url(game_id)).json()
            for territory in command["placements"]:
                assert view["territories"][territory]["armies"] == state.armies[territory]
    state = state_of(game_id)
    last = bot_command(state, 2, rnd)
    answer = send(dave, game_id, last).json()
    placed = {e["data"]["seat"]: e["data"]["placements"] for e in answer["events"]
              if e["type"] == "armies_placed"}
    assert set(placed) == {0, 1, 2} and placed[2] == last["placements"]
    assert not check_everyone(table, game_id).placements

    seen = play_checked(table, game_id, rnd, moves=60)
    state = state_of(game_id)
    assert not state.finished and secrets_of(Game.objects.get(pk=game_id), state).any_for(None)
    assert check_every_version(table, game_id) == state.version
    seen |= play_checked(table, game_id, rnd, moves=200)
    assert "card_drawn" in seen  # cards were dealt out while everyone watched
    if not state_of(game_id).finished:
        check_everyone(table, game_id)
        finish(table, game_id)
    assert_revealed(table, game_id)


@pytest.mark.slow  # a whole game: CI plays it on the PostgreSQL pass only
def test_it_hides_capitals_until_they_are_taken(table):
    alice, bob, dave = table.seats.values()
    game_id = new_game(alice, bob, dave, objective="capitals", capitals_to_win="all",
                       initial_placement="simultaneous")
    rnd = random.Random("capitals")
    for seat in (2, 0, 1):  # the placements: bots, everyone at once
        assert send(table.seats[seat], game_id,
                    bot_command(state_of(game_id), seat, rnd)).status_code == 201
    state = state_of(game_id)
    assert state.phase == "capital"
    for seat in (0, 2):  # two capitals chosen, one still to come
        mine = state.territories_of(seat)[5]
        answer = send(table.seats[seat], game_id, {"type": "choose_capital", "territory": mine})
        assert answer.status_code == 201, answer.content
        assert answer.json()["game"]["you"]["capital"] == mine
        secrets = check_everyone(table, game_id)
        assert secrets.capitals[seat] == mine
        for other in {0, 1, 2} - {seat}:
            assert table.seats[other].get(game_url(game_id)).json()["you"]["capital"] != mine
    answer = send(bob, game_id, {"type": "choose_capital",
                                 "territory": state.territories_of(1)[0]})
    assert answer.status_code == 201 and answer.json()["game"]["phase"] == "reinforce"
    secrets = check_everyone(table, game_id)
    assert len(secrets.capitals) == 3

    # Until the first capital falls (it cannot end the game: all three are needed) ...
    seen = play_checked(table, game_id, rnd, moves=1000, full_every=25,
                        until=lambda state: state.revealed_capitals)
    state = state_of(game_id)
    assert len(state.revealed_capitals) == 1 and not state.finished
    taken = state.revealed_capitals[0]
    secrets = check_everyone(table, game_id)
    assert len(secrets.capitals) == 2 and taken not in secrets.capitals.values()
    for _, client in table.observers():  # ... which is no secret any more
        assert client.get(game_url(game_id)).json()["capitals"] == {
            taken: next(p.seat for p in state.players if p.capital == taken)}
    assert check_every_version(table, game_id) == state.version
    seen |= play_checked(table, game_id, rnd, moves=100, full_every=25)
    if not state_of(game_id).finished:
        check_everyone(table, game_id)
        finish(table, game_id)
    record = assert_revealed(table, game_id)
    chosen = {e["data"]["seat"]: e["data"]["territory"] for e in record["events"]
              if e["type"] == "capital_chosen"}
    assert len(chosen) == 3
    for captured in seen.get("capital_captured", []):
        assert captured["territory"] == chosen[captured["owner"]]


@pytest.mark.slow  # a whole game: CI plays it on the PostgreSQL pass only
def test_it_hides_the_cards_an_elimination_hands_over(table):
    """A crafted moment: the engine plays (in memory, bots, a fixed seed) until one player
    eliminates another who held cards, with the third still playing; that history is stored
    for a game the three sit at, and everyone looks."""
    alice, bob, dave = table.seats.values()
    game_id = alice.post(f"{API}/games/", {"name": "Crafted", "players": 3,
                                           "rules": {"placement_batch": 100}},
                         format="json").json()["id"]
    assert bob.post(game_url(game_id, "join/")).status_code == 200
    game = Game.objects.get(pk=game_id)
    Seat.objects.create(game=game, seat=2, user_id=dave.user_id)  # seated, not yet started
    events, state = history_with_an_elimination(game)
    append(game, events, None, state)
    rebuild_snapshots(game)  # as the game would have them, had it been played move by move
    game.refresh_from_db()
    eliminated = next(e for e in events if e.type == "player_eliminated")
    taker, giver = eliminated.data["by"], eliminated.data["seat"]
    watcher = ({0, 1, 2} - {taker, giver}).pop()
    assert eliminated.data["cards"]

    secrets = check_everyone(table, game_id)
    assert secrets.hands[taker]
    shown = table.seats[watcher].get(game_url(game_id, "events/"),
                                     {"after": eliminated.seq - 1}).json()["events"][0]
    assert shown["type"] == "player_eliminated"
    assert shown["data"]["cards"] == len(eliminated.data["cards"])
    for seat in (taker, giver):
        shown = table.seats[seat].get(game_url(game_id, "events/"),
                                      {"after": eliminated.seq - 1}).json()["events"][0]
        assert shown["data"]["cards"] == eliminated.data["cards"]
    check_every_version(table, game_id, range(eliminated.seq - 30, game.version + 1))


def history_with_an_elimination(game: Game):
    """The events of a three-player game, up to the first elimination of a player holding
    cards that leaves the game running; and the state after them."""
    checked = rules.validate_rules(game.rules, 3)
    dice = rules.FairDice(game.seed, game.game_id)
    for attempt in range(50):
        events = rules.decide(None, rules.StartGame(game.game_id, 3, checked), dice)
        state = rules.replay(events)
        rnd = random.Random(attempt)
        for _ in range(4000):
            if state.finished:
                break
            seat = rnd.choice(seats_to_act(state))
            command = dataclasses.replace(
                parse_command(bot_command(state, seat, rnd), None), seat=seat)
            try:
                made = rules.decide(state, command, dice)
            except rules.RuleViolation:
                continue
            for event in made:
                state = rules.evolve(state, event)
            events += made
            if not state.finished and any(
                e.type == "player_eliminated" and e.data["cards"] for e in made
            ):
                return events, state
    raise AssertionError("no elimination with cards in 50 bot games")


def test_it_never_shows_a_stranger_a_seat(table):
    alice, bob, dave = table.seats.values()
    game_id = new_game(alice, bob, dave, objective="missions")
    for client in table.watchers.values():
        view = client.get(game_url(game_id)).json()
        assert view["you"] is None
        assert all("mission" not in p and "hand" not in p for p in view["players"])
        missions = next(e for e in client.get(game_url(game_id, "events/")).json()["events"]
                        if e["type"] == "missions_dealt")
        assert missions["data"]["missions"] == [None, None, None]
    assert Event.objects.filter(game_id=game_id, type="missions_dealt").exists()


@pytest.mark.parametrize("fog", [False, True])
def test_it_tells_only_the_conqueror_of_the_occupation_it_owes(table, fog):
    """`pending` is the caller's own business: while the conqueror has not moved in, no one
    else learns from it where the conquest was or, from `max`, the source's armies."""
    alice, bob, dave = table.seats.values()
    game_id = new_game(alice, bob, dave, setup="random", fog=fog)
    state = play(game_id, table.seats, random.Random(5), until=lambda s: s.phase == "occupy")
    assert state.phase == "occupy" and not state.finished
    conqueror, occupation = state.current, state.occupation
    owed = {"from": occupation.source, "to": occupation.target, "min": occupation.minimum,
            "max": state.armies[occupation.source] - 1}
    for observer, client in table.observers():
        for query in ({}, {"at": state.version}):
            view = client.get(game_url(game_id), query).json()
            assert view["pending"]["occupy"] == (owed if observer == conqueror else None), (
                observer, query)
            if observer != conqueror:
                assert view["pending"] == {"reinforcements": 0, "must_trade": False,
                                           "occupy": None}, (observer, query)
