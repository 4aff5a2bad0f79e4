"""A database that really cannot be reached, for the length of a `with` block: the
connection's settings point at a closed port (PostgreSQL) or a file in a folder that does
not exist (SQLite), so every connection attempt fails as in an outage."""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

from tests.ports import free_port


@contextmanager
def database_down():
    saved = dict(connection.settings_dict)
    connection.close()
    if connection.vendor == "sqlite":
        missing = Path(tempfile.mkdtemp(prefix="conquest-outage-")) / "gone" / "db.sqlite3"
        connection.settings_dict["NAME"] = str(missing)
    else:
        connection.settings_dict.update(HOST="127.0.0.1", PORT=str(free_port()))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)
