"""Moderator actions: each one is a command the rules engine decides like any other (a
moderator's Moderate command), submitted through games.service.submit, so replay alone
explains every event. Extending a deadline, replacing a player and hiding a message change
no board: their events carry the facts from outside the rules (the new deadline, the new
holder), and the commit step writes their projection (the deadline column, the seat's
holder) in the same transaction.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

import engine as rules
from accounts.bots import is_bot_account
from engine.commands import MODERATOR_ACTION_LIST
from games.errors import ServiceError
from games.models import Game, Seat
from games.service import MODERATOR, Actor, Committed, submit
from lib.reactions import wired

EXTEND, REPLACE = "extend_deadline", "replace_player"
MAX_EXTENSION_DAYS = 365
# What a moderator may do to a game from the moderation pages (hiding a message is
# moderation.chat's).
ACTIONS = tuple(a.name for a in MODERATOR_ACTION_LIST if a.running or a.paused)


def check_moderator(user) -> None:
    if user is None or not user.is_authenticated or not user.has_perm("games.moderate_game"):
        raise ServiceError(403, "not_moderator", "only moderators may do that")


def stakes(user) -> list:
    """Querysets of the ids (`game_id`) of the games `user` has a stake in: those they play
    in, and those the apps above declare in the wiring's MODERATOR_STAKES (each a
    function of the user; the tournaments' games for their entrants, say)."""
    found = [Seat.objects.filter(user_id=user.pk).values("game_id")]
    for stake in wired("MODERATOR_STAKES"):
        found.append(stake(user))
    return found


def staked(user, field: str = "pk") -> Q:
    """Rows whose `field` is a game `user` has a stake in, as a filter."""
    where = Q()
    for ids in stakes(user):
        where |= Q(**{f"{field}__in": ids})
    return where


def has_stake(game_id: int, user) -> bool:
    return any(ids.filter(game_id=game_id).exists() for ids in stakes(user))


def check_not_playing(game_id: int, user) -> None:
    """A moderator who plays in a game could favour their own seat (extend their own
    deadline, drop a rival), and one who entered its tournament their own standing: another
    moderator acts there."""
    if has_stake(game_id, user):
        raise ServiceError(403, "own_game", "you play in this game or its tournament: "
                           "another moderator must act here")


def moderate(game: Game, moderator, action: str, reason: str = "", seat=None, until=None,
             replacement=None, expected_version=None) -> Committed:
    """Do `action` on `game` as `moderator`; raises ServiceError or a RuleViolation."""
    check_moderator(moderator)
    if action not in ACTIONS:
        raise ServiceError(400, "bad_request", f"no moderator action '{action}'")
    if not isinstance(reason, str) or len(reason) > 500:
        raise ServiceError(400, "bad_request", "the reason must be text of at most 500 chars")
    if game.status == Game.OPEN:
        raise ServiceError(400, "game_not_active", "the game has not started")
    check_not_playing(game.pk, moderator)
    actor = Actor(MODERATOR, moderator.pk)
    note = {"by": moderator.get_username(), "reason": reason}
    if action == EXTEND:
        return submit(actor, game, _extension(game, note, until), expected_version)
    if action == REPLACE:
        command = _replacement(game, moderator, note, seat, replacement)
    else:
        command = rules.Moderate(action, note["by"], reason, seat)
    return submit(actor, game, command, expected_version)


def _extension(game, note, until) -> rules.Moderate:
    if not isinstance(until, datetime) or until.tzinfo is None:
        raise ServiceError(400, "bad_request", "until must be a date and time with a zone")
    if game.deadline is not None and until <= game.deadline:
        raise ServiceError(400, "moderation_refused", "the new deadline must be later")
    if until <= timezone.now():
        raise ServiceError(400, "moderation_refused", "the new deadline must be in the future")
    # As far as a game's own deadline_seconds may reach; the year 9999 is past any datetime
    # once in UTC west of Greenwich, and on every page that shows it east of it.
    if until > timezone.now() + timedelta(days=MAX_EXTENSION_DAYS):
        raise ServiceError(400, "moderation_refused", "the new deadline must be at most "
                           f"{MAX_EXTENSION_DAYS} days ahead")
    facts = {"until": until.isoformat(),
             "was": game.deadline.isoformat() if game.deadline else None}
    # The event's `until` is the new deadline: the append projects it (games.clock).
    return rules.Moderate(EXTEND, note["by"], note["reason"], facts=facts)


def _replacement(game, moderator, note, seat, replacement) -> rules.Moderate:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise ServiceError(400, "bad_request", "name the seat to hand over")
    User = get_user_model()
    new_user = replacement if isinstance(replacement, User) else (
        User.objects.filter(username=replacement).first())
    if new_user is None or not new_user.is_active:
        # (Bot accounts are inactive: a seat goes to a computer player only by the rules.)
        raise ServiceError(400, "bad_request", "no such user to take the seat")
    if new_user.pk == moderator.pk:
        raise ServiceError(403, "own_game", "you may not hand a seat to yourself: another "
                           "moderator must")
    if is_bot_account(new_user, fresh=True):
        # It plays only where its owner allowed it (lobby.bot_accounts): never put in.
        raise ServiceError(403, "not_your_bot", f"{new_user} is a bot account: it plays only "
                           "where its owner allowed it, and is handed no seat")
    if Seat.objects.filter(game=game, user=new_user).exists():
        raise ServiceError(400, "moderation_refused", f"{new_user} already plays in this game")
    holder = Seat.objects.select_related("user").filter(game=game, seat=seat).first()
    facts = {"from": holder.user.get_username() if holder else None,
             "to": new_user.get_username(), "to_user_id": new_user.pk}
    # (games.reactions.hand_over_seat seats the new holder with the event.)
    return rules.Moderate(REPLACE, note["by"], note["reason"], seat, facts=facts)
