"""Who may write to whom, sending, reading and listing conversations: the one place the
pages and the API ask.

A player writes to anyone with an account, with these refusals, in this order: the
recipient does not exist (or is a computer player), is the sender, the text is empty or
too long, the sender blocks the recipient, the recipient's account is closed, the sender
may not start conversations yet (an account that has not finished a game may only answer
someone who wrote to it), or started too many conversations today.

A recipient who blocks the sender is no refusal: the blocked player is not told. Their
message is taken, answered and shown to them as anyone's, and withheld from the recipient
(`delivered` false): never listed, counted, mailed or shown to them, even after an unblock.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Count, OuterRef, Q, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import BOT_USERNAME_PREFIX
from accounts.throttles import throttle
from conversations.models import Block, Conversation, Message
from games.errors import ServiceError
from games.models import Game, Seat
from lib.reactions import announce
from moderation.text import clean_text

MAX_LENGTH = 2000
PAGE = 100
# Messages sent (pages and API together), per client address and per account.
THROTTLES = [throttle("message_ip"), throttle("message_user")]


def conversations_per_day() -> int:
    return getattr(settings, "CONQUEST_CONVERSATIONS_PER_DAY", 10)


def correspondent(username):
    """The player `username` (any case) one may write to, or a 404 ServiceError."""
    user = None
    # (PostgreSQL refuses a NUL in a query: no name holds a control character anyway)
    if isinstance(username, str) and 0 < len(username) <= 150 and username.isprintable():
        user = get_user_model().objects.filter(username__iexact=username).first()
    if user is None:
        raise ServiceError(404, "not_found", _("There is no player of that name."))
    return user


def finished_a_game(user) -> bool:
    """Whether `user` may start conversations: they held a seat in a game that finished
    (against anyone, computer players included), or they are staff."""
    return user.is_staff or Seat.objects.filter(
        user=user, bot__isnull=True, game__status=Game.FINISHED).exists()


def blocks(blocker, blocked) -> bool:
    return Block.objects.filter(blocker=blocker, blocked=blocked).exists()


def conversation_of(user, other, *, create_by=None) -> Conversation | None:
    first, second = sorted([user.pk, other.pk])
    if create_by is None:
        return Conversation.objects.filter(first_id=first, second_id=second).first()
    conversation, _ = Conversation.objects.get_or_create(
        first_id=first, second_id=second, defaults={"started_by": create_by})
    return conversation


def has_written(author, reader) -> bool:
    """Whether `author` has written to `reader` (and it reached them): `reader` may then
    answer."""
    return Message.objects.filter(sender=author, recipient=reader, delivered=True).exists()


def shown_to(user) -> Q:
    """The messages of `user`'s conversations they read: theirs, and those that reached
    them (not those withheld from them)."""
    return Q(sender=user) | Q(delivered=True)


def why_not_start(sender, recipient) -> str | None:
    """Why `sender` may not write to `recipient` for want of a finished game, or None."""
    if finished_a_game(sender) or has_written(recipient, sender):
        return None
    return _("You can start conversations once you have finished a game (against anyone, "
             "the computer included): this keeps spam out. Until then you can answer "
             "players who write to you.")


def clean_message(text) -> str:
    """The message as stored (moderation.text.clean_text), refused in the reader's words when
    it is empty or too long."""
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise ServiceError(400, "bad_request", _("The message must be text."))
    length = len(text.replace("\r\n", "\n").strip())
    if not length:
        raise ServiceError(400, "bad_request", _("The message is empty: write something."))
    if length > MAX_LENGTH:
        raise ServiceError(400, "bad_request", ngettext(
            "A message may be at most %(limit)s character long; this one has %(length)s.",
            "A message may be at most %(limit)s characters long; this one has %(length)s.",
            MAX_LENGTH) % {"limit": MAX_LENGTH, "length": length})
    try:
        return clean_text(text, "message", MAX_LENGTH)
    except ServiceError:  # (the rest of what clean_text refuses)
        raise ServiceError(400, "bad_request", _(
            "The message must not hold control characters.")) from None


def check_send(sender, recipient, text) -> str:
    """The text as it will be stored, or the ServiceError that refuses the message."""
    if sender is None or not sender.is_authenticated:
        raise ServiceError(401, "not_authenticated", _("Sign in to send messages."))
    if recipient.pk == sender.pk:
        raise ServiceError(400, "bad_request", _("You cannot send a message to yourself."))
    if recipient.username.lower().startswith(BOT_USERNAME_PREFIX) and not recipient.is_active:
        raise ServiceError(400, "bad_request", _("Computer players do not read messages."))
    text = clean_message(text)
    if blocks(sender, recipient):
        raise ServiceError(403, "blocked", _("You have blocked %(name)s: unblock them to "
                                             "write to them.") % {"name": recipient.username})
    if not recipient.is_active:
        raise ServiceError(403, "not_delivered", _("%(name)s does not take messages from "
                                                   "you.") % {"name": recipient.username})
    why = why_not_start(sender, recipient)
    if why is not None:
        raise ServiceError(403, "not_eligible", why)
    if conversation_of(sender, recipient) is None:
        since = timezone.now() - timedelta(days=1)
        limit = conversations_per_day()
        if Conversation.objects.filter(started_by=sender, created_at__gt=since).count() >= limit:
            raise ServiceError(429, "rate_limited", _(
                "You have started %(n)s conversations today: wait until tomorrow to start "
                "another.") % {"n": limit})
    return text


def send_message(sender, recipient, text) -> Message:
    """Send `text` from `sender` to `recipient` (check_send's refusals change nothing). The
    recipient is mailed (their preferences allowing) for the first message they have not
    read yet, not for every one; the mail names the sender, never the text. A recipient
    who blocks the sender never gets it, and the sender is not told."""
    text = check_send(sender, recipient, text)
    now = timezone.now()
    delivered = not blocks(recipient, sender)
    with transaction.atomic():
        conversation = conversation_of(sender, recipient, create_by=sender)
        waiting = Message.objects.filter(conversation=conversation, recipient=recipient,
                                         delivered=True, read_at__isnull=True).exists()
        message = Message.objects.create(conversation=conversation, sender=sender,
                                         recipient=recipient, text=text, created_at=now,
                                         delivered=delivered)
        Conversation.objects.filter(pk=conversation.pk).update(last_message_at=now)
        # The recipient's mail (for the first unread one only) and stream (config/reactions.py).
        announce("message_sent", message, not waiting)
    return message


def mark_read(user, conversation: Conversation) -> int:
    return Message.objects.filter(conversation=conversation, recipient=user, delivered=True,
                                  read_at__isnull=True).update(read_at=timezone.now())


def _blocked_by(user):
    return Block.objects.filter(blocker=user).values("blocked")


def unread_count(user) -> int:
    """Messages to `user` not read yet (none from players they block)."""
    if user is None or not user.is_authenticated:
        return 0
    return (Message.objects.filter(recipient=user, delivered=True, read_at__isnull=True)
            .exclude(sender__in=_blocked_by(user)).count())


def message_dict(message: Message) -> dict:
    """A message as its two players see it: a hidden one keeps its place, not its text."""
    return {"id": message.pk, "sender": message.sender.username,
            "recipient": message.recipient.username, "text": None if message.hidden else message.text, "hidden": message.hidden,
            "created_at": message.created_at.isoformat()}


def messages_of(conversation: Conversation | None, reader,
                before: int | None = None) -> list[Message]:
    """The last PAGE messages `reader` reads (before the id `before`), oldest first."""
    if conversation is None:
        return []
    rows = Message.objects.filter(shown_to(reader), conversation=conversation).select_related(
        "sender", "recipient")
    if before is not None:
        rows = rows.filter(pk__lt=before)
    return list(reversed(rows.order_by("-id")[:PAGE]))


def listing(user, limit: int = PAGE) -> list[dict]:
    """The user's conversations, newest first: the other player, the unread count and the
    last message, all of what they read (a conversation of messages withheld from them
    alone is not theirs; one's place is its last message they read)."""
    newest = (Message.objects.filter(shown_to(user), conversation=OuterRef("pk"))
              .order_by("-id"))
    rows = list(Conversation.objects.filter(Q(first=user) | Q(second=user))
                .annotate(last_id=Subquery(newest.values("pk")[:1]),
                          last_at=Subquery(newest.values("created_at")[:1]))
                .filter(last_id__isnull=False).order_by("-last_at", "-id")[:limit])
    ids = [row.pk for row in rows]
    unread = dict(Message.objects.filter(conversation_id__in=ids, recipient=user,
                                         delivered=True, read_at__isnull=True)
                  .values("conversation_id").annotate(n=Count("id"))
                  .values_list("conversation_id", "n"))
    last = {m.pk: m for m in Message.objects.filter(
        pk__in=[row.last_id for row in rows if row.last_id]).select_related(
        "sender", "recipient")}
    names = dict(get_user_model().objects.filter(
        pk__in={row.other(user.pk) for row in rows}).values_list("pk", "username"))
    blocked = set(Block.objects.filter(blocker=user).values_list("blocked_id", flat=True))
    entries = []
    for row in rows:
        other = row.other(user.pk)
        message = last.get(row.last_id)
        entries.append({
            "username": names[other], "blocked": other in blocked,
            "unread": 0 if other in blocked else unread.get(row.pk, 0),
            "last_message_at": row.last_at,
            "last": message_dict(message) if message is not None else None,
        })
    return entries
