"""The rule for rolling upgrades (docs/operators/operating.md): a migration keeps the previous
release's processes working on the new schema, as django-migration-linter judges it on
PostgreSQL. The few older migrations it flags are listed here with the reason they stay."""

from __future__ import annotations

import pytest
from django.db import connection
from django_migration_linter import MigrationLinter

from tests.notifications.real_parts import ROOT

pytestmark = pytest.mark.django_db

APPS = ["accounts", "games", "notifications", "moderation", "ratings", "tournaments", "ops",
        "conversations", "live"]

# Flagged migrations that shipped before the rule. Each adds NOT NULL columns with a default
# in Python only: a process of the release before it, inserting a row without the column,
# fails during a rolling upgrade (stop the web tier for an upgrade across them). Never
# added to: a new column takes null=True, or db_default as well as default.
SHIPPED_BEFORE_THE_RULE = {
    ("games", "0003_game_clock"): "clock_time_zone and pause_weekends without db_default",
    ("tournaments", "0003_held_up_and_byes"): "entry.byes and tournament.reason without "
                                              "db_default",
    ("tournaments", "0004_game_clock"): "tournament.clock without db_default",
}


class Linter(MigrationLinter):
    """The linter, remembering its verdict on each migration."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.verdicts: dict[tuple[str, str], str] = {}

    def print_linting_msg(self, app_label, migration_name, msg, lint_result):
        self.verdicts[(app_label, migration_name)] = msg
        super().print_linting_msg(app_label, migration_name, msg, lint_result)


@pytest.mark.skipif(connection.vendor != "postgresql", reason=(
    "the rule is for PostgreSQL, where several machines upgrade in turn; SQLite rebuilds "
    "a table for most changes, and its one machine is stopped for an upgrade"))
def test_every_migration_lets_the_previous_release_run_on_the_new_schema():
    linter = Linter(str(ROOT), include_apps=APPS, no_cache=True, no_output=True)

    linter.lint_all_migrations()

    flagged = {name for name, verdict in linter.verdicts.items() if verdict == "ERR"}
    assert flagged == set(SHIPPED_BEFORE_THE_RULE), linter.verdicts
    assert len(linter.verdicts) >= 40  # every app's migrations were read
