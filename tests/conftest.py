"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import os
import shutil
import zlib
from pathlib import Path

import pytest

from tests import people
from tests.maps import isles_map  # noqa: F401  (a map of the tests' own, as a fixture)

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True, scope="session")
def flush_by_delete():
    """A transactional test's flush empties PostgreSQL's tables with DELETE, not Django's
    TRUNCATE of every table: TRUNCATE makes new files for each table and index (0.4-0.9 s a
    flush on the CI machine, against about 15 ms). The event log, whose rows refuse DELETE
    (games/migrations/0002), is still truncated, first, before any DELETE leaves a deferred
    foreign-key check pending on it. SQLite's flush deletes already.

    On both, the content types and permissions are kept (KEPT_TABLES): the migrations made
    them and no test adds any. Django's flush then emits post_migrate for its receivers
    (contenttypes and auth) to make them all again, which was 80 % of a flush's cost
    (about 130 ms of each transactional test on PostgreSQL, 50 ms on SQLite); with them kept,
    that signal is not sent. A flush that truncates everything (asked to reset sequences or
    to cascade) empties those tables too and sends it as before."""
    from django.core.management.commands import flush
    from django.db.backends.postgresql.operations import DatabaseOperations as PostgreSQL
    from django.db.backends.sqlite3.base import DatabaseOperations as SQLite  # (its operations
    # module imports the base module: asked first, it finds a half-made one)

    truncate, delete, emit = PostgreSQL.sql_flush, SQLite.sql_flush, flush.emit_post_migrate_signal
    kept = {"all": False}  # whether the last flush kept KEPT_TABLES

    def postgresql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        kept["all"] = not (reset_sequences or allow_cascade)
        if not kept["all"]:
            return truncate(self, style, tables, reset_sequences=reset_sequences,
                            allow_cascade=allow_cascade)
        tables = [table for table in tables if table not in KEPT_TABLES]
        append_only = [table for table in tables if table in APPEND_ONLY_TABLES]
        return truncate(self, style, append_only) + [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables if table not in APPEND_ONLY_TABLES]

    def sqlite_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        kept["all"] = not (reset_sequences or allow_cascade)
        if kept["all"]:
            tables = [table for table in tables if table not in KEPT_TABLES]
        return delete(self, style, tables, reset_sequences=reset_sequences,
                      allow_cascade=allow_cascade)

    def emit_unless_kept(*args, **kwargs):
        if not kept["all"]:
            emit(*args, **kwargs)

    PostgreSQL.sql_flush, SQLite.sql_flush = postgresql_flush, sqlite_flush
    flush.emit_post_migrate_signal = emit_unless_kept
    yield
    PostgreSQL.sql_flush, SQLite.sql_flush = truncate, delete
    flush.emit_post_migrate_signal = emit


APPEND_ONLY_TABLES = {"games_event"}
KEPT_TABLES = {"django_content_type", "auth_permission"}


@pytest.fixture(autouse=True)
def forget_recent_states():
    """Each test starts with no remembered game states: database ids (and some tests'
    fixed seeds) come back from one test to the next."""
    from games.store.states import forget_recent

    forget_recent()
    yield
    forget_recent()


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in the site's default language: a page asked for in Czech leaves
    Czech active in the thread, and the next test would read its words in Czech."""
    from django.utils import translation

    translation.activate("en")
    yield
    translation.activate("en")


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings):
    """Each test starts with no throttle counted: the counters live in a cache of this
    process's own (the suite's workers run side by side and all come from 127.0.0.1)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"tests-{os.getpid()}"},
                       "fragments": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                     "LOCATION": f"fragments-{os.getpid()}"}}
    # Tests play whole games over the API in seconds, from one address: the command limits
    # are the tests' own (tests/games/test_api_command_limits.py sets them low).
    settings.CONQUEST_THROTTLE_RATES = {**settings.CONQUEST_THROTTLE_RATES,
                                        "command_user": "100000/minute",
                                        "command_ip": "100000/minute"}
    from django.core.cache import cache, caches

    cache.clear()
    caches["fragments"].clear()
    yield


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Passwords hash with MD5 here: the real hasher costs a quarter of a second each."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# The named people of every test (healthchecks.io's habit): alice plays, bob is her
# opponent, charlie takes a third seat or may see nothing. What a person is depends on
# what a directory's tests drive (tests/people.py): here a user with an address and no
# password; tests/games and tests/accounts (API clients that signed up) and tests/web (users
# who sign in with a password) override `person`, never alice, bob or charlie themselves.
@pytest.fixture
def person(db):
    """A function making the user `name` (name@example.com), or finding them again."""
    return people.user


@pytest.fixture
def alice(person):
    return person("alice")


@pytest.fixture
def bob(person):
    return person("bob")


@pytest.fixture
def charlie(person):
    return person("charlie")


@pytest.fixture
def neutral_by_hand(alice, bob):
    """alice and bob chose to place the two-player neutral's armies themselves (the
    rulebooks' way, which the tests of that flow play; a player of the site who never chose
    has them placed: accounts.models.takes_borders)."""
    for someone in (alice, bob):
        people.places_the_neutral_by_hand(getattr(someone, "user_id", None) or someone.pk)


@pytest.fixture
def holding_api_tokens(alice, bob):
    """alice and bob hold API tokens and never chose: programs of the contract's, to whom
    the neutral's half falls by hand until they choose (accounts.models.takes_borders)."""
    from accounts import tokens

    for someone in (alice, bob):
        if not hasattr(someone, "user_id"):
            tokens.issue(someone)


@pytest.fixture
def maud(db):
    """A moderator, who plays in none of the tests' games (a user wherever she is)."""
    return people.moderator("maud")


@pytest.fixture(scope="session")
def django_db_setup(request, django_test_environment, django_db_blocker,
                    django_db_modify_db_settings):
    """pytest-django's, but this process's test database is a copy of one migrated once
    (tests/databases.py), and it does not wait for the disk at each commit: the suite's own
    data needs no durability across a crash of the machine, and PostgreSQL's flush of its
    log (several milliseconds a commit) was much of the time of the tests that commit (the
    transactional ones, the live server's and the workers' requests). Every connection
    opened later (the live server's threads, the Celery and gunicorn subprocesses) takes
    the database's default; SQLite's connections are told as this process opens them."""
    from django.conf import settings
    from django.db import connection
    from django.db.backends.signals import connection_created
    from django.test.utils import setup_databases, teardown_databases

    from tests.databases import copy_migrated, drop_postgresql

    connection_created.connect(skip_disk_flushes, dispatch_uid="tests-no-disk-flushes")
    verbosity = request.config.option.verbose
    with django_db_blocker.unblock():
        copy_migrated(connection, settings.VAR_DIR)
        # Kept, as made: Django's migrate then finds every migration applied.
        databases = setup_databases(verbosity=verbosity, interactive=False, keepdb=True,
                                    aliases={"default"}, serialized_aliases=set())
        if connection.vendor == "postgresql":
            name = connection.ops.quote_name(connection.settings_dict["NAME"])
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
        connection.close()  # the next one opens with the setting
        # The live streams' channel and their counts in Redis (live/quota.py) are named
        # after the database; the settings named them after the site's database, one for
        # every test process, whose users share primary keys: so the processes counted one
        # another's streams (a test refused a stream, 'at most 3 streams'). This process's
        # own, and this run's (a count lasts its leases' minute after a run).
        settings.CONQUEST_STREAM_CHANNEL = \
            f"conquest-live:{connection.settings_dict['NAME']}:{os.getpid()}"
    yield
    with django_db_blocker.unblock():
        name, settings_dict = connection.settings_dict["NAME"], dict(connection.settings_dict)
        if connection.vendor == "postgresql":
            # Django's DROP DATABASE waits 5 s for the database's other sessions and fails:
            # a connection of a thread a test left (its pool's threads) or of a service it
            # killed may still be open. Dropped with them, as it was made.
            connection.close()
            teardown_databases(databases, verbosity=verbosity, keepdb=True)
            drop_postgresql(settings_dict)
        else:
            teardown_databases(databases, verbosity=verbosity)
        if connection.vendor == "sqlite":  # (its write-ahead log, which Django leaves)
            for log in (Path(f"{name}-wal"), Path(f"{name}-shm")):
                log.unlink(missing_ok=True)


def skip_disk_flushes(sender, connection, **kwargs):
    if connection.vendor == "sqlite":
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = OFF")


@pytest.fixture(scope="session")
def browser():
    """One chromium for the whole run: Playwright's sync API allows one instance per
    thread, so every browser test shares this one."""
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip("chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright

    # Playwright's sync API runs an event loop in the test's thread; the test also reads
    # the database through the ORM, which Django refuses inside a running loop unless told
    # so. Only while the browser tests run.
    allowed = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--no-first-run",
                  # A headless window has no omnibox to show a popup in; its WebUI (two
                  # pages) was loaded in a renderer of its own for every browser context.
                  "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup"],
        )
        yield browser
        browser.close()
    if allowed is None:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = allowed


@pytest.fixture(scope="session")
def migrated_sqlite() -> Path:
    """A SQLite file `manage.py migrate` made once (tests/databases.py: the test databases'
    template), for the tests that start the service on a database of their own to copy
    (the tests of scripts/run.sh): a migration costs seconds of CPU, and it is the same each
    time. Not the test database: these tests reach none (tests/conftest.py runs them once)."""
    from django.conf import settings

    from tests.databases import sqlite_template

    return sqlite_template(settings.VAR_DIR)


@pytest.fixture
def contexts():
    """Browser contexts to close when the test ends, before its live server and database
    go away, so that no poll of theirs reaches a server that no longer may use the
    database."""
    opened = []
    yield opened
    for context in opened:
        context.close()


def pytest_configure(config):
    """The random games' seed is chosen before pytest-xdist starts its workers, which
    inherit it (tests/sample.py)."""
    from tests.sample import choose_seed

    choose_seed()


def pytest_terminal_summary(terminalreporter):
    from tests.sample import SEED_VARIABLE, choose_seed

    terminalreporter.write_line(
        f"Random games of this run: {SEED_VARIABLE}={choose_seed()} plays them again "
        "(docs/contributors/testing.md)")


# Fixtures through which a test reaches the database (pytest-django's own, and what the
# suite's fixtures build on).
DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences",
                     "django_db_serialized_rollback", "live_server", "django_db_setup"}
# The database tests CI runs on both the embedded default and PostgreSQL + Redis: the store
# and the API (games, lobby, accounts, the plumbing of lib and config), the workers, outbox and deadlines (notifications, ops), the
# browser (web/e2e) and the whole-service ones at the top. The other database tests (pages,
# moderation, ratings, tournaments) read and write through that same store and ORM: CI runs
# them once, on PostgreSQL; and so does it a database test marked `slow` in these folders
# (whole games played through the API to check what the rules and the views say, which no
# database changes).
ON_BOTH = ("tests/games/", "tests/lobby/", "tests/lib/", "tests/config/", "tests/accounts/",
           "tests/notifications/", "tests/ops/", "tests/web/e2e/", "tests/live/", "tests/test_")
# A browser test of ON_BOTH drawn at both screen sizes (parameter ids `laptop`, `phone`)
# runs each size once: the laptop's on the embedded pass, the phone's on the server pass.
# Every size meets a real browser and every database serves one, at half the browser time.
SIZE_PASS = {"laptop": "embedded", "phone": "server"}
# Likewise a test of both brokers (parameter ids `filesystem`, `redis`: a worker's pool
# process killed, tests/ops/test_pool_loss.py) meets the embedded broker on the embedded
# pass and Redis on the server pass, where each is the one deployed beside that database.
BROKER_PASS = {"filesystem": "embedded", "redis": "server"}


# A browser test of ON_BOTH without a screen size runs once too, on the pass its name
# picks (CRC-32 of its node id, so the same pass every run and about half on each): what
# it checks is the page in the browser, and the requests its page makes are the API's and
# the views', which the database tests run on both. The browser was about a quarter of a
# run's CPU.
BROWSER_PASSES = ("embedded", "server")


def browser_pass(item) -> str:
    return BROWSER_PASSES[zlib.crc32(item.nodeid.encode()) % 2]


def screen_size(item, passes=SIZE_PASS) -> str | None:
    """The parameter id of `item` that `passes` names (a screen size, or a broker)."""
    callspec = getattr(item, "callspec", None)
    if callspec is None:
        return None
    return next((part for part in callspec.id.split("-") if part in passes), None)


def reaches_the_database(item) -> bool:
    return item.get_closest_marker("django_db") is not None \
        or bool(DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ())))


def pytest_collection_modifyitems(config, items):
    """CONQUEST_CI_PASS picks a pass of .ci/run: `server` keeps only the tests that reach
    the database (the pure engine's, the bots' and the parsers' learn nothing new from
    PostgreSQL and Redis); `embedded` leaves out the database tests CI runs only on the
    server (not ON_BOTH, or marked `slow`). A browser test on both passes runs each screen size on one of them
    (SIZE_PASS), or the whole test on one (browser_pass); a pool-loss test each broker
    (BROKER_PASS). Unset, everything runs."""
    ci_pass = os.environ.get("CONQUEST_CI_PASS", "")
    if ci_pass not in ("", "embedded", "server"):
        raise pytest.UsageError(f"CONQUEST_CI_PASS is embedded, server or unset, not {ci_pass!r}")
    if not ci_pass:
        return
    kept, dropped = [], []
    for item in items:
        if ci_pass == "server":
            keep = reaches_the_database(item)
        else:
            keep = not reaches_the_database(item) or (
                item.nodeid.startswith(ON_BOTH) and item.get_closest_marker("slow") is None)
        size, broker = screen_size(item), screen_size(item, BROKER_PASS)
        if keep and item.nodeid.startswith(ON_BOTH) and reaches_the_database(item):
            if size:
                keep = SIZE_PASS[size] == ci_pass
            elif "browser" in getattr(item, "fixturenames", ()):
                keep = browser_pass(item) == ci_pass
        if keep and broker and item.nodeid.startswith("tests/ops/test_pool_loss.py"):
            keep = BROKER_PASS[broker] == ci_pass
        (kept if keep else dropped).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept
