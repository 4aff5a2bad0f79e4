"""Which accounts are bot accounts (docs/bots/contract.md "Bot accounts") and who owns them: the
lookups every app asks (pages, mail, ratings, tournaments). Turning an account into one
is lobby.bot_accounts' (it must know whether the account has played)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from accounts.models import BotAccount
from lib import sql


def is_bot_account(user, fresh: bool = False) -> bool:
    """Whether `user` (signed in or not) is a bot account (`fresh`: asked again, not as
    remembered on the user object)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    # getattr, not __dict__: request.user is a lazy object passing attributes through.
    cached = getattr(user, "_is_bot_account", None)
    if cached is None or fresh:
        cached = user._is_bot_account = BotAccount.objects.filter(user_id=user.pk).exists()
    return cached


def owners(user_ids) -> dict[int, str]:
    """{user id: its owner's username} of those of `user_ids` that are bot accounts."""
    ids = [uid for uid in user_ids if uid is not None]
    if not ids:
        return {}
    return dict(BotAccount.objects.filter(user_id__in=ids)
                .values_list("user_id", "owner__username"))


def other_owners(user_ids) -> dict[int, int]:
    """{bot account id: its owner's id} of those of `user_ids` that are bot accounts run by
    another account (a bot owning itself is left out)."""
    ids = [uid for uid in user_ids if uid is not None]
    if not ids:
        return {}
    return {bot: owner for bot, owner in BotAccount.objects.filter(user_id__in=ids)
            .values_list("user_id", "owner_id") if bot != owner}


def bot_account_ids(user_ids=None):
    """A query of the ids of every bot account (or of those among `user_ids`)."""
    found = BotAccount.objects.all()
    if user_ids is not None:
        found = found.filter(user_id__in=list(user_ids))
    return found.values_list("user_id", flat=True)


def refusal() -> str:
    """What a page or a mail says to a bot account that tries to play through it."""
    return _("This is a bot account: it plays only through the API (see “Writing a bot” "
             "in the documentation). Its owner can read its games here.")


def bot_account_flag_sql(user_column: str) -> str:
    """Whether the user `user_column` names is a bot account, as SQL (a seat flag the store
    reads with the seats: config.reactions.SEAT_FLAGS)."""
    q = sql.quote
    return (f"EXISTS (SELECT 1 FROM {sql.table(BotAccount)} b "
            f"WHERE b.{q('user_id')} = {user_column})")
