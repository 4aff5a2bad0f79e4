"""Bot accounts in the game service (docs/bots/contract.md "Bot accounts"): turning an account into
one, seating one, and who may join what.

A bot account is an ordinary account a program signs in to with a token; it differs from
a person's in what it may do (play only through the API) and where: only where its owner
allowed it, that is its owner's own games (the owner seats it), the games and tournaments
allowing bots (`bots_allowed`) that it joined by itself, and the invitations and challenges
its program accepted by joining. Nobody else seats it. And it differs in how it is shown
(a bot, with its owner's name, rated apart). A computer player (games.computer) is
something else: the site's own program, with a level.

Owner: the account itself, unless the request names another account and proves it runs
the bot with one of that account's API tokens (`owner`, `owner_token`): a name given
without proof would let anyone pass their bot off as someone else's.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from accounts.bots import is_bot_account
from accounts.models import BotAccount, digest, lock_account
from games.errors import ServiceError
from games.models import Game, Invitation, Seat
from lib.reactions import wired


def _conversion_checks() -> list:
    """The wiring's BOT_ACCOUNT_CHECKS: apps above games that must agree before an
    account becomes a bot (a tournament entry made as a person), as functions of the
    user giving a refusal's text or None."""
    return wired("BOT_ACCOUNT_CHECKS")


def _owner(user, owner_name, owner_token):
    if owner_name is None and owner_token is None:
        return user
    # (PostgreSQL refuses a NUL in a query: no name holds a control character anyway)
    if not isinstance(owner_name, str) or not isinstance(owner_token, str) or not (
            0 < len(owner_name) <= 150 and 0 < len(owner_token) <= 200) \
            or not owner_name.isprintable():
        raise ServiceError(400, "bad_owner", "owner is an account's username, sent with "
                           "owner_token, an API token of that account")
    owner = get_user_model().objects.filter(username__iexact=owner_name.strip(),
                                            is_active=True).first()
    # The same answer for an unknown name and a wrong token: nothing to probe names with.
    if owner is None or not owner.api_tokens.filter(digest=digest(owner_token)).exists():
        raise ServiceError(400, "bad_owner", "owner_token is not an API token of owner")
    if owner.pk == user.pk:
        return user
    if is_bot_account(owner):
        raise ServiceError(400, "bad_owner", "a bot account cannot own a bot")
    return owner


def convert(user, owner_name=None, owner_token=None) -> BotAccount:
    """Turn `user`'s account into a bot account, for good: refused if it already is one,
    if it has ever taken a seat (played, or joined a game not started yet), or if it is a
    moderator's."""
    if is_bot_account(user):
        raise ServiceError(400, "already_bot", "this account is a bot account already")
    if user.is_staff or user.is_superuser:
        raise ServiceError(400, "staff_account", "a moderator's account cannot become a bot")
    owner = _owner(user, owner_name, owner_token)
    with transaction.atomic():
        # The account's row is locked, so a join racing this waits and then sees the bot
        # (join_game asks is_bot_account afresh inside its own transaction).
        lock_account(user)
        if Seat.objects.filter(user=user).exists():
            raise ServiceError(400, "has_played", "only an account that has never played or "
                               "joined a game can become a bot account")
        for check in _conversion_checks():
            problem = check(user)
            if problem:
                raise ServiceError(400, "has_played", problem)
        try:
            with transaction.atomic():
                made = BotAccount.objects.create(user=user, owner=owner)
        except IntegrityError:  # a second request at the same moment
            raise ServiceError(400, "already_bot",
                               "this account is a bot account already") from None
    user._is_bot_account = True
    return made


def of(user) -> BotAccount | None:
    return BotAccount.objects.select_related("user", "owner").filter(user_id=user.pk).first()


def as_dict(bot: BotAccount) -> dict:
    return {"username": bot.user.get_username(), "bot": True,
            "owner": bot.owner.get_username(), "since": bot.created_at.isoformat()}


def bot_account_named(username):
    """The bot account a creator means by `username` (any case), or 400."""
    if not isinstance(username, str) or not 0 < len(username.strip()) <= 150 \
            or not username.strip().isprintable():
        raise ServiceError(400, "bad_request", "account must be a bot account's username")
    user = get_user_model().objects.filter(username__iexact=username.strip(),
                                           is_active=True).first()
    if user is None or not BotAccount.objects.filter(user=user).exists():
        raise ServiceError(400, "not_a_bot_account",
                           f"there is no bot account named {username!r}")
    return user


def seatable_by(user) -> list[str]:
    """The usernames of the bot accounts `user` may seat: their own (a bot owning itself
    is not among them: it is seated by taking a seat itself)."""
    return list(BotAccount.objects.filter(owner_id=user.pk, user__is_active=True)
                .exclude(user_id=user.pk).order_by("user__username")
                .values_list("user__username", flat=True))


def check_owner_seats(bot_user, creator) -> None:
    """Before a creator seats the bot account `bot_user`: only its owner may. Anyone else's
    game it joins by itself (if the game allows bots) or on an invitation its program
    accepts, never by being put there: it would play, and be rated, where its owner never
    agreed to."""
    owner_id, owner_name = BotAccount.objects.filter(user_id=bot_user.pk).values_list(
        "owner_id", "owner__username").get()
    if owner_id != creator.pk:
        raise ServiceError(403, "not_your_bot", f"the bot account {bot_user.username} is "
                           f"{owner_name}'s: only its owner seats it; invite it, and its program "
                           "joins if it will, or allow bot accounts to join by themselves")


def check_bot_may_join(game: Game, user) -> None:
    """Before a bot account takes a seat by itself (the game's row locked): only in a game
    that allows bots, or one it was invited to. The account's row is locked as convert()
    locks it, so an account turning into a bot and joining at once does one, then the
    other."""
    lock_account(user)
    if game.bots_allowed or not is_bot_account(user, fresh=True):
        return
    if not Invitation.objects.filter(game=game, user=user,
                                     status__in=(Invitation.PENDING,
                                                 Invitation.ACCEPTED)).exists():
        raise ServiceError(403, "bots_not_allowed", "this game does not allow bot accounts: "
                           "its creator may seat or invite you")

