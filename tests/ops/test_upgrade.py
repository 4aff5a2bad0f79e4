"""An upgrade migrates a database holding games in progress: made at the schema before each
app's latest migration (the previous release's, as far as it differs), with the rows that
state's models write, they replay, verify and play on with the current code."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest
from django.apps import apps as installed
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

import engine as rules
from engine.fair import game_seed
from engine.moves import seats_to_act
from games import service
from games.management.commands.verify_game import check_game
from games.models import Game
from games.store.states import load_state
from games.upcasters import current_version
from tests.engine.players import bot_command

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
# Every app of the project's (a folder at its top) with migrations: one left out is stepped back with the others
# that it depends on and never migrated forward again (every later test meets its tables
# missing).
APPS = tuple(sorted(config.label for config in installed.get_app_configs()
                    if (ROOT / config.name.split(".")[0]).is_dir()
                    and (Path(config.path) / "migrations").is_dir()))


def latest() -> list[tuple[str, str]]:
    graph = MigrationExecutor(connection).loader.graph
    return [node for app in APPS for node in graph.leaf_nodes(app)]


def before_latest() -> list[tuple[str, str]]:
    """Each app at the parent of its newest migration, or further back where that parent
    needs a migration of another app that is stepped back (one plan, backwards only)."""
    graph = MigrationExecutor(connection).loader.graph

    def parent(key) -> str | None:
        parents = [p.key[1] for p in graph.node_map[key].parents if p.key[0] == key[0]]
        return parents[0] if parents else None

    newest = dict(latest())
    targets = {app: parent((app, name)) for app, name in newest.items()}
    while True:
        stepped_back = {node for app, name in newest.items()
                        for node in graph.forwards_plan((app, name)) if node[0] == app}
        stepped_back -= {node for app, name in targets.items() if name is not None
                         for node in graph.forwards_plan((app, name)) if node[0] == app}
        behind = {app: name for app, name in targets.items() if name is not None
                  and stepped_back & set(graph.forwards_plan((app, name)))}
        if not behind:
            return list(targets.items())
        for app, name in behind.items():
            targets[app] = parent((app, name))


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor


def game_in_progress(apps, number: int, moves: int) -> int:
    """A two-player game written with the historical models, its events made by the engine,
    as the previous release's write path stores them; returns its id."""
    User, Game, Seat, Event = (apps.get_model(*name.split(".")) for name in (
        "auth.User", "games.Game", "games.Seat", "games.Event"))
    players = [User.objects.create(username=f"old-{number}-{seat}", email=f"o{number}{seat}@x.org")
               for seat in range(2)]
    checked = rules.validate_rules({}, 2)
    seed = rules.new_seed()
    game = Game.objects.create(name=f"Before the upgrade {number}", creator=players[0], players=2,
                               rules=checked.to_dict(), seed=seed, seed_hash=rules.seed_hash(seed),
                               status="open")
    for seat, user in enumerate(players):
        Seat.objects.create(game=game, seat=seat, user=user)
    dice = rules.FairDice(game_seed(seed, None), str(game.pk))
    rnd = random.Random(number)
    events, state = rules.decide_and_apply(None, rules.StartGame(str(game.pk), 2, checked), dice)
    for _ in range(moves):
        seat = seats_to_act(state)[0]
        command = rules.parse_command(bot_command(state, seat, rnd), seat)
        more, state = rules.decide_and_apply(state, command, dice)
        events += more
    now = timezone.now()
    Event.objects.bulk_create([
        Event(game=game, seq=e.seq, type=e.type, data=e.data, actor=e.actor,
              user_id=None if e.actor is None else players[e.actor].pk,
              schema_version=current_version(e.type), created_at=now) for e in events])
    Game.objects.filter(pk=game.pk).update(
        status="active", version=state.version, phase=state.phase, turn=state.turn,
        current_seat=state.current, deadline=now + timedelta(days=1), started_at=now)
    return game.pk


def test_games_in_progress_before_the_latest_migrations_play_on_after_them():
    executor = migrate(before_latest())
    try:
        # (An app stepped back to None, before its first migration, is not in that state.)
        old = executor.loader.project_state(
            [node for node in before_latest() if node[1] is not None]).apps
        made = [game_in_progress(old, number, moves) for number, moves in
                enumerate((0, 5, 40, 120))]
    finally:
        migrate(latest())

    for game_id in made:
        game = Game.objects.get(pk=game_id)
        assert check_game(game) == [], game_id
        state = load_state(game)
        assert state.version == game.version and not state.finished
        # It plays on: each seat's next command is accepted, and the whole log, the dice of
        # the moves made before the upgrade among them, verifies once it is over.
        seat = seats_to_act(state)[0]
        user = game.seats.get(seat=seat).user
        service.submit(service.player(user), game, bot_command(state, seat, random.Random(7)),
                     state.version)
        service.submit(service.player(user), Game.objects.get(pk=game_id), {"type": "resign"})
        game = Game.objects.get(pk=game_id)
        assert game.status == Game.FINISHED
        assert check_game(game) == [], game_id
