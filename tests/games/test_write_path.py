"""One write path: every change to a game is a command the engine decides, committed by
games.service.commit; the event store's append has exactly one caller; replay alone
explains every event, moderators' included."""

from __future__ import annotations

import ast
from datetime import timedelta

import pytest
from django.utils import timezone

import engine as rules
from engine.errors import ModerationRefused
from games.models import Game
from games.moderation import moderate
from games.store.log import stored_events
from games.store.states import load_state
from moderation.chat import hide_message, post_message
from moderation.models import ChatMessage
from tests.moderation.support import started_game
from tests.people import moderator, user
from tests.source import production_modules


def callers_of_append() -> set[str]:
    """Production modules that import or call the event store's append."""
    found = set()
    for path, tree in production_modules():
        for node in ast.walk(tree):
            imported = (isinstance(node, ast.ImportFrom) and node.module == "games.store.append"
                        and any(alias.name == "append" for alias in node.names))
            called = (isinstance(node, ast.Attribute) and node.attr == "append"
                      and isinstance(node.value, ast.Name) and node.value.id == "appending")
            if imported or called:
                found.add(path)
    return found


def test_only_the_commit_step_appends_events():
    assert callers_of_append() == {"games/service.py"}


def running():
    alice, bob = user("alice"), user("bob")
    return started_game([alice, bob]), alice, bob


@pytest.mark.django_db
def test_every_moderator_action_is_decided_by_the_engine_and_verifies():
    game, alice, bob = running()
    maud = moderator("maud")
    message = post_message(game, alice, "hello")
    for action, extra in (("pause", {}), ("resume", {}),
                          ("extend_deadline", {"until": timezone.now() + timedelta(days=3)}),
                          ("replace_player", {"seat": 1, "replacement": user("carol")}),
                          ("end_turn", {})):
        game.refresh_from_db()
        moderate(game, maud, action, "checking", **extra)
    game.refresh_from_db()
    hide_message(message, maud, "rude")

    events = stored_events(game)
    kinds = [e.type for e in events]
    for kind in ("game_paused", "game_resumed", "deadline_extended", "player_replaced",
                 "moderator_ended_turn", "chat_hidden"):
        assert kind in kinds
    assert rules.replay(events).to_dict() == load_state(game).to_dict()
    game.refresh_from_db()
    result = rules.verify({"id": game.game_id, "seed": game.seed, "seed_hash": game.seed_hash,
                           "events": [e.to_dict() for e in events]})
    assert result.ok, result.problems


@pytest.mark.django_db
def test_the_engine_refuses_to_extend_a_paused_clock():
    game, alice, bob = running()
    maud = moderator("maud")
    moderate(game, maud, "pause", "a dispute")
    game.refresh_from_db()
    state = load_state(game)
    command = rules.Moderate("extend_deadline", "maud", "more time",
                             facts={"until": "2030-01-01T00:00:00+00:00", "was": None})

    with pytest.raises(ModerationRefused):
        rules.decide(state, command, None)
    assert load_state(game).version == state.version


@pytest.mark.django_db
def test_a_finished_game_keeps_its_end_when_a_message_is_hidden_later():
    game, alice, bob = running()
    maud = moderator("maud")
    message = post_message(game, alice, "good game")
    moderate(game, maud, "abort", "abandoned")
    game.refresh_from_db()
    ended = game.finished_at
    assert ended is not None

    with pytest.raises(ModerationRefused):
        moderate(game, maud, "extend_deadline", "too late",
                 until=timezone.now() + timedelta(days=1))
    hide_message(message, maud, "rude")

    game.refresh_from_db()
    assert game.finished_at == ended
    assert ChatMessage.objects.get(pk=message.pk).hidden
    assert stored_events(game)[-1].type == "chat_hidden"
    assert Game.objects.get(pk=game.pk).status == Game.ABORTED
