"""The mail's reactions (declared in the wiring's REACTIONS): the outbox rows a
committed change's events cause, written in the append's own transaction (or statement)
and handed to the delivery workers once committed; the rows a rematch's news causes; and
the invitee's news of an invitation; the entries of chat mentions; the mail of a private
message and of a tournament's news."""

from __future__ import annotations

from django.utils import timezone

from games.service import LOBBY
from notifications import outbox
from notifications.models import Notification


def outbox_rows(done):
    # The lobby's actor names the user who started the game, if one did (lobby.open_games).
    started_by = done.actor.user_id if done.actor.kind == LOBBY else None
    return outbox.outbox_writer(done.game, done.seats, done.events, done.before, done.after,
                                started_by)


def rematch_rows(news) -> None:
    """In the offer's transaction: the other human players of the finished game hear that
    a rematch was offered or declined (lobby.rematch.RematchNews), on the site and by mail."""
    game = news.game
    rows = [Notification(user_id=user_id, game=game, kind=Notification.REMATCH,
                         event_seq=game.version, key=f"rematch:{game.pk}:{news.what}",
                         payload={"what": news.what, "by": news.by.get_username()})
            for user_id in news.tell]
    if rows:
        outbox.write_outbox_rows(game, rows)


def invitation_news(what, invitation):
    """An invitation by name is a notification on the site and a mail (if the invitee
    takes game mail); once answered or withdrawn, its entry counts as read and a mail not
    yet sent is not sent (notifications.delivery). A withheld one is none of this."""
    if not invitation.delivered:
        return
    if what == "invited":
        outbox.write_outbox_rows(invitation.game, [Notification(
            user_id=invitation.user_id, game=invitation.game, kind=Notification.INVITATION,
            key=f"invitation:{invitation.pk}:{invitation.created_at.timestamp() * 1e6:.0f}",
            payload={"invitation": invitation.pk, "by": invitation.invited_by.username})])
    else:
        Notification.objects.filter(
            user_id=invitation.user_id, kind=Notification.INVITATION,
            payload__invitation=invitation.pk, read_at__isnull=True,
        ).update(read_at=timezone.now())


def mention_entries(game, message, mentioned: list[int]) -> None:
    """A chat line's mentions (moderation.mentions), in its transaction: an entry in each
    mentioned player's notification list, shown on the site only (settled at once, so no
    worker mails it)."""
    now = timezone.now()
    Notification.objects.bulk_create([
        Notification(user_id=user_id, game=game, kind=Notification.MENTION,
                     key=f"mention:{message.pk}", payload={"author": message.user.username,
                                                           "message": message.pk},
                     sent_at=now, skipped=True, last_error="shown on the site only")
        for user_id in mentioned], ignore_conflicts=True)


def message_mail(message, first_unread: bool) -> None:
    """A private message (conversations.messaging), in its transaction: its recipient is
    mailed for the first message they have not read yet (never its text), unless it was
    withheld from them."""
    if message.delivered and first_unread:
        outbox.write_outbox_rows(None, [Notification(
            user_id=message.recipient_id, kind=Notification.MESSAGE,
            key=f"message:{message.pk}", payload={"sender": message.sender.username})])


def tournament_rows(tournament, user_ids, payload: dict, game=None) -> None:
    """A tournament's news (tournaments.services.tell), in its transaction: one mail per
    participant named, sent once (keyed by tournament, round and what)."""
    key = f"tournament:{tournament.pk}:{payload['what']}:{payload.get('round', '')}"
    rows = [Notification(user_id=user_id, game=game, kind=Notification.TOURNAMENT,
                         key=key, payload={**payload, "tournament": tournament.name,
                                           "tournament_id": tournament.pk})
            for user_id in user_ids]
    if rows:
        outbox.write_outbox_rows(game, rows)


def release_end_mails(game_ids) -> None:
    """The ratings of these games are recorded (ratings.tasks), committed: their end mails
    not sent yet go to the workers now (notifications.ending held them for the ratings)."""
    if game_ids:
        outbox.queue_delivery(Notification.objects.filter(
            game_id__in=list(game_ids), kind=Notification.FINISHED,
            sent_at__isnull=True).values_list("pk", flat=True))
