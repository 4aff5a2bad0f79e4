"""Mail players send in, the mail side of moves by mail (web.mail_moves is the door that
plays them): the log row of each mail, who sent it (the reply address carries a per-seat
signature; the sender must be the seat's player), a message seen before (same Message-ID)
taken once, the reply every mail that can be tied to a player gets through the outbox (what
was done, or the exact error, and the board), and the text and addresses of a mail as an
MTA pipes it in or anymail hands it over.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from email.utils import getaddresses, parseaddr

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction

from accounts.bots import is_bot_account
from games.models import Game, Seat
from notifications import links
from notifications.mail_in.reply_text import html_text
from notifications.models import InboundMail, Notification

log = logging.getLogger(__name__)
BOT_ACCOUNT = ("This is a bot account: it plays only through the API, never by mail. "
               "Its program sends its moves to /api/v1/games/<id>/commands/.")
MAX_COMMANDS = 50
EXPIRED = ("This reply address has expired: reply to the newest mail about this game "
           "(this one will do).")


@dataclass
class Sender:
    """An inbound mail tied to the seat whose player sent it, to play."""
    inbound: InboundMail
    game: Game
    seat: int
    user: object
    message_id: str


@dataclass
class Mail:
    """What a door needs of one mail: its sender, recipients, Message-ID and text."""
    sender: str
    recipients: list[str]
    message_id: str | None
    text: str


def _user_for_seat(game_id: int, seat: int):
    return Seat.objects.filter(game_id=game_id, seat=seat).values_list("user_id", flat=True).first()


def check_sender(mail: Mail) -> Sender | InboundMail:
    """Log the mail and find the seat it plays for: a Sender, or the mail's log row settled
    (refused or duplicate, with a reply where it can be tied to a player).

    Authentication comes first (the signed reply address, then the sender); only then is
    the Message-ID taken, per seat, so a stranger cannot burn the ID a player will use."""
    message_id = (mail.message_id or "").strip()[:300]
    sender_address = parseaddr(mail.sender or "")[1].lower()
    inbound = InboundMail.objects.create(
        message_id=message_id, sender=sender_address[:300],
        recipient=",".join(mail.recipients)[:300], status="received",
    )
    target = next(
        (found for found in (links.read_reply_address(r, _user_for_seat) for r in mail.recipients)
         if found), None)
    if target is None:
        return close(inbound, InboundMail.REFUSED, "no valid signed reply address")
    game_id, seat, user_id, mailed_turn = target
    user = get_user_model().objects.get(pk=user_id)
    if not sender_address or sender_address != (user.email or "").lower():
        return close(inbound, InboundMail.REFUSED, "the sender is not the seat's player")
    game = Game.objects.get(pk=game_id)
    inbound.game, inbound.user = game, user
    if is_bot_account(user):
        # A bot account plays only through the API (docs/bots/contract.md "Bot accounts").
        close(inbound, InboundMail.REFUSED, "a bot account plays only through the API")
        return reply(inbound, game, user, [], None, BOT_ACCOUNT, message_id)
    if game.turn > mailed_turn + links.reply_window(game.players):
        close(inbound, InboundMail.REFUSED, f"reply address of turn {mailed_turn} expired")
        return reply(inbound, game, user, [], None, EXPIRED, message_id)
    if message_id:
        try:
            with transaction.atomic():
                InboundMail.objects.filter(pk=inbound.pk).update(
                    once_key=f"{game_id}:{seat}:{message_id}")
        except IntegrityError:
            log.info("inbound mail %s delivered again for one seat; applied once", inbound.pk)
            return close(inbound, InboundMail.DUPLICATE, "delivered before: applied once")
    return Sender(inbound, game, seat, user, message_id)


def reply(inbound, game, user, applied, failed, error, message_id, seqs=()) -> InboundMail:
    """What was done, or why not, mailed back with the board and a fresh reply address.
    `seqs`: the first and last event of each applied command, which the answer narrates
    (notifications.mail_in.answers)."""
    game.refresh_from_db()
    Notification.objects.get_or_create(
        user=user, key=f"reply:{inbound.pk}",
        defaults={"game": game, "kind": Notification.REPLY, "event_seq": game.version,
                  "payload": {"applied": applied, "failed": failed, "error": error,
                              "in_reply_to": message_id, "seqs": list(seqs)}},
    )
    _queue_reply(inbound)
    return inbound


def close(inbound: InboundMail, status: str, detail: str) -> InboundMail:
    inbound.status, inbound.detail = status, detail
    inbound.save(update_fields=["status", "detail", "game", "user"])
    return inbound


def _queue_reply(inbound: InboundMail) -> None:
    from notifications.outbox import queue_delivery

    ids = list(Notification.objects.filter(key=f"reply:{inbound.pk}").values_list("pk", flat=True))
    transaction.on_commit(lambda: queue_delivery(ids))


def from_message(message) -> Mail:
    """An email.message.Message (RFC 822), e.g. piped in by the local MTA."""
    recipients = [address for _, address in getaddresses(
        message.get_all("To", []) + message.get_all("Cc", []) + message.get_all("Delivered-To", [])
    )]
    return Mail(message.get("From", ""), recipients, message.get("Message-ID"), _text_of(message))


def _text_of(message) -> str:
    """The reply's text: its plain-text part, else the text of its HTML part (a client
    set to send HTML only)."""
    parts = list(message.walk()) if message.is_multipart() else [message]
    for content_type in ("text/plain", "text/html"):
        for part in parts:
            if part.get_content_type() == content_type and not part.get_filename():
                payload = part.get_payload(decode=True) or b""
                text = payload.decode(part.get_content_charset() or "utf-8", "replace")
                return html_text(text) if content_type == "text/html" else text
    return ""


def from_anymail(event) -> Mail:
    """anymail's inbound event (any provider anymail supports)."""
    message = event.message
    recipients = [a.addr_spec for a in (message.to or [])] + [a.addr_spec for a in (message.cc or [])]
    if message.envelope_recipient:
        recipients.append(message.envelope_recipient)
    text = message.text or (html_text(message.html) if message.html else "")
    return Mail(str(message.from_email or ""), recipients, message.get("Message-ID"), text)
