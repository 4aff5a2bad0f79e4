"""Recorded whole games (tests/games/regression/*.json) still replay to the same end.

Each file is {id, seed, rules, players, events, final_state, final_state_digest} as
make_regression_logs.py recorded it. Old games are never rewritten, so every engine or
store change must still replay them, through the Django store and through the pure engine,
to the very same final state with every die checking out.

The digest is taken of the final state in the shape it was recorded in: a field the engine
has gained since may be left out only while an old game leaves it at its default, which is
what an old snapshot (lacking it) loads as. Any other difference fails, with a diff.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from engine import Event as RulesEvent
from engine import replay, seed_hash, verify
from engine.maps import CLASSIC_FIRST_HASH, DEFAULT_MAP
from engine.options import Rules
from engine.state import GameState, Occupation, Player
from games.management.commands.verify_game import check_game
from games.models import Event, Game, Seat, Snapshot
from games.store import append, states
from tests import people

FOLDER = Path(__file__).resolve().parent / "regression"
LOGS = sorted(FOLDER.glob("*.json"))


def defaults(cls) -> dict:
    """A dataclass's fields that have a default, with it, as JSON has it."""
    found = {}
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            found[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            found[f.name] = f.default_factory()
    if cls is GameState:
        # The board is stored as its map and version: the logs were recorded before games
        # named theirs, on the classic map's first version, which they still replay on.
        del found["board"]
        found.update(map=DEFAULT_MAP, map_hash=CLASSIC_FIRST_HASH)
    return json.loads(json.dumps(found))


def as_recorded(now: dict, recorded: dict, cls=GameState) -> dict:
    """`now` without the fields `recorded` lacks that still hold their default."""
    kept = {k: v for k, v in now.items() if k in recorded or defaults(cls).get(k, now) != v}
    nested = {"players": Player, "rules": Rules, "occupation": Occupation}
    for key, inner in nested.items() if cls is GameState else ():
        value, old = kept.get(key), recorded.get(key)
        if isinstance(value, dict) and isinstance(old, dict):
            kept[key] = as_recorded(value, old, inner)
        elif isinstance(value, list) and isinstance(old, list) and len(value) == len(old):
            kept[key] = [as_recorded(v, o, inner) for v, o in zip(value, old, strict=True)]
    return kept


def digest(state_dict: dict) -> str:
    return hashlib.sha256(json.dumps(state_dict, sort_keys=True).encode()).hexdigest()


def differences(now: dict, recorded: dict, path="state") -> list[str]:
    if isinstance(now, dict) and isinstance(recorded, dict):
        return [line for key in sorted(set(now) | set(recorded))
                for line in differences(now.get(key, "<missing>"),
                                        recorded.get(key, "<missing>"), f"{path}.{key}")]
    if isinstance(now, list) and isinstance(recorded, list) and len(now) == len(recorded):
        return [line for i, (a, b) in enumerate(zip(now, recorded, strict=True))
                for line in differences(a, b, f"{path}[{i}]")]
    return [] if now == recorded else [f"{path}: now {now!r}, recorded {recorded!r}"]


def check_final_state(state, log: dict) -> None:
    recorded = log["final_state"]
    assert digest(recorded) == log["final_state_digest"], "the log's final state was edited"
    now = as_recorded(json.loads(json.dumps(state.to_dict())), recorded)
    assert digest(now) == log["final_state_digest"], "\n".join(
        ["the recorded game now ends in another state:"] + differences(now, recorded)[:20])


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def test_it_has_the_recorded_games():
    names = {path.stem for path in LOGS}
    assert {"missions_3p", "capitals_collapse_4p", "two_player_neutral",
            "claim_simultaneous_timeouts_3p"} <= names
    for path in LOGS:
        assert path.stat().st_size < 300_000, path.name
        log = load(path)
        assert {"id", "seed", "rules", "players", "events", "final_state",
                "final_state_digest"} <= set(log)


@pytest.mark.parametrize("path", LOGS, ids=lambda path: path.stem)
def test_it_replays_the_recorded_game_in_the_engine(path):
    log = load(path)
    events = [RulesEvent.from_dict(raw) for raw in log["events"]]
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    state = replay(events)
    assert state.finished
    assert (state.version, state.winner, state.finish_reason) == (
        log["final"]["version"], log["final"]["winner"], log["final"]["reason"])
    check_final_state(state, log)
    result = verify({"id": log["id"], "seed": log["seed"], "seed_hash": seed_hash(log["seed"]),
                     "events": log["events"]})
    assert result.ok, result.problems
    assert result.checked_draws > 0


@pytest.mark.django_db
@pytest.mark.parametrize("path", LOGS, ids=lambda path: path.stem)
def test_it_replays_the_recorded_game_through_the_store(path, settings, monkeypatch):
    settings.CONQUEST_SNAPSHOT_EVERY = 25
    log = load(path)
    users = people.users(*(f"player{seat}" for seat in range(log["players"])), email="")
    # The dice are keyed by the game id as the API shows it: the row must have that id.
    game = Game.objects.create(
        pk=log["id"], name=log["name"], creator=users[0], players=log["players"],
        rules=log["rules"], deadline_seconds=log["rules"]["deadline_seconds"], seed=log["seed"],
    )
    Seat.objects.bulk_create(Seat(game=game, seat=s, user=u) for s, u in enumerate(users))
    events = [RulesEvent.from_dict(raw) for raw in log["events"]]
    append.append(game, events, None, replay(events))

    game = Game.objects.get(pk=log["id"])
    assert game.status == Game.FINISHED and game.version == len(events)
    assert game.winner == log["final"]["winner"] and game.deadline is None
    assert Event.objects.filter(game=game).count() == len(events)
    check_final_state(states.load_state(game), log)

    out = StringIO()
    call_command("rebuild_snapshots", str(game.pk), stdout=out)
    assert Snapshot.objects.filter(game=game).count() == len(events) // 25
    check_final_state(states.load_state(game), log)
    middle = len(events) // 2
    assert states.load_state(game, upto=middle) == replay(events[:middle])

    assert check_game(game) == []
    out = StringIO()
    call_command("verify_game", str(game.pk), stdout=out)
    assert "every die checked against the revealed seed" in out.getvalue()

    Snapshot.objects.filter(game=game).delete()
    check_final_state(states.load_state(game), log)
