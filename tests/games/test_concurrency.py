"""Many writers race commands into one game: each accepted command lands exactly once, the
log stays 1..N without a gap, and every loser is told the game moved on.

PostgreSQL only: SQLite takes one writer at a time, so nothing would race.
"""

from __future__ import annotations

import random
import threading
import traceback
from collections import Counter
from dataclasses import dataclass, field

import pytest
from django.db import connections

import engine as rules
from engine.errors import GameNotActive
from engine.moves import seats_to_act
from games import service
from games.management.commands.verify_game import check_game
from games.models import Event, Game
from games.store.append import VersionConflict
from games.store.log import stored_events
from games.store.row import dice_for
from games.store.states import load_state
from tests.engine.players import bot_command
from tests.games.support import only_on_postgresql
from tests.games_in_states import started_game
from tests.people import players

pytestmark = [
    only_on_postgresql("SQLite lets one writer in at a time, so nothing would race"),
    pytest.mark.django_db(transaction=True),
]

WRITERS = 8
COMMANDS = 200  # tried by each writer


@dataclass
class Writer:
    """What one thread saw: the commands it got in, and every refusal."""

    number: int
    accepted: list = field(default_factory=list)  # (version seen, seat, [seqs])
    conflicts: int = 0
    refused: list = field(default_factory=list)  # (version seen, seat, payload, error)
    crashed: str | None = None


def race(game_id: int, users: list, writer: Writer, start: threading.Barrier) -> None:
    rnd = random.Random(writer.number)
    try:
        start.wait()
        for _ in range(COMMANDS):
            game = Game.objects.get(pk=game_id)
            if game.status != Game.ACTIVE:
                break
            state = load_state(game)
            # Any writer plays for any seat the game waits for: they race on one version.
            seat = rnd.choice(seats_to_act(state))
            payload = bot_command(state, seat, rnd)
            try:
                done = service.submit(service.player(users[seat]), game, payload, state.version)
            except VersionConflict:
                writer.conflicts += 1
            except rules.RuleViolation as refusal:
                writer.refused.append((state.version, seat, payload, refusal))
            else:
                writer.accepted.append((state.version, seat, [e.seq for e in done.events]))
    except BaseException:  # noqa: B036 - reported by the test, which must not hang
        writer.crashed = traceback.format_exc()
    finally:
        connections.close_all()


def test_it_applies_each_racing_command_exactly_once():
    users = players(6, email="")
    game = started_game(users, placement_batch=3)
    started_version = game.version
    writers = [Writer(number) for number in range(WRITERS)]
    start = threading.Barrier(WRITERS)
    threads = [threading.Thread(target=race, args=(game.pk, users, w, start)) for w in writers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a writer hangs"
    assert [w.crashed for w in writers if w.crashed] == []

    game.refresh_from_db()
    events = stored_events(game)
    final = game.version
    accepted = [a for w in writers for a in w.accepted]
    conflicts = sum(w.conflicts for w in writers)
    refused = [r for w in writers for r in w.refused]
    assert accepted and conflicts, "the writers did not race"

    # Every accepted command is in the log once, right after the version it was made for.
    assert [e.seq for e in events] == list(range(1, final + 1))
    landed = sorted(seq for _, _, seqs in accepted for seq in seqs)
    assert landed == list(range(started_version + 1, final + 1))
    rows = dict(Event.objects.filter(game=game).values_list("seq", "user_id"))
    for seen, seat, seqs in accepted:
        assert seqs == list(range(seen + 1, seen + 1 + len(seqs)))
        assert {rows[seq] for seq in seqs} == {users[seat].pk}

    # Staleness is checked first (docs/bots/contract.md), so a racing loser gets 409; the only other
    # refusal is a game that ended meanwhile. Each refused command was legal where it was
    # made.
    assert {type(r[3]) for r in refused} <= {GameNotActive}, [
        (seen, seat, payload, repr(error)) for seen, seat, payload, error in refused
        if type(error) is not GameNotActive
    ]
    dice = dice_for(game)
    by_version = sorted(refused, key=lambda r: r[0])
    state, position = None, 0
    for seen, seat, payload, error in by_version:
        assert seen < final, (seen, payload, error)
        while position < seen:
            state = rules.evolve(state, events[position])
            position += 1
        rules.decide(state, rules.parse_command(payload, seat), dice)  # raises if it was not

    assert load_state(game) == rules.replay(events)
    assert check_game(game) == []
    outcomes = Counter({"201": len(accepted), "409": conflicts})
    outcomes.update(type(error).__name__ for _, _, _, error in refused)
    print(f"{final - started_version} events from {dict(outcomes)}")
