"""The test database of each of the suite's processes, copied from one migrated once.

Migrating costs each process about 5 s of CPU on SQLite and more on PostgreSQL (with the
server's own work), and the result is the same every time: the first process that needs it
migrates a template, under a lock, and every process then copies it (a file copy on SQLite,
`CREATE DATABASE … TEMPLATE` on PostgreSQL, a copy of the files, a fraction of a second).
Django then opens the copy as a kept test database (`keepdb`): its migrate finds nothing
left to apply.

A template is named by a digest of every migration Django loads (their files' contents) and
of the database's server: a changed or new migration makes a new one. PostgreSQL's stays on
the server for the next run (made under a name of its own and renamed when complete, so
another checkout's run never finds half of one); SQLite's stays in var/."""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
import sqlite3
import subprocess
import sys
import uuid
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "conquest_template_"


def migrations_digest() -> str:
    """A digest of every migration file Django would apply, and of Django's version."""
    import django
    from django.db.migrations.loader import MigrationLoader

    digest = hashlib.sha256(django.get_version().encode())
    for key, migration in sorted(MigrationLoader(None, ignore_no_migrations=True)
                                 .disk_migrations.items()):
        digest.update(repr(key).encode())
        digest.update(Path(sys.modules[migration.__module__].__file__).read_bytes())
    return digest.hexdigest()[:16]


def migrate(database_url: str, var: Path) -> None:
    """`manage.py migrate` into `database_url`, in a process of its own."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")}
    environment.update({"DATABASE_URL": database_url, "CONQUEST_VAR_DIR": str(var)})
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT,
                   env=environment, check=True, capture_output=True, timeout=600)


def sqlite_template(folder: Path) -> Path:
    """The migrated SQLite file of this tree's migrations in `folder`, made if missing; a
    single file (journal_mode=DELETE), so that a copy of it is a copy of the database."""
    path = folder / f"{PREFIX}{migrations_digest()}.sqlite3"
    with open(folder / f"{PREFIX}sqlite.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released as the file closes
        if not path.exists():
            partial = folder / f"migrating-{uuid.uuid4().hex}.sqlite3"
            migrate(f"sqlite:///{partial}", folder / "migrating-var")
            with closing(sqlite3.connect(partial)) as connection:
                connection.execute("PRAGMA journal_mode=DELETE")
            partial.replace(path)
    return path


def copy_sqlite(settings_dict: dict, folder: Path) -> None:
    """The test database's file is a copy of the template."""
    name = Path(settings_dict["TEST"]["NAME"])
    for leftover in (name, Path(f"{name}-wal"), Path(f"{name}-shm")):
        leftover.unlink(missing_ok=True)
    shutil.copyfile(sqlite_template(folder), name)


def copy_postgresql(settings_dict: dict, folder: Path) -> None:
    """The test database is made from the template, which is migrated first if the server
    has none for this tree's migrations."""
    import psycopg

    name = settings_dict.get("TEST", {}).get("NAME") or f"test_{settings_dict['NAME']}"
    template = f"{PREFIX}{migrations_digest()}"
    with psycopg.connect(dbname="postgres", autocommit=True, **server(settings_dict)) as admin, \
            open(folder / f"{PREFIX}postgresql.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # this run's processes: one migrates, one copies
        exists = admin.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                               [template]).fetchone()
        if not exists:
            partial = f"{PREFIX}partial_{uuid.uuid4().hex[:12]}"
            admin.execute(f"CREATE DATABASE {quoted(partial)}")
            try:
                url = urlsplit(os.environ["DATABASE_URL"])
                migrate(urlunsplit(url._replace(path=f"/{partial}")), folder / "migrating-var")
                # Another checkout's run may have made it meanwhile: theirs is the same.
                admin.execute(f"ALTER DATABASE {quoted(partial)} RENAME TO {quoted(template)}")
            except psycopg.errors.DuplicateDatabase:
                pass
            finally:
                admin.execute(f"DROP DATABASE IF EXISTS {quoted(partial)}")
        admin.execute(f"DROP DATABASE IF EXISTS {quoted(name)} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {quoted(name)} TEMPLATE {quoted(template)}")


def drop_postgresql(settings_dict: dict) -> None:
    """The test database named by `settings_dict` dropped, with any session still on it."""
    import psycopg

    with psycopg.connect(dbname="postgres", autocommit=True, **server(settings_dict)) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {quoted(settings_dict['NAME'])} WITH (FORCE)")


def server(settings_dict: dict) -> dict:
    """psycopg's keywords for the PostgreSQL server of `settings_dict`."""
    return {"host": settings_dict.get("HOST") or None, "port": settings_dict.get("PORT") or None,
            "user": settings_dict.get("USER") or None,
            "password": settings_dict.get("PASSWORD") or None}


def quoted(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'


def copy_migrated(connection, folder: Path) -> None:
    """This process's test database (its settings as pytest-django left them: named for
    its pytest-xdist process) made a copy of the migrated template."""
    if connection.vendor == "postgresql":
        copy_postgresql(connection.settings_dict, folder)
    else:
        copy_sqlite(connection.settings_dict, folder)
