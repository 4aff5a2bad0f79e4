"""Blocking: a player takes no messages from those they block. The blocked player is never
told (their messages are refused with the same words as a closed account's)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from conversations.models import Block
from games.errors import ServiceError


def block(user, other) -> Block:
    """`user` blocks `other` (again: nothing changes)."""
    if other.pk == user.pk:
        raise ServiceError(400, "bad_request", _("You cannot block yourself."))
    found, _created = Block.objects.get_or_create(blocker=user, blocked=other)
    return found


def unblock(user, other) -> bool:
    """`user` unblocks `other`; whether they had blocked them."""
    if other.pk == user.pk:
        raise ServiceError(400, "bad_request", _("You cannot block yourself."))
    deleted, _kinds = Block.objects.filter(blocker=user, blocked=other).delete()
    return bool(deleted)


def blocked_names(user) -> list[str]:
    return sorted(Block.objects.filter(blocker=user)
                  .values_list("blocked__username", flat=True), key=str.lower)


def refuse_blocked_invitation(what, invitation) -> None:
    """An invitation reaction (config/reactions.py), first in line: a player may not invite
    (or challenge) someone who blocks them, as an invitation is a notification and a mail
    carrying a game name the inviter chose. Refused as for a closed account, so the block
    stays untold; raising rolls the invitation (and a challenge's game) back."""
    if what == "invited" and Block.objects.filter(blocker_id=invitation.user_id,
                                                  blocked_id=invitation.invited_by_id).exists():
        raise ServiceError(400, "unknown_player",
                           f"there is no player named {invitation.user.username!r}")
