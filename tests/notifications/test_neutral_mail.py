"""The turn mail of the two-player neutral's reinforcement: it says the armies are the
neutral's (whose reinforcement they halve), how to place them by mail, and where to have
them placed automatically; a player who chose that gets no mail for it at all."""

from __future__ import annotations

import pytest
from django.core import mail

from accounts.models import Preferences
from engine.board import NEUTRAL
from games.store.states import load_state
from notifications import delivery
from notifications.mail_in import commands as mail_commands
from notifications.models import Notification
from tests.notifications.support import act, place_setup, rows, started, user_at

pytestmark = pytest.mark.usefixtures("neutral_by_hand")


def _reinforced(alice, bob):
    """A two-player game with the neutral whose mover has just placed every army: the
    neutral's half is owed. (game, mover, placer)."""
    game = started(alice, bob, placement_batch=50)
    place_setup(game)
    state = load_state(game)
    mover = state.current
    act(game, user_at(game, mover), {"type": "place", "placements": {
        state.territories_of(mover)[0]: state.reinforcements}})
    game.refresh_from_db()
    return game, mover, 1 - mover


def _sent(row):
    assert delivery.send_one(row.pk) == "sent"
    return mail.outbox[-1]


def test_the_mail_says_the_armies_to_place_are_the_neutrals(alice, bob):
    game, mover, placer = _reinforced(alice, bob)
    # Answered the one-time question already: the mail points to the profile instead.
    Preferences.objects.update_or_create(user=user_at(game, placer),
                                         defaults={"neutral_question_answered": True})
    state = load_state(game)
    assert state.phase == "neutral_place"
    row = rows(game, kind=Notification.TURN)[-1]
    assert row.user == user_at(game, placer)

    message = _sent(row)

    body = message.body
    mover_name = f"{('Red', 'Blue')[mover]} ({user_at(game, mover).username})"
    assert f"Armies to place for the neutral: {state.reinforcements}. They are not yours: " \
           f"the neutral gets half of {mover_name}'s reinforcement" in body
    assert f"Armies to place: {state.reinforcements}\n" not in body
    assert "placed for you automatically" in body and "/accounts/profile/" in body
    assert "neutral 2 peru, 1 venezuela (the neutral's armies)" in body
    (html, _), = message.alternatives
    assert "Armies to place for the neutral:" in html and "neutral 2 peru" in html
    # The example commands place the neutral's armies, and the mail parser takes them.
    examples = body.split("For example, from where you stand now:\n", 1)[1].splitlines()
    first = examples[0].strip()
    assert first.startswith("neutral ")
    command = mail_commands.parse_line(first, state, placer)
    assert command["type"] == "place_neutral"
    assert sum(command["placements"].values()) == state.reinforcements
    assert all(state.owner[t] == NEUTRAL for t in command["placements"])


def test_a_players_own_reinforcement_mail_is_unchanged(alice, bob):
    game = started(alice, bob, placement_batch=50)
    place_setup(game)
    state = load_state(game)
    body = _sent(rows(game, kind=Notification.TURN)[-1]).body
    assert f"Armies to place: {state.reinforcements}" in body
    assert "for the neutral" not in body and "neutral 2 peru" not in body


def test_no_mail_for_a_neutrals_half_placed_automatically(alice, bob):
    game = started(alice, bob, placement_batch=50)
    place_setup(game)
    state = load_state(game)
    mover, placer = state.current, 1 - state.current
    Preferences.objects.update_or_create(user=user_at(game, placer),
                                         defaults={"neutral_placement": Preferences.BORDERS})
    before = rows(game, kind=Notification.TURN)

    act(game, user_at(game, mover), {"type": "place", "placements": {
        state.territories_of(mover)[0]: state.reinforcements}})

    after = load_state(game)
    assert after.phase == "attack" and after.current == mover
    assert rows(game, kind=Notification.TURN) == before
    # The next turn, the player who chose it is told of their own turn as ever.
    act(game, user_at(game, mover), {"type": "end_turn"})
    assert [row.user for row in rows(game, kind=Notification.TURN)[len(before):]] == [
        user_at(game, placer)]


def _borders(user):
    Preferences.objects.update_or_create(user=user,
                                         defaults={"neutral_placement": Preferences.BORDERS})


def test_one_mailed_reply_plays_on_past_the_neutrals_half(alice, bob):
    from engine.board import territory_name
    from notifications.models import InboundMail
    from tests.notifications.test_inbound import mailed, reply_to

    game = started(alice, bob, placement_batch=50)
    place_setup(game)
    state = load_state(game)
    mover, placer = state.current, 1 - state.current
    _borders(user_at(game, placer))
    own = territory_name(state.territories_of(mover)[0])

    received = mailed(game, user_at(game, mover),
                      f"place {state.reinforcements} {own}\nend attack\nend")

    assert received.status == InboundMail.APPLIED, received.detail
    after = load_state(game)
    assert after.current == placer and after.phase == "reinforce"  # the turn went round
    answer = reply_to(received).body
    assert "Done: end attack" in answer and "Not done" not in answer


def test_a_missed_turn_with_the_choice_mails_the_placer_once_for_their_own_turn(alice, bob):
    from games import service

    game = started(alice, bob, placement_batch=50)
    place_setup(game)
    state = load_state(game)
    placer = 1 - state.current
    _borders(user_at(game, placer))
    before = len(rows(game, kind=Notification.TURN))

    service.submit_timeout(game, state.version)

    after = load_state(game)
    assert after.phase == "reinforce" and after.current == placer and after.turn == state.turn + 1
    placed = [e for e in game.events.order_by("seq") if e.type == "armies_placed"
              and e.data.get("seat") == NEUTRAL and e.seq > state.version]
    assert len(placed) == 1 and placed[0].data["by"] == placer
    assert [row.user for row in rows(game, kind=Notification.TURN)[before:]] == [
        user_at(game, placer)]
