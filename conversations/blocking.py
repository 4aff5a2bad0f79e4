"""Blocking: nothing a blocked player writes or invites to reaches the player who blocks
them. The blocked player is never told: their messages, invitations and challenges are
taken and answered as anyone's, and never delivered (conversations.messaging,
withhold_blocked_invitation)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from conversations.models import Block
from games.errors import ServiceError
from games.models import Invitation


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


def withhold_blocked_invitation(what, invitation) -> None:
    """An invitation guard (config/reactions.py, before every reaction): an invitation (or a
    challenge) from a player its invitee blocks is made as any other and withheld, never
    delivered (no notification, no mail, no stream; the invitee neither lists nor sees
    the game). Its inviter sees it pending, exactly as an invitation never answered, and
    it ends as one does: withdrawn, or left behind when the game starts or is cancelled."""
    if what == "invited" and Block.objects.filter(
            blocker_id=invitation.user_id, blocked_id=invitation.invited_by_id).exists():
        Invitation.objects.filter(pk=invitation.pk).update(delivered=False)
        invitation.delivered = False


def withhold_blocked_rematch(news) -> None:
    """A rematch guard (config/reactions.py, before every reaction): a player who
    blocks the one offering or declining is not told (the offer still shows on the finished
    game's page, which both played; the one they block sees them as not answering yet)."""
    blocking = set(Block.objects.filter(blocker_id__in=news.tell, blocked_id=news.by.pk)
                   .values_list("blocker_id", flat=True))
    news.tell[:] = [user_id for user_id in news.tell if user_id not in blocking]
