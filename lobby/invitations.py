"""Invitations to private games: who may join one (the players invited by name and whoever
holds its invitation link), and inviting by name, withdrawing, declining and renewing the
link (who may know of a private game at all is games.visibility's). What follows from an invitation (the invitee's notification and mail) is
a reaction declared in the wiring's REACTIONS["invitations"], called in the
invitation's own transaction with (what, invitation): "invited", "withdrawn",
"declined" or "accepted". A reaction may withhold an invitation (`delivered` false): it
stays pending to its inviter, and to its invitee it does not exist."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.timezone import now

from games.errors import ServiceError
from games.models import Game, Invitation, Seat
from games.visibility import NOT_FOUND, SEEING, invited, token_fits
from lib.reactions import announce

MAX_PENDING = 20  # open invitations a game may have at once (no mass mailing from a game)


def new_secret() -> str:
    return secrets.token_urlsafe(24)


def check_may_join(game: Game, user, token=None) -> None:
    """Before a seat is taken in `game` (its row locked): a private game seats only its
    invited players and holders of its link. Anyone else is told what a missing game
    tells them."""
    if not game.private or token_fits(game, token) or game.creator_id == user.pk:
        return
    if not (invited(user).filter(game=game, status__in=SEEING).exists()
            or Seat.objects.filter(game=game, user=user).exists()):  # (told: already seated)
        raise ServiceError(404, "not_found", NOT_FOUND)


def joined(game: Game, user) -> None:
    """In the join's transaction: the player's invitation to the game is accepted (one
    withheld from them too: they came by themselves, and now know of the game)."""
    for invitation in Invitation.objects.filter(game=game, user=user,
                                                status=Invitation.PENDING):
        Invitation.objects.filter(pk=invitation.pk).update(
            status=Invitation.ACCEPTED, answered_at=now(), delivered=True)
        invitation.status, invitation.delivered = Invitation.ACCEPTED, True
        _react("accepted", invitation)


def player_named(username):
    """The account a player means by `username` (any case), or 400: computer players'
    and disabled accounts cannot be invited."""
    # (PostgreSQL refuses a NUL in a query: no name holds a control character anyway)
    if not isinstance(username, str) or not 0 < len(username.strip()) <= 150 \
            or not username.strip().isprintable():
        raise ServiceError(400, "bad_request", "username must be a player's name")
    user = get_user_model().objects.filter(username__iexact=username.strip(),
                                           is_active=True).first()
    if user is None:
        raise ServiceError(400, "unknown_player", f"there is no player named {username!r}")
    return user


def _check_creator(game: Game, user, what: str) -> None:
    if user is None or not user.is_authenticated or game.creator_id != user.pk:
        raise ServiceError(403, "not_creator", f"only the game's creator can {what}")


def _lock(game: Game) -> Game:
    """The game's row, locked: an answer to an invitation waits for a join of the same
    game (lobby.open_games.join_game locks it too), so the two never cross."""
    return Game.objects.select_for_update().get(pk=game.pk)


def _locked_open(game: Game) -> Game:
    locked = _lock(game)
    if locked.status != Game.OPEN:
        raise ServiceError(400, "game_not_open",
                           "the game has started or was cancelled: invitations are closed")
    return locked


def invite(game: Game, by, username) -> Invitation:
    """The creator of an open game invites a player by name; they hear of it (a
    notification, and a mail if they take game mail)."""
    _check_creator(game, by, "invite players")
    invitee = player_named(username)
    if invitee.pk == by.pk:
        raise ServiceError(400, "cannot_invite_yourself", "you cannot invite yourself")
    with transaction.atomic():
        locked = _locked_open(game)
        seated = list(Seat.objects.filter(game=locked).values_list("user_id", flat=True))
        if invitee.pk in seated:
            raise ServiceError(400, "already_seated",
                               f"{invitee.username} already plays in this game")
        if len(seated) >= locked.players:
            raise ServiceError(400, "game_full", "every seat of this game is taken")
        invitation = Invitation.objects.filter(game=locked, user=invitee).first()
        if invitation is not None and invitation.status == Invitation.PENDING:
            raise ServiceError(400, "already_invited",
                               f"{invitee.username} is already invited to this game")
        if invitation is not None and invitation.status == Invitation.DECLINED:
            raise ServiceError(400, "invitation_declined",
                               f"{invitee.username} declined an invitation to this game")
        if Invitation.objects.filter(game=locked, status=Invitation.PENDING).count() \
                >= MAX_PENDING:
            raise ServiceError(400, "too_many_invitations",
                               f"a game may have at most {MAX_PENDING} open invitations")
        if invitation is None:
            invitation = Invitation.objects.create(game=locked, user=invitee, invited_by=by)
        else:  # withdrawn earlier, or accepted by a player who then left: asked again
            invitation.status, invitation.invited_by = Invitation.PENDING, by
            invitation.created_at, invitation.answered_at = now(), None
            invitation.delivered = True  # (until a reaction withholds it again)
            invitation.save(update_fields=["status", "invited_by", "created_at",
                                           "answered_at", "delivered"])
        _react("invited", invitation)
    return invitation


def withdraw(game: Game, by, username) -> Invitation:
    """The creator takes back a pending invitation: the player no longer sees a private
    game (unless they hold its link)."""
    _check_creator(game, by, "withdraw invitations")
    invitee = player_named(username)
    with transaction.atomic():
        _lock(game)
        invitation = (Invitation.objects.select_for_update()
                      .filter(game=game, user=invitee, status=Invitation.PENDING).first())
        if invitation is None:
            raise ServiceError(400, "not_invited",
                               f"{invitee.username} has no open invitation to this game")
        return _answer(invitation, Invitation.WITHDRAWN, "withdrawn")


def decline(game: Game, user) -> Invitation:
    """The invitee says no: the invitation is closed and cannot be sent again."""
    with transaction.atomic():
        _lock(game)
        invitation = (invited(user).select_for_update()
                      .filter(game=game, status=Invitation.PENDING).first()
                      if user is not None and user.is_authenticated else None)
        if invitation is None:
            raise ServiceError(400, "not_invited", "you have no open invitation to this game")
        return _answer(invitation, Invitation.DECLINED, "declined")


def _answer(invitation: Invitation, status: str, what: str) -> Invitation:
    invitation.status, invitation.answered_at = status, now()
    invitation.save(update_fields=["status", "answered_at"])
    _react(what, invitation)
    return invitation


def renew_link(game: Game, by) -> Game:
    """The creator of an open private game replaces its link: the old one stops working
    (the players who joined by it keep their seats)."""
    _check_creator(game, by, "renew the invitation link")
    if not game.private:
        raise ServiceError(400, "not_private", "only a private game has an invitation link")
    with transaction.atomic():
        _locked_open(game)
        game.invite_token = new_secret()
        Game.objects.filter(pk=game.pk).update(invite_token=game.invite_token)
    return game


def of_game(game: Game) -> list[Invitation]:
    """A game's invitations, for its creator: newest first."""
    return list(Invitation.objects.filter(game=game).select_related("user", "invited_by")
                .order_by("-created_at", "-pk"))


def pending_for(user) -> list[Invitation]:
    """The invitations `user` has not answered yet, to games still open."""
    if user is None or not user.is_authenticated:
        return []
    return list(invited(user).filter(status=Invitation.PENDING, game__status=Game.OPEN)
                .select_related("game", "invited_by").order_by("-created_at", "-pk")[:50])


def pending_of(game: Game, user) -> Invitation | None:
    if user is None or not user.is_authenticated:
        return None
    return invited(user).filter(game=game, status=Invitation.PENDING).first()


def as_dict(invitation: Invitation) -> dict:
    """An invitation as the API shows it (to its creator or its invitee)."""
    return {"id": invitation.pk, "game": invitation.game_id, "username": invitation.user.username,
            "invited_by": invitation.invited_by.username, "status": invitation.status,
            "created_at": invitation.created_at.isoformat(),
            "answered_at": invitation.answered_at.isoformat()
            if invitation.answered_at else None}


def _react(what: str, invitation: Invitation) -> None:
    announce("invitations", what, invitation)


