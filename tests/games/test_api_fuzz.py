"""The API fuzzed from its own OpenAPI schema (schemathesis): whatever a client sends, never a
5xx. Requests are signed in as a seated player of a running game whose turn it is, so
commands reach the rules; a few go to an open game and some to ids that do not exist."""

from __future__ import annotations

import hashlib
import itertools
import os
import random

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, Phase, seed, settings
from schemathesis.checks import not_a_server_error

from accounts import tokens
from engine.moves import seats_to_act
from games import service
from games.models import Game
from games.store.states import load_state
from lobby import open_games
from tests.engine.players import bot_command
from tests.games_in_states import open_game
from tests.people import players
from tests.sample import choose_seed

# Games the fuzzer plays in turn: each phase of the game, and the rule options that change
# what a command may carry.
RULES = [
    {"setup": "random"},
    {"setup": "claim"},
    {},
    {"setup": "random", "objective": "capitals", "neutral": False},
    {"initial_placement": "simultaneous", "placement_batch": 5},
    {"setup": "random", "fortify": "spread", "occupy_minimum": "one"},
    {"setup": "random", "fortify": "connected", "card_values": "fixed"},
]


def hash_of(text: str) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class Arena:
    """A running game where alice (seat 0) is to act, made anew when she cannot act any more;
    and an open game, for joining and starting."""

    def __init__(self):
        self.alice, self.bob = players(2, prefix="fuzz_", email="")
        self.token = tokens.issue(self.alice)
        self.rules = itertools.cycle(RULES)
        self.rnd = random.Random(2024)
        self.examples = itertools.count()
        self.game = self.open_game = None
        self.served = 0  # examples the running game has had

    def game_id_for_this_example(self) -> int | None:
        """Mostly the running game; every fifth example the open one, every seventh the id
        the fuzzer made up."""
        n = next(self.examples)
        if n % 7 == 6:
            return None
        if n % 5 == 4:
            return self.open_game_id()
        return self.running_game_id(advance=n % 3 == 0)

    def open_game_id(self) -> int:
        if self.open_game is None or Game.objects.get(pk=self.open_game.pk).status != "open":
            self.open_game = open_game(self.bob, 3, "Fuzz lobby")
        return self.open_game.pk

    def running_game_id(self, advance: bool) -> int:
        """The running game, after the bots moved for bob until alice is to act (and, now and
        then, for alice too, so that her turn goes through every phase). A new game, with the
        next rules, every 40 examples or when alice cannot act any more."""
        for _ in range(500):
            state = self.game and load_state(self.game)
            if state is None or state.finished or state.players[0].out or self.served >= 40:
                self.game = open_game(self.alice, 2, "Fuzz", rules=next(self.rules))
                open_games.join_game(self.game, self.bob)
                self.served = 0
                continue
            acting = seats_to_act(state)
            if 0 in acting and not advance:
                self.served += 1
                return self.game.pk
            seat = 0 if 0 in acting else acting[0]
            advance = False
            user = self.alice if seat == 0 else self.bob
            try:
                service.submit(service.player(user), self.game, bot_command(state, seat, self.rnd))
            except Exception:  # noqa: BLE001 - a refused bot move (an unconnected fortify)
                pass
        raise AssertionError("the arena's games do not come to alice")


@pytest.fixture
def keep_connection(db):
    """Django's WSGI handler must not close the test's database connection at the end of each
    request (Django's own test client disconnects the same receivers)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def arena(keep_connection):
    return Arena()


# Besides schemathesis's own boundary and type examples (the same every run, most of the
# calls), each operation gets this many random ones: another draw each run and each pass of
# .ci/run, from the run's seed (tests/sample.py), so runs add up to ever more of them;
# CONQUEST_FUZZ_EXAMPLES=1000 for a soak run.
EXAMPLES = int(os.environ.get("CONQUEST_FUZZ_EXAMPLES", "15"))
SEED = hash_of(f"{choose_seed()}:fuzz:{os.environ.get('CONQUEST_CI_PASS', '')}")

# Loaded when the module is collected: the schema view needs no database. (schemathesis's
# pytest.from_fixture does not run under this pytest: it sets a node attribute pytest 9 lacks.)
# The streams are left out: only the ASGI server serves them (WSGI answers 503 by design),
# and tests/live drives them.
schema = schemathesis.openapi.from_wsgi("/api/v1/schema/", get_wsgi_application()).exclude(
    path_regex=r"/stream/$")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=None, database=None,
    phases=[Phase.explicit, Phase.generate],  # no shrinking: a failure shows its request
    suppress_health_check=list(HealthCheck),
)
@seed(SEED)
def test_it_never_answers_a_server_error(case, arena):
    if "game_id" in (case.path_parameters or {}):
        game_id = arena.game_id_for_this_example()
        if game_id is not None:
            case.path_parameters["game_id"] = game_id
    response = case.call(headers={"Authorization": f"Token {arena.token}"})
    case.validate_response(response, checks=[not_a_server_error])
    assert response.status_code < 500, (response.status_code, response.text[:500])
