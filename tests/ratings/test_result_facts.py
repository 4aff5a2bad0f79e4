"""Each result keeps its game's map, rules (a fingerprint) and privacy, which a player's
record groups by without reading the games (ratings.standings._record): written when the game
is recorded, again by a rebuild, and by the migration for results recorded before."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.apps import apps

from games.models import Game
from ratings.finished import rules_key
from ratings.models import PlayerResult
from ratings.recording import rebuild
from ratings.tasks import record_results
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db

facts_migration = import_module("ratings.migrations.0006_result_game_facts")


@pytest.fixture
def games(db):
    alice, bob = players("alice", "bob")
    public = finished_game([alice, bob])
    secret = finished_game([alice, bob], seed=2, map_id="islands", fog=True)
    Game.objects.filter(pk=secret.pk).update(private=True)
    record_results()
    return public, secret


def facts() -> dict:
    return {(row.game_id, row.user_id): (row.map, row.rules_key, row.private)
            for row in PlayerResult.objects.all()}


def expected(*games) -> dict:
    found = {}
    for game in games:
        game.refresh_from_db()
        for row in PlayerResult.objects.filter(game=game):
            found[(game.pk, row.user_id)] = (game.map, rules_key(game.rules), game.private)
    return found


def test_a_result_keeps_its_game_s_map_rules_and_privacy(games):
    public, secret = games

    assert facts() == expected(public, secret)
    assert {key for _map, key, _private in facts().values()} == {
        rules_key(public.rules), rules_key(secret.rules)}
    assert rules_key(public.rules) != rules_key(secret.rules)
    assert rules_key(dict(reversed(list(public.rules.items())))) == rules_key(public.rules)


def test_a_rebuild_writes_them_again(games):
    before = facts()

    rebuild()

    assert facts() == before


def test_the_migration_fills_the_results_recorded_before(games):
    before = facts()
    PlayerResult.objects.update(map="", rules_key="", private=True)

    facts_migration.fill(apps, None)

    assert facts() == before
    assert all(facts_migration.rules_key(game.rules) == rules_key(game.rules)
               for game in Game.objects.all())


def test_a_result_written_without_its_facts_shows_to_no_outsider(games):
    """As the previous release records one during an upgrade: until a rebuild writes its
    facts, the game counts as private, so an outsider sees nothing of it."""
    from rest_framework.test import APIClient

    public, _secret = games
    rows = list(PlayerResult.objects.filter(game=public).values(
        "game_id", "user_id", "seat", "seats", "placement", "won", "finished_at", "rated"))
    PlayerResult.objects.filter(game=public).delete()
    PlayerResult.objects.bulk_create([PlayerResult(**row) for row in rows])

    answer = APIClient().get("/api/v1/players/alice/").json()

    assert answer["games"] == 0
    rebuild()
    assert APIClient().get("/api/v1/players/alice/").json()["games"] == 1
