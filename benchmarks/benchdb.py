"""A PostgreSQL database of the benchmarks' own (conquest_bench), made afresh and migrated."""

from __future__ import annotations

import os

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
