"""bench_partitions' partitioned event log (benchmarks.partitioned): its DDL, made from the
migrated games_event, holds the store's rules, and games.store.append's statement works on it."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from benchmarks import partitioned
from tests.games.support import only_on_postgresql
from tests.games_in_states import started_game
from tests.people import players

pytestmark = [pytest.mark.django_db,
              only_on_postgresql("PostgreSQL's declarative partitioning")]
TABLE = partitioned.PARTITIONED


def events(first: int, count: int) -> list[dict]:
    now = timezone.now()
    return [{"seq": seq, "type": "reinforced", "data": {"territory": "alaska", "armies": 1},
             "actor": 0, "user_id": None, "schema_version": 1, "created_at": now}
            for seq in range(first, first + count)]


def append(game, expected: int, records: list[dict]) -> None:
    partitioned.append(TABLE, game.pk, expected, records, {"version": expected + len(records)})


def test_it_appends_and_reads_a_game_in_its_own_partition():
    game = started_game(players(2, email=""))
    partitioned.make([game.pk + 1])
    append(game, game.version, events(1, 3))
    append(game, game.version + 3, events(4, 2))
    assert [row[0] for row in partitioned.read(TABLE, game.pk, 2)] == [3, 4, 5]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {TABLE}_0 WHERE game_id = %s", [game.pk])
        assert cursor.fetchone()[0] == 5
        cursor.execute(f"SELECT count(*) FROM {TABLE}_1")
        assert cursor.fetchone()[0] == 0


def test_it_refuses_a_stale_append_a_taken_seq_and_a_gap_as_the_store_does():
    game = started_game(players(2, email=""))
    partitioned.make([game.pk + 1])
    append(game, game.version, events(1, 3))
    for expected, records in ((game.version, events(4, 1)),  # the row moved on
                              (game.version + 3, events(3, 1)),  # seq 3 is taken
                              (game.version + 3, events(5, 1))):  # seq 4 is missing
        with pytest.raises(IntegrityError), transaction.atomic():
            append(game, expected, records)
    # Below the gapless guard, the unique (game, seq) rule itself, which holds across a
    # partitioned table because it contains the partition key.
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {TABLE} DISABLE TRIGGER games_event_gapless")
        with pytest.raises(IntegrityError), transaction.atomic():
            append(game, game.version + 3, events(3, 1))
        with pytest.raises(IntegrityError), transaction.atomic():
            cursor.execute(f"UPDATE {TABLE} SET type = 'x'")  # append-only, as games_event
    assert [row[0] for row in partitioned.read(TABLE, game.pk, 0)] == [1, 2, 3]
