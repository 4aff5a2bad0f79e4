"""PostgreSQL databases of the benchmarks' own: the shared one (conquest_bench), made afresh
and migrated by setup(); and a bench's own on the server of DATABASE_URL (named_url, made
and dropped with admin), as the growth, streams and partitions benches keep theirs."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

BENCH_DATABASE = os.environ.get("CONQUEST_BENCH_DATABASE", "conquest_bench")
SERVER = "postgres://postgres@127.0.0.1:5432"
_ready = False


def setup() -> str:
    """Point Django at a fresh, migrated bench database (once per process); its URL."""
    global _ready
    url = f"{SERVER}/{BENCH_DATABASE}"
    if _ready:
        return url
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {BENCH_DATABASE} WITH (FORCE)")
        admin.execute(f"CREATE DATABASE {BENCH_DATABASE}")
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    _ready = True
    return url


def named_url(name: str, bench: str) -> str:
    """The URL of database `name` on the server of DATABASE_URL (PostgreSQL only: `bench`
    names who asks, in the refusal)."""
    parts = urlsplit(os.environ.get("DATABASE_URL") or f"{SERVER}/x")
    if parts.scheme not in ("postgres", "postgresql", "pgsql"):
        raise SystemExit(f"{bench} needs PostgreSQL; DATABASE_URL is {parts.scheme}://")
    return urlunsplit(parts._replace(path=f"/{name}"))


def admin(url: str, *statements: str) -> None:
    """Run `statements` (CREATE/DROP DATABASE) on the maintenance database of url's server."""
    import psycopg

    with psycopg.connect(urlunsplit(urlsplit(url)._replace(path="/postgres")),
                         autocommit=True) as conn:
        for statement in statements:
            conn.execute(statement)
