"""The event store: gapless seqs, the Game projection, optimistic concurrency, append-only
rows (in the ORM and below it), disposable snapshots, the maintenance commands, upcasters."""

from __future__ import annotations

import dataclasses
import random
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.db.models import ProtectedError
from django.test.utils import CaptureQueriesContext

import engine as rules
from engine import replay
from engine.moves import clock_key, seats_to_act
from games import service, upcasters
from games.models import Event, Game, Snapshot
from games.store import append, log, states
from games.store.append import VersionConflict
from games.store.log import stored_events
from games.store.row import dice_for, load_game
from games.store.seats import read_seats
from games.store.states import ENGINE_VERSION, load_state, rebuild_snapshots
from lib import sql
from lobby import open_games
from tests.engine.players import bot_command
from tests.games.support import only_on_postgresql, play, play_one
from tests.games_in_states import finish, open_game, started_game
from tests.people import players

pytestmark = pytest.mark.django_db


@pytest.fixture
def two(db):
    """alice and bob, without an address (a store test mails nobody)."""
    return players(2, email="")


@pytest.fixture
def game(two):
    return started_game(two, placement_batch=10)


def seqs(game) -> list[int]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))


def decided(game, state, rnd):
    """The events a bot command would make against `state`, and the state after them."""
    seat = seats_to_act(state)[0]
    command = rules.parse_command(bot_command(state, seat, rnd), seat)
    events = rules.decide(state, command, dice_for(game))
    return events, replay(events, state.copy())


# ---- appending -------------------------------------------------------------------------
def test_it_numbers_the_events_one_to_n_without_gaps(game, two):
    assert seqs(game) == list(range(1, game.version + 1))
    version = game.version
    for done in play(game, two, random.Random(1), 40):
        assert [e.seq for e in done.events] == list(
            range(version + 1, version + 1 + len(done.events)))
        version = done.state.version
        assert version == done.events[-1].seq
    assert version == game.version > 40
    assert seqs(game) == list(range(1, game.version + 1))
    assert [e.seq for e in stored_events(game)] == seqs(game)


def test_it_projects_every_append_onto_the_game(game, two):
    rnd = random.Random(2)
    row = Game.objects.get(pk=game.pk)
    assert row.started_at is not None and row.deadline is not None
    before = load_state(game)
    for moves in range(400):
        if moves == 150:  # long enough: one resignation ends a two-player game
            done = service.submit(service.player(two[before.current]), game, {"type": "resign"})
        else:
            earliest = row.deadline  # only a new decision may move the clock
            from_now = timedelta(seconds=game.deadline_seconds)
            before_call = append.timezone.now()
            done = play_one(game, two, rnd)
            after_call = append.timezone.now()
        after = done.state
        row = Game.objects.get(pk=game.pk)
        assert row.version == after.version
        assert row.turn == after.turn
        assert row.current_seat == after.current
        assert row.winner == after.winner
        assert row.phase == ("setup" if after.phase == "setup_done" else after.phase)
        if after.finished:
            assert row.status == Game.FINISHED
            assert row.deadline is None and row.finished_at is not None
            break
        assert row.status == Game.ACTIVE
        if clock_key(before) == clock_key(after):
            assert row.deadline == earliest
        else:
            assert before_call + from_now <= row.deadline <= after_call + from_now
        before = after
    assert row.status == Game.FINISHED and row.winner is not None


def test_it_refuses_an_append_against_a_stale_state(game):
    rnd = random.Random(3)
    stale = load_state(game)
    first, after_first = decided(game, stale, rnd)
    append.append(game, first, stale, after_first)
    count, version = Event.objects.count(), Game.objects.get(pk=game.pk).version

    second, after_second = decided(game, stale, rnd)
    with pytest.raises(VersionConflict) as conflict:
        append.append(game, second, stale, after_second)
    assert conflict.value.current_version == version
    assert Event.objects.count() == count
    assert Game.objects.get(pk=game.pk).version == version
    assert load_state(game) == after_first


def test_it_refuses_a_stale_append_in_a_callers_transaction_which_goes_on(game):
    """In a transaction of the caller's (the deadline sweep commits several games in one),
    a lost race rolls back that append alone and says the version; the caller's earlier
    writes stay, and the transaction takes the next append."""
    rnd = random.Random(5)
    stale = load_state(game)
    first, after_first = decided(game, stale, rnd)
    with transaction.atomic():
        append.append(game, first, stale, after_first)
        second, after_second = decided(game, stale, rnd)
        with pytest.raises(VersionConflict) as conflict:
            append.append(game, second, stale, after_second)
        assert conflict.value.current_version == after_first.version
        third, after_third = decided(game, after_first, rnd)
        append.append(game, third, after_first, after_third)
    assert Game.objects.get(pk=game.pk).version == after_third.version
    assert load_state(game) == after_third


def test_it_refuses_a_stale_expected_version_and_applies_nothing(game, two):
    stale = load_state(game)
    seat = seats_to_act(stale)[0]
    payload = bot_command(stale, seat, random.Random(4))
    service.submit(service.player(two[seat]), game, payload, stale.version)
    count, version = Event.objects.count(), game.version
    with pytest.raises(VersionConflict) as conflict:
        service.submit(service.player(two[seat]), game, {"type": "set_defense", "policy": "one"}, stale.version)
    assert conflict.value.current_version == version
    assert Event.objects.count() == count and game.version == version
    assert load_state(game).players[seat].defense == "max"


def test_it_keeps_the_new_deadline_when_an_older_copy_of_the_game_submits(two):
    """A Game object read before someone else's move must not put back the deadline it
    had: the clock of the new decision is the one that counts."""
    game = started_game(two, placement_batch=50)  # the whole setup in one placement each
    old_copy = Game.objects.get(pk=game.pk)
    rnd = random.Random(5)
    while load_state(game).phase != "attack":
        play_one(game, two, rnd)
    new_deadline = Game.objects.get(pk=game.pk).deadline
    assert new_deadline != old_copy.deadline
    state = load_state(game)
    service.submit(service.player(two[state.current]), old_copy, {"type": "set_defense", "policy": "one"},
                    state.version)
    assert clock_key(load_state(game)) == clock_key(state)
    assert Game.objects.get(pk=game.pk).deadline == new_deadline


# ---- append-only -----------------------------------------------------------------------
def test_it_refuses_to_change_or_delete_events_through_the_orm(game):
    event = Event.objects.filter(game=game).order_by("seq").first()
    event.type = "forged"
    with pytest.raises(PermissionError):
        event.save()
    with pytest.raises(PermissionError):
        event.delete()
    with pytest.raises(PermissionError):
        Event.objects.filter(game=game).update(type="forged")
    with pytest.raises(PermissionError):
        Event.objects.filter(game=game).delete()
    with pytest.raises(PermissionError):
        game.events.all().delete()
    with pytest.raises(PermissionError), transaction.atomic():  # bulk_update's own atomic
        Event.objects.bulk_update([event], ["type"])  # has no savepoint: give it one
    with pytest.raises(ProtectedError) as protected:
        Game.objects.get(pk=game.pk).delete()
    assert any(isinstance(row, Event) for row in protected.value.protected_objects)
    assert Event.objects.get(pk=event.pk).type == "game_started"
    assert seqs(game) == list(range(1, game.version + 1))


def test_it_refuses_a_raw_sql_update_of_an_event(game):
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("UPDATE games_event SET type = %s WHERE game_id = %s",
                           ["forged", game.pk])
    assert not Event.objects.filter(type="forged").exists()
    assert load_state(game) == replay(stored_events(game))


def test_events_have_no_index_of_the_game_alone_and_games_leave_room_for_updates(db):
    """Every command inserts events and updates its game's row: an index the (game, seq)
    index already serves costs each insert for nothing, and on PostgreSQL a full page
    makes each update touch every index of the games' table (games 0009)."""
    with connection.cursor() as cursor:
        indexes = connection.introspection.get_constraints(cursor, Event._meta.db_table)
        event_indexes = [c["columns"] for c in indexes.values() if c["index"] or c["unique"]]
        if connection.vendor == "postgresql":
            cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s",
                           [Game._meta.db_table])
            assert cursor.fetchone()[0] == ["fillfactor=70"]
    assert ["game_id"] not in event_indexes
    assert ["game_id", "seq"] in event_indexes and ["game_id", "type"] in event_indexes


def test_it_refuses_a_raw_sql_delete_of_an_event(game):
    count = Event.objects.filter(game=game).count()
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("DELETE FROM games_event WHERE game_id = %s", [game.pk])
    assert Event.objects.filter(game=game).count() == count


def test_it_refuses_a_raw_sql_delete_of_every_event(game):
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("DELETE FROM games_event")
    assert Event.objects.filter(game=game).exists()


@pytest.mark.parametrize("gap", [0, 2, 5])
def test_it_refuses_an_event_that_does_not_follow_the_last_one(game, gap):
    last = Event.objects.filter(game=game).order_by("-seq").first()
    with pytest.raises(DatabaseError, match="seq must follow"):
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(
                "INSERT INTO games_event (game_id, seq, type, data, schema_version, created_at)"
                " VALUES (%s, %s, 'forged', '{}', 1, %s)",
                [game.pk, last.seq + gap, last.created_at],
            )
    assert not Event.objects.filter(type="forged").exists()


def test_it_keeps_every_log_gapless(played):
    seqs = list(Event.objects.filter(game=played).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))


# ---- snapshots -------------------------------------------------------------------------
@pytest.fixture
def played(game, two, settings):
    """A game some 250 events long, with a snapshot every 10 events."""
    settings.CONQUEST_SNAPSHOT_EVERY = 10
    rnd = random.Random(6)
    while game.version < 250 and game.status == Game.ACTIVE:
        play_one(game, two, rnd)
    return game


def test_it_takes_snapshots_as_the_game_goes(played):
    taken = list(Snapshot.objects.filter(game=played).order_by("seq").values_list("seq", flat=True))
    # One by each append that crossed a multiple of 10 (a command may make many events).
    assert len(taken) >= 10
    assert len({seq // 10 for seq in taken}) == len(taken)
    events = stored_events(played)
    for snapshot in Snapshot.objects.filter(game=played):
        assert rules.GameState.from_dict(snapshot.state) == replay(events[:snapshot.seq])


def test_it_loads_the_same_state_at_every_version_with_or_without_snapshots(played):
    events = stored_events(played)
    whole = load_state(played)
    assert whole == replay(events)
    for upto in range(1, played.version + 1):
        assert load_state(played, upto=upto) == replay(events[:upto]), upto
    Snapshot.objects.filter(game=played).delete()
    assert load_state(played) == whole
    for upto in range(1, played.version + 1, 7):
        assert load_state(played, upto=upto) == replay(events[:upto]), upto


def test_it_ignores_snapshots_of_another_engine_version(played):
    whole = load_state(played)
    Snapshot.objects.filter(game=played).delete()
    Snapshot.objects.create(game=played, seq=played.version, state={"not": "a state"},
                            engine_version=ENGINE_VERSION - 1)
    assert load_state(played) == whole


def test_it_rebuilds_snapshots_from_a_full_replay(played):
    events = stored_events(played)
    Snapshot.objects.filter(game=played).delete()
    Snapshot.objects.create(game=played, seq=10, state=replay(events[:9]).to_dict())  # wrong
    other = started_game(players(2, prefix="other-", email=""))
    out = StringIO()
    call_command("rebuild_snapshots", str(played.pk), stdout=out)
    expected = list(range(10, played.version + 1, 10))
    assert out.getvalue().strip() == (
        f"game {played.pk}: {len(expected)} snapshots from {played.version} events")
    snapshots = Snapshot.objects.filter(game=played).order_by("seq")
    assert [s.seq for s in snapshots] == expected
    for snapshot in snapshots:
        assert rules.GameState.from_dict(snapshot.state) == replay(events[:snapshot.seq])
    assert not Snapshot.objects.filter(game=other).exists()

    out = StringIO()
    call_command("rebuild_snapshots", stdout=out)  # every game that has events
    assert f"game {other.pk}: 0 snapshots from {other.version} events" in out.getvalue()
    assert rebuild_snapshots(played) == len(expected)


def test_it_rebuilds_snapshots_while_the_game_goes_on(played, two, monkeypatch):
    """A move that lands (with its snapshot) while the rebuild runs must not break it."""
    rnd = random.Random(8)
    while played.version % 10 != 9:
        play_one(played, two, rnd)
    read_log, moves = log.stored_events, []

    def a_move_lands_first(game, *args, **kwargs):
        if not moves:  # the rebuild's read of the log: one move (and snapshot) lands first
            moves.append(played.version + 1)
            seat = load_state(played).current
            service.submit(service.player(two[seat]), played, {"type": "set_defense", "policy": "one"})
            assert Snapshot.objects.filter(game=played, seq=played.version).exists()
        return read_log(game, *args, **kwargs)

    monkeypatch.setattr(states, "stored_events", a_move_lands_first)
    made = rebuild_snapshots(played)
    monkeypatch.undo()
    assert moves == [played.version] and played.version % 10 == 0
    assert list(Snapshot.objects.filter(game=played).order_by("seq").values_list(
        "seq", flat=True)) == list(range(10, played.version + 1, 10))
    assert made == played.version // 10
    events = stored_events(played)
    for snapshot in Snapshot.objects.filter(game=played):
        assert rules.GameState.from_dict(snapshot.state) == replay(events[:snapshot.seq])
    assert load_state(played) == replay(events)


# ---- verify_game -----------------------------------------------------------------------
def verify_game(game) -> str:
    out = StringIO()
    call_command("verify_game", str(game.pk), stdout=out, stderr=StringIO())
    return out.getvalue()


def problems_of(game) -> str:
    err = StringIO()
    with pytest.raises(CommandError, match=f"game {game.pk}: .* problem"):
        call_command("verify_game", str(game.pk), stdout=StringIO(), stderr=err)
    return err.getvalue()


def test_it_verifies_a_running_game(played):
    assert "replay cleanly; dice are checked once the game is over" in verify_game(played)


def test_it_finds_a_tampered_snapshot(played):
    events = stored_events(played)
    Snapshot.objects.create(game=played, seq=15, state=replay(events[:14]).to_dict(),
                            engine_version=ENGINE_VERSION)
    assert "snapshot at 15 differs from the replay" in problems_of(played)


def test_it_finds_a_projection_that_disagrees_with_the_log(played):
    Game.objects.filter(pk=played.pk).update(turn=999)
    assert "projection turn is 999" in problems_of(played)


def test_it_cannot_even_write_a_gap_for_verify_game_to_find(played):
    # verify_game still looks for gaps (a log restored from elsewhere); the database itself
    # refuses to store one.
    seat = load_state(played).current
    with pytest.raises(DatabaseError, match="seq must follow"), transaction.atomic():
        Event.objects.create(game=played, seq=played.version + 2, type="defense_set",
                             data={"seat": seat, "policy": "one"}, actor=seat)
    assert not Event.objects.filter(game=played, seq=played.version + 2).exists()


def test_it_checks_every_die_of_a_finished_game(game, two):
    play(game, two, random.Random(7), 60)
    finish(game)
    assert "every die checked against the revealed seed" in verify_game(game)
    # Another seed (with its own hash, so only the draws can give it away).
    other = "ab" * 32
    Game.objects.filter(pk=game.pk).update(seed=other, seed_hash=rules.seed_hash(other))
    assert "does not match the seed's draws" in problems_of(game)


def test_it_checks_the_dice_of_a_game_with_the_players_entropy(two):
    game = open_game(two[0], 2, "Mixed", rules={"placement_batch": 10}, entropy="e0")
    open_games.join_game(game, two[1], entropy="e1")
    game.refresh_from_db()
    assert game.contributions == ["e0", "e1"]
    play(game, two, random.Random(7), 40)
    finish(game)
    assert "every die checked against the revealed seed" in verify_game(game)
    # The row's contributions must be those game_started lists.
    Game.objects.filter(pk=game.pk).update(contributions=["e0", "e2"])
    assert "contributions are not those game_started lists" in problems_of(game)


def test_it_says_so_when_there_is_no_such_game(db):
    with pytest.raises(CommandError, match="no game 999999"):
        call_command("verify_game", "999999")


# ---- upcasters -------------------------------------------------------------------------
def old_defense_event(game, version: int):
    """A defense_set row as an older engine wrote it: the policy was called "defense"."""
    seat = load_state(game).current
    Event.objects.create(game=game, seq=game.version + 1, type="defense_set",
                         data={"seat": seat, "defense": "one"}, actor=seat,
                         schema_version=version)
    return seat


def rename_defense(data: dict) -> dict:
    return {"seat": data["seat"], "policy": data["defense"]}


def test_it_upcasts_old_events_on_read(game, monkeypatch):
    monkeypatch.setitem(upcasters.UPCASTERS, ("defense_set", 0), rename_defense)
    seat = old_defense_event(game, version=0)
    stored = stored_events(game)[-1]
    assert stored.data == {"seat": seat, "policy": "one"}
    assert load_state(game).players[seat].defense == "one"
    assert Event.objects.get(game=game, seq=stored.seq).data == {"seat": seat, "defense": "one"}


def test_it_upcasts_through_every_step_and_writes_the_current_version(game, two, monkeypatch):
    monkeypatch.setitem(upcasters.SCHEMA_VERSIONS, "defense_set", 2)
    monkeypatch.setitem(upcasters.UPCASTERS, ("defense_set", 0), rename_defense)
    monkeypatch.setitem(upcasters.UPCASTERS, ("defense_set", 1),
                        lambda data: {**data, "chosen": "by the player"})
    seat = old_defense_event(game, version=0)
    assert stored_events(game)[-1].data == {
        "seat": seat, "policy": "one", "chosen": "by the player"}
    game.refresh_from_db()
    game.version += 1  # the row above went in below the store
    Game.objects.filter(pk=game.pk).update(version=game.version)
    done = service.submit(service.player(two[seat]), game, {"type": "set_defense", "policy": "max"})
    row = Event.objects.get(game=game, seq=done.events[0].seq)
    assert row.schema_version == 2 and row.data == {"seat": seat, "policy": "max"}
    assert stored_events(game, after=game.version - 1)[0].data == {"seat": seat, "policy": "max"}


def test_it_refuses_an_event_it_has_no_upcaster_for(game):
    old_defense_event(game, version=0)
    with pytest.raises(LookupError, match="no upcaster for defense_set v0"):
        stored_events(game)
    with pytest.raises(LookupError):
        upcasters.upcast("defense_set", 0, {"seat": 0, "defense": "one"})


# ---- the recent states this process remembers -------------------------------------------
def fresh(game) -> Game:
    return Game.objects.get(pk=game.pk)


def test_it_remembers_a_committed_move_and_loads_it_without_reading(
        game, two, django_capture_on_commit_callbacks, django_assert_num_queries):
    """Guards `make bench` figure c, "remembered by the process": no statement at all."""
    with django_capture_on_commit_callbacks(execute=True):
        play(game, two, random.Random(5), 6)
    game = fresh(game)

    with django_assert_num_queries(0):
        state = load_state(game)

    assert state == replay(stored_events(game)) and state.version == game.version


def test_it_hands_out_copies_of_what_it_remembers(
        game, two, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        play(game, two, random.Random(5), 3)
    game = fresh(game)

    spoiled = load_state(game)
    spoiled.armies["alaska"] = 999
    spoiled.players[0].cards.append(43)

    assert load_state(game) == replay(stored_events(game))


def test_it_forgets_a_move_whose_transaction_rolled_back(
        game, two, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        play(game, two, random.Random(5), 2)
    kept = fresh(game).version
    with django_capture_on_commit_callbacks(execute=True):
        with pytest.raises(RuntimeError), transaction.atomic():
            play(game, two, random.Random(6), 1)
            undone = fresh(game)
            raise RuntimeError("undo")

    assert fresh(game).version == kept < undone.version
    # Had the undone state been kept, a row showing its version (a different move that
    # lands there next) would be handed the undone state.
    assert states.recall(undone) is None
    assert load_state(fresh(game)) == replay(stored_events(game))


def test_it_reads_the_log_when_the_row_shows_another_version(
        game, two, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        play(game, two, random.Random(5), 4)
    older = fresh(game)
    older.version -= 1  # a copy of the row read before the last move

    with CaptureQueriesContext(connection) as queries:
        state = load_state(older)

    assert queries.captured_queries, "it trusted what it remembers"
    assert state == replay(stored_events(game))


def test_it_catches_a_remembered_state_up_with_the_events_since(
        game, two, django_capture_on_commit_callbacks, django_assert_num_queries):
    """Another process moved: this one replays just the events since what it remembers."""
    with django_capture_on_commit_callbacks(execute=True):
        play(game, two, random.Random(5), 2)
    remembered = load_state(fresh(game))
    with django_capture_on_commit_callbacks(execute=True):
        play(game, two, random.Random(6), 3)
    states.forget_recent()
    with django_capture_on_commit_callbacks(execute=True):
        states.remember(fresh(game), remembered)  # as if the last moves were made elsewhere
    game = fresh(game)
    assert remembered.version < game.version

    with CaptureQueriesContext(connection) as queries, \
            django_capture_on_commit_callbacks(execute=True):
        state = load_state(game)  # the events since, no snapshot

    assert queries.captured_queries
    assert not any(Snapshot._meta.db_table in query["sql"]
                   for query in queries.captured_queries)
    assert state == replay(stored_events(game))
    with django_assert_num_queries(0):  # and it now remembers the newer state
        assert load_state(game) == state


def test_it_reads_afresh_when_the_remembered_state_is_far_behind(
        game, two, settings, django_capture_on_commit_callbacks):
    settings.CONQUEST_SNAPSHOT_EVERY = 2
    remembered = load_state(fresh(game))
    with django_capture_on_commit_callbacks(execute=True):
        play(game, two, random.Random(5), 4)
    states.forget_recent()
    with django_capture_on_commit_callbacks(execute=True):
        states.remember(fresh(game), remembered)
    game = fresh(game)
    assert game.version - remembered.version > 2

    with CaptureQueriesContext(connection) as queries:
        state = load_state(game)
    # from the newest snapshot, not by replaying every event since the remembered state
    assert any(Snapshot._meta.db_table in query["sql"] for query in queries.captured_queries)
    assert state == replay(stored_events(game))


def test_it_reads_the_game_with_its_seats_in_one_query(game, two, django_assert_num_queries):
    """Guards `make bench` figure a (a command's latency within 2x of the floor): every
    command reads its game, seats and digest takers in this one statement."""
    from accounts.models import Preferences
    from notifications.outbox import digest_takers

    Preferences.objects.update_or_create(user=two[1], defaults={"turn_mail": "digest"})
    with django_assert_num_queries(1):
        row, seats, state = load_game(game.pk)
        # and who of them takes a daily digest, which nearly every command's mail asks
        takers = digest_takers(seats, [user.pk for user in two])
    assert seats.rows == tuple((n, user.pk, user.username, None) for n, user in enumerate(two))
    assert takers == {two[1].pk} and state is None
    # The seats alone (a page that has the row, a lobby change done): the same value, with
    # its flags, in one query of its own; nothing was kept on the row.
    with django_assert_num_queries(1):
        assert read_seats(row) == seats
        assert digest_takers(seats, [user.pk for user in two]) == {two[1].pk}
    assert {f.attname: getattr(row, f.attname) for f in Game._meta.concrete_fields} == {
        f.attname: getattr(fresh(game), f.attname) for f in Game._meta.concrete_fields}
    assert load_game(game.pk + 1000) is None
    assert load_game(2**70) is None


def api_commands(game, users):
    """A function that makes the next bot command of `game`, ready to send through the API
    with its player's token."""
    from rest_framework.test import APIClient

    from accounts import tokens

    clients = []
    for user in users:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {tokens.issue(user)}")
        clients.append(client)
    rnd = random.Random(3)

    def command():
        state = load_state(fresh(game))
        seat = seats_to_act(state)[0]
        payload = bot_command(state, seat, rnd) | {"expected_version": state.version}
        return lambda: clients[seat].post(f"/api/v1/games/{game.pk}/commands/", payload,
                                          format="json")

    return command, clients


@only_on_postgresql("an append outside any transaction is one statement there")
@pytest.mark.django_db(transaction=True)
def test_an_api_command_is_two_statements_the_token_with_the_game_then_the_append(
        two, django_assert_num_queries):
    """Guards `make bench` figures a and b (a command's latency within 2x of the floor, and
    commands per second under load at least half the floor's)."""
    from rest_framework.test import APIClient

    game = started_game(two, placement_batch=10)
    command, clients = api_commands(game, two)
    assert command()().status_code == 201  # this process now remembers the newest state
    send = command()
    with django_assert_num_queries(2) as queries:
        answer = send()
    assert answer.status_code == 201, answer.content
    first, second = (query["sql"] for query in queries.captured_queries)
    assert first.startswith("SELECT") and "LEFT JOIN" in first and "digest" in first
    assert second.startswith("WITH moved AS (UPDATE")
    assert answer.json()["version"] == fresh(game).version

    # Another process moved last: the events since the state this one remembers come
    # with the token and the game, not in a statement of their own.
    behind = states.recall(fresh(game))
    assert command()().status_code == 201
    states.forget_recent()
    states.remember(game, behind)
    send = command()
    with django_assert_num_queries(2) as queries:
        answer = send()
    assert answer.status_code == 201, answer.content
    assert answer.json()["version"] == fresh(game).version == behind.version + 2

    # A token for another game's URL, an unknown game, a bad token: as before.
    assert clients[0].get(f"/api/v1/games/{game.pk + 1000}/").status_code == 404
    stranger = APIClient()
    stranger.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    assert stranger.get(f"/api/v1/games/{game.pk}/").status_code == 401
    view = clients[1].get(f"/api/v1/games/{game.pk}/").json()
    assert view["version"] == fresh(game).version and view["you"]["seat"] == 1


@pytest.mark.django_db(transaction=True)  # (states are remembered once committed)
def test_a_state_another_process_moved_on_is_caught_up_with_what_the_token_read(
        two, monkeypatch):
    game = started_game(two, placement_batch=10)
    command, clients = api_commands(game, two)
    assert command()().status_code == 201
    behind = states.recall(fresh(game))
    for _ in range(3):
        assert command()().status_code == 201
    states.forget_recent()
    states.remember(game, behind)  # as if another process made the last three
    send = command()
    monkeypatch.setattr(states, "stored_events", lambda *args: pytest.fail("read apart"))
    answer = send()
    assert answer.status_code == 201, answer.content
    monkeypatch.undo()
    assert answer.json()["version"] == fresh(game).version == behind.version + 4
    # what this process remembers now is the newest state, caught up from what it had
    assert states.remembered_version(game.pk) == fresh(game).version
    assert states.recall(fresh(game)) == replay(stored_events(game)) == load_state(fresh(game))


@pytest.mark.parametrize("setup", ["claim", "deal"])
def test_it_deals_in_whoever_joined_after_the_game_was_read(setup):
    """The seats read with the game are not trusted by start: a join may land between."""
    from notifications.models import Notification

    creator, second, third = players(3, email="")
    game = open_game(creator, 4, "Late joiner", rules={"setup": setup})
    open_games.join_game(fresh(game), second)
    read = load_game(game.pk)
    assert len(read.seats) == 2
    open_games.join_game(fresh(game), third)

    open_games.start_game(read.game, creator)

    state = load_state(fresh(game))
    assert state.seats == 3
    # Each player hears it started but the creator, who started it.
    started = Notification.objects.filter(game=game, kind=Notification.STARTED)
    assert {row.user_id for row in started} == {second.pk, third.pk}


@only_on_postgresql("an append outside any transaction is one statement there")
@pytest.mark.django_db(transaction=True)
def test_it_appends_in_one_statement_outside_a_transaction(two, django_assert_num_queries):
    """Guards `make bench` figures a and b: the append is a command's second statement."""
    game = started_game(two, placement_batch=10)
    rnd = random.Random(7)
    state = load_state(game)
    while True:  # a command that takes no snapshot (the store itself writes no mail)
        events, after = decided(game, state, rnd)
        if after.version // states.snapshot_every() == state.version // states.snapshot_every():
            break
        append.append(game, events, state, after)
        state = after
    with django_assert_num_queries(1):
        append.append(game, events, state, after)
    assert load_state(fresh(game)) == replay(stored_events(game)) == after
    assert fresh(game).version == after.version

    # A stale one is refused whole: neither the events nor the projection change. These
    # seqs are free, so it is the version check that refuses, not the unique (game, seq).
    count = Event.objects.count()
    elsewhere = [dataclasses.replace(e, seq=e.seq + 1000) for e in events]
    with pytest.raises(VersionConflict) as conflict:
        append.append(game, elsewhere, state, replay(elsewhere, state.copy()))
    assert conflict.value.current_version == after.version
    assert Event.objects.count() == count and fresh(game).version == after.version


@only_on_postgresql("an append outside any transaction is one statement there")
@pytest.mark.django_db(transaction=True)
def test_it_writes_the_mail_of_an_append_in_its_one_statement(
        two, django_assert_num_queries, monkeypatch):
    """Guards `make bench` figures a and b: a command's mail rides its one append."""
    from notifications import outbox
    from notifications.models import Notification

    loaded = load_game(started_game(two, placement_batch=10).pk)
    game = loaded.game
    state = load_state(game)
    queued = []
    monkeypatch.setattr(outbox, "queue_delivery", queued.extend)
    before = set(Notification.objects.filter(game=game).values_list("pk", flat=True))

    with django_assert_num_queries(1) as queries:
        done = service.submit_timeout(loaded, state.version, state)
    # One statement for the game's row, its events and its mail (who takes a digest was
    # read with the game's row by load_game).
    assert queries.captured_queries[0]["sql"].startswith("WITH moved AS (UPDATE")

    written = Notification.objects.filter(game=game).exclude(pk__in=before)
    assert {row.kind for row in written} >= {Notification.TIMED_OUT}
    assert sorted(queued) == sorted(row.pk for row in written)
    assert load_state(fresh(game)) == replay(stored_events(game)) == done.state

    # A stale timeout is refused whole: no event, no mail.
    count = Notification.objects.count(), Event.objects.count()
    with pytest.raises(VersionConflict):
        service.submit_timeout(load_game(game.pk), state.version, state)
    assert (Notification.objects.count(), Event.objects.count()) == count


@only_on_postgresql("prepared statements, kept connections and health checks")
@pytest.mark.django_db(transaction=True)
def test_it_prepares_the_hot_statements_and_recovers_from_what_breaks_them(two, monkeypatch):
    game = started_game(two, placement_batch=10)
    load_game(game.pk)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('FROM "games_game"' in text for text in prepared), prepared

    # A migration (run by another process) changes a column the prepared read returns:
    # it is read again anyway.
    import psycopg

    params = connection.get_connection_params()
    other = psycopg.connect(**{k: v for k, v in params.items()
                               if k in ("dbname", "user", "host", "port", "password")},
                            autocommit=True)
    with other:
        other.execute('ALTER TABLE "games_game" ALTER COLUMN "name" TYPE varchar(101)')
        try:
            assert load_game(game.pk).game.name == game.name
        finally:
            other.execute('ALTER TABLE "games_game" ALTER COLUMN "name" TYPE varchar(100)')

        # A request's first read on a kept connection is its health check (no SELECT 1
        # of its own first); when the server has dropped the connection, the read runs
        # again on a new one.
        checks = []
        usable = connection.is_usable
        monkeypatch.setattr(connection, "is_usable", lambda: checks.append(1) or usable())
        connection.health_check_done = False  # as at the start of a request
        assert load_game(game.pk).game.version == game.version
        assert checks == [] and connection.health_check_done
        other.execute("SELECT pg_terminate_backend(%s)",
                      [connection.connection.info.backend_pid])
    connection.health_check_done = False
    assert load_game(game.pk).game.version == game.version
    assert checks == [] and connection.health_check_done
    # Only a read stands in for the check: before a write, Django's own runs.
    connection.health_check_done = False
    sql.execute('UPDATE "games_game" SET "name" = "name" WHERE "id" = %s', [game.pk])
    assert checks == [1]


@only_on_postgresql("psycopg's C loader of times")
def test_times_are_read_by_psycopgs_c_loader_and_are_the_same(game):
    import datetime

    import psycopg

    loader = connection.connection.adapters.get_loader(
        psycopg.postgres.types["timestamptz"].oid, psycopg.pq.Format.TEXT)
    assert loader is sql.UtcTimestamptzLoader
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::timestamptz, '2026-03-29 01:30:00.000001+02'::timestamptz",
                       ["2026-11-25T10:00:00.5+00:00"])
        first, second = cursor.fetchone()
    assert first == datetime.datetime(2026, 11, 25, 10, 0, 0, 500000, tzinfo=datetime.UTC)
    assert second == datetime.datetime(2026, 3, 28, 23, 30, 0, 1, tzinfo=datetime.UTC)
    assert first.tzinfo is second.tzinfo is datetime.UTC
    row = load_game(game.pk).game
    assert row.started_at == Game.objects.get(pk=game.pk).started_at
    assert row.started_at.tzinfo is datetime.UTC


def test_it_remembers_nothing_when_told_not_to(
        game, two, settings, django_capture_on_commit_callbacks):
    settings.CONQUEST_RECENT_STATES = 0
    with django_capture_on_commit_callbacks(execute=True):
        play(game, two, random.Random(5), 3)
    game = fresh(game)

    with CaptureQueriesContext(connection) as queries:
        assert load_state(game) == replay(stored_events(game))
    assert queries.captured_queries  # read, not recalled


def test_it_answers_a_command_with_its_events_and_their_stored_times(game, two):
    from rest_framework.test import APIClient

    state = load_state(game)
    seat = seats_to_act(state)[0]
    client = APIClient()
    client.force_authenticate(two[seat])
    body = bot_command(state, seat, random.Random(1)) | {"expected_version": state.version}

    answer = client.post(f"/api/v1/games/{game.pk}/commands/", body, format="json")

    assert answer.status_code == 201, answer.content
    listed = client.get(f"/api/v1/games/{game.pk}/events/?after={state.version}").json()
    assert answer.json()["events"] == listed["events"]


@only_on_postgresql("SQLite has no prepared statements to turn off")
@pytest.mark.parametrize("prepared", [True, False], ids=["prepared", "unprepared"])
def test_it_plays_the_same_with_or_without_prepared_statements(
        game, two, monkeypatch, prepared):
    from lib import sql

    if not prepared:
        monkeypatch.setattr(sql, "prepared_statements", lambda: False)
    done = play(game, two, random.Random(8), 5)
    assert done[-1].state == replay(stored_events(game)) == load_state(fresh(game))
    with CaptureQueriesContext(connection) as queries:
        row, seats, _ = load_game(game.pk)
    assert row.version == game.version and len(seats) == 2
    # The query log shows each statement's text (psycopg keeps none of a prepared run).
    assert all("SELECT" in query["sql"] for query in queries.captured_queries)
    assert queries.captured_queries


def test_it_writes_more_rows_than_one_statement_may_carry(game):
    # 9,000 events of 8 columns are 72,000 parameters: more than PostgreSQL (65,535) or
    # SQLite (32,766) take in one statement.
    from django.utils import timezone

    from lib import sql
    last = Event.objects.filter(game=game).order_by("-seq").first().seq
    now = timezone.now()
    rows = [{"game_id": game.pk, "seq": last + i, "type": "forged", "data": {}, "actor": None,
             "user_id": None, "schema_version": 1, "created_at": now}
            for i in range(1, 9001)]
    with transaction.atomic():
        sql.insert(Event, rows)
    assert seqs(game)[-1] == last + 9000
    assert Event.objects.filter(game=game, type="forged").count() == 9000
