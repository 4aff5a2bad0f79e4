"""Moderator actions: each one is an event in the game's log, with who did it and why,
appended through the same store as every move. They never edit state directly.

Engine actions (pause, resume, abort, end_turn, drop) are decided by the rules; the rest
(extend a deadline, replace a player, hide a chat message) are events the rules ignore but
the log keeps, with their projection (deadline, seat holder, message) in the same
transaction.
"""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games import rules
from games.models import Game, Seat
from games.rules.commands import MODERATOR_ACTIONS
from games.services import ServiceError, Submitted, dice_for, forget_seats
from games.store import VersionConflict, append, load_state

EXTEND, REPLACE = "extend_deadline", "replace_player"
ACTIONS = (*MODERATOR_ACTIONS, EXTEND, REPLACE)

# Events the rules ignore but history shows.
DEADLINE_EXTENDED = "deadline_extended"
PLAYER_REPLACED = "player_replaced"


def check_moderator(user) -> None:
    if user is None or not user.is_authenticated or not user.has_perm("games.moderate_game"):
        raise ServiceError(403, "not_moderator", "only moderators may do that")


def check_not_playing(game_id: int, user) -> None:
    """A moderator who plays in a game could favour their own seat (extend their own
    deadline, drop a rival): another moderator acts there."""
    if Seat.objects.filter(game_id=game_id, user_id=user.pk).exists():
        raise ServiceError(403, "own_game", "you play in this game: another moderator must "
                           "act here")


def moderate(game: Game, moderator, action: str, reason: str = "", seat=None, until=None,
             replacement=None, expected_version=None) -> Submitted:
    """Do `action` on `game` as `moderator`; raises ServiceError or a RuleViolation."""
    check_moderator(moderator)
    if action not in ACTIONS:
        raise ServiceError(400, "bad_request", f"no moderator action '{action}'")
    if not isinstance(reason, str) or len(reason) > 500:
        raise ServiceError(400, "bad_request", "the reason must be text of at most 500 chars")
    if game.status == Game.OPEN:
        raise ServiceError(400, "game_not_active", "the game has not started")
    check_not_playing(game.pk, moderator)
    state = load_state(game)
    if expected_version is not None and expected_version != state.version:
        raise VersionConflict(state.version)
    note = {"by": moderator.get_username(), "reason": reason}
    if action == EXTEND:
        return _extend(game, moderator, state, note, until)
    if action == REPLACE:
        return _replace(game, moderator, state, note, seat, replacement)
    command = rules.Moderate(action, note["by"], reason, seat)
    events = rules.decide(state, command, dice_for(game))
    after = state.copy()
    for event in events:
        rules.evolve(after, event)
    append(game, events, state, after, user_id=moderator.pk)
    return Submitted(game, events, after, None)


def _one_event(game, moderator, state, kind, data, deadline=None, also=None) -> Submitted:
    event = rules.Event(state.version + 1, kind, data, None)
    after = rules.evolve(state.copy(), event)
    with transaction.atomic():
        append(game, [event], state, after, user_id=moderator.pk, deadline=deadline)
        if also:
            also()
    return Submitted(game, [event], after, None)


def _extend(game, moderator, state, note, until) -> Submitted:
    if state.finished or state.paused:
        raise ServiceError(400, "moderation_refused", "only a running clock can be extended")
    if not isinstance(until, datetime) or until.tzinfo is None:
        raise ServiceError(400, "bad_request", "until must be a date and time with a zone")
    if game.deadline is not None and until <= game.deadline:
        raise ServiceError(400, "moderation_refused", "the new deadline must be later")
    if until <= timezone.now():
        raise ServiceError(400, "moderation_refused", "the new deadline must be in the future")
    data = {**note, "until": until.isoformat(),
            "was": game.deadline.isoformat() if game.deadline else None}
    return _one_event(game, moderator, state, DEADLINE_EXTENDED, data, deadline=until)


def _replace(game, moderator, state, note, seat, replacement) -> Submitted:
    if state.finished:
        raise ServiceError(400, "moderation_refused", "the game is over")
    if not isinstance(seat, int) or not 0 <= seat < state.seats:
        raise ServiceError(400, "bad_request", "name the seat to hand over")
    if state.players[seat].out:
        raise ServiceError(400, "moderation_refused", "that player is already out of the game")
    User = get_user_model()
    new_user = replacement if isinstance(replacement, User) else (
        User.objects.filter(username=replacement).first())
    if new_user is None:
        raise ServiceError(400, "bad_request", "no such user to take the seat")
    if Seat.objects.filter(game=game, user=new_user).exists():
        raise ServiceError(400, "moderation_refused", f"{new_user} already plays in this game")
    holder = Seat.objects.select_related("user").get(game=game, seat=seat)
    data = {**note, "seat": seat, "from": holder.user.get_username(),
            "to": new_user.get_username(), "to_user_id": new_user.pk}

    def hand_over():
        Seat.objects.filter(pk=holder.pk).update(user=new_user)
        forget_seats(game)

    return _one_event(game, moderator, state, PLAYER_REPLACED, data, also=hand_over)
