"""manage.py backup_sqlite: a whole, readable copy of the embedded database, made while it is
in use, that only its owner can read; PostgreSQL is sent to pg_dump."""

from __future__ import annotations

import sqlite3
import threading

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import Event, Game
from tests.games_in_states import new_game
from tests.people import signed_up

pytestmark = pytest.mark.django_db(transaction=True)
sqlite_only = pytest.mark.skipif(connection.vendor != "sqlite",
                                 reason="the embedded database's backup")


@sqlite_only
def test_it_copies_the_games_while_others_write(tmp_path):
    game_id = new_game(signed_up("alice"), signed_up("bob"))
    events = Event.objects.filter(game_id=game_id).count()
    stop = threading.Event()

    def writer():
        # Another process's writes meanwhile (a web worker): rows that may or may not make it
        # into the copy, which must be whole either way.
        with sqlite3.connect(connection.settings_dict["NAME"], timeout=20) as other:
            while not stop.is_set():
                other.execute("UPDATE games_game SET name = name || '' WHERE id = ?", (game_id,))
                other.commit()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        call_command("backup_sqlite", str(tmp_path), verbosity=0)
    finally:
        stop.set()
        thread.join()

    [backup] = tmp_path.glob("conquest-*.sqlite3")
    assert backup.stat().st_mode & 0o777 == 0o600
    with sqlite3.connect(backup) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("SELECT count(*) FROM games_event WHERE game_id = ?",
                            (game_id,)).fetchone() == (events,)
        assert copy.execute("SELECT status FROM games_game WHERE id = ?",
                            (game_id,)).fetchone() == (Game.objects.get(pk=game_id).status,)


@sqlite_only
def test_it_never_overwrites_a_file(tmp_path):
    kept = tmp_path / "kept.sqlite3"
    kept.write_bytes(b"yesterday's backup")

    with pytest.raises(CommandError, match="exists"):
        call_command("backup_sqlite", str(kept), verbosity=0)

    assert kept.read_bytes() == b"yesterday's backup"


@pytest.mark.skipif(connection.vendor == "sqlite", reason="PostgreSQL's is pg_dump")
def test_it_sends_postgresql_to_pg_dump(tmp_path):
    with pytest.raises(CommandError, match="pg_dump"):
        call_command("backup_sqlite", str(tmp_path), verbosity=0)

    assert list(tmp_path.iterdir()) == []
