"""Moves by mail: a reply to a turn mail plays the commands in its body.

The reply address carries a per-seat signature; the sender must be the seat's player; a
message seen before (same Message-ID) is applied once. Every mail that can be tied to a
player gets a reply through the outbox: what was done, or the exact error, and the board.
"""

from __future__ import annotations

import logging
from email.utils import getaddresses, parseaddr

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import translation

from accounts.bots import is_bot_account
from accounts.models import preferences_for
from engine.errors import RuleViolation
from games import errors, service
from games.boards import board_for_new_game
from games.log import VersionConflict
from games.models import Game, Seat
from games.states import load_state
from notifications import links
from notifications.mailcommands import MailCommandError, command_lines, parse_line
from notifications.models import InboundMail, Notification
from notifications.replies import html_text
from words.refusals import detail_sentence
from words.vocabulary import detail_words

log = logging.getLogger(__name__)
BOT_ACCOUNT = ("This is a bot account: it plays only through the API, never by mail. "
               "Its program sends its moves to /api/v1/games/<id>/commands/.")
MAX_COMMANDS = 50
EXPIRED = ("This reply address has expired: reply to the newest mail about this game "
           "(this one will do).")


def _user_for_seat(game_id: int, seat: int):
    return Seat.objects.filter(game_id=game_id, seat=seat).values_list("user_id", flat=True).first()


def receive(sender: str, recipients: list[str], message_id: str | None, body: str) -> InboundMail:
    """Handle one inbound mail; returns its log row (applied, failed, refused or duplicate).

    Authentication comes first (the signed reply address, then the sender); only then is
    the Message-ID taken, per seat, so a stranger cannot burn the ID a player will use."""
    message_id = (message_id or "").strip()[:300]
    sender_address = parseaddr(sender or "")[1].lower()
    inbound = InboundMail.objects.create(
        message_id=message_id, sender=sender_address[:300],
        recipient=",".join(recipients)[:300], status="received",
    )
    target = next(
        (found for found in (links.read_reply_address(r, _user_for_seat) for r in recipients)
         if found), None)
    if target is None:
        return _close(inbound, InboundMail.REFUSED, "no valid signed reply address")
    game_id, seat, user_id, mailed_turn = target
    user = get_user_model().objects.get(pk=user_id)
    if not sender_address or sender_address != (user.email or "").lower():
        return _close(inbound, InboundMail.REFUSED, "the sender is not the seat's player")
    game = Game.objects.get(pk=game_id)
    inbound.game, inbound.user = game, user
    if is_bot_account(user):
        # A bot account plays only through the API (docs/bots/contract.md "Bot accounts").
        _close(inbound, InboundMail.REFUSED, "a bot account plays only through the API")
        return _reply(inbound, game, user, [], None, BOT_ACCOUNT, message_id)
    if game.turn > mailed_turn + links.reply_window(game.players):
        _close(inbound, InboundMail.REFUSED, f"reply address of turn {mailed_turn} expired")
        return _reply(inbound, game, user, [], None, EXPIRED, message_id)
    if message_id:
        try:
            with transaction.atomic():
                InboundMail.objects.filter(pk=inbound.pk).update(
                    once_key=f"{game_id}:{seat}:{message_id}")
        except IntegrityError:
            log.info("inbound mail %s delivered again for one seat; applied once", inbound.pk)
            return _close(inbound, InboundMail.DUPLICATE, "delivered before: applied once")
    # Territory names in the player's own language come first; refusals are worded in it.
    with translation.override(preferences_for(user).language):
        applied, failed, error, seqs = _play(game, user, seat, command_lines(body))
    status = InboundMail.FAILED if error else InboundMail.APPLIED
    _close(inbound, status, error or f"{len(applied)} command(s) applied")
    return _reply(inbound, game, user, applied, failed, error, message_id, seqs)


def _reply(inbound, game, user, applied, failed, error, message_id, seqs=()) -> InboundMail:
    """What was done, or why not, mailed back with the board and a fresh reply address.
    `seqs`: the first and last event of each applied command, which the answer narrates
    (notifications.answers)."""
    game.refresh_from_db()
    Notification.objects.get_or_create(
        user=user, key=f"reply:{inbound.pk}",
        defaults={"game": game, "kind": Notification.REPLY, "event_seq": game.version,
                  "payload": {"applied": applied, "failed": failed, "error": error,
                              "in_reply_to": message_id, "seqs": list(seqs)}},
    )
    _queue_reply(inbound)
    return inbound


def _play(game, user, seat, lines):
    applied, failed, error, seqs = [], None, None, []
    for line in lines[:MAX_COMMANDS]:
        game.refresh_from_db()
        state = load_state(game) if game.version else None
        try:
            payload = parse_line(line, state, seat)
            if payload is None:
                continue
            done = service.submit(service.player(user), game, payload)
        except (MailCommandError, RuleViolation, errors.ServiceError, VersionConflict) as problem:
            board = state.board if state is not None else board_for_new_game(game.map)
            detail = getattr(problem, "detail", None) or str(problem)
            # the rules' detail as a sentence for players where there is one
            failed, error = line, detail_sentence(detail, board) or detail_words(detail, board)
            break
        applied.append(line)
        seqs.append([done.events[0].seq, done.events[-1].seq] if done.events else None)
    return applied, failed, error, seqs


def _close(inbound: InboundMail, status: str, detail: str) -> InboundMail:
    inbound.status, inbound.detail = status, detail
    inbound.save(update_fields=["status", "detail", "game", "user"])
    return inbound


def _queue_reply(inbound: InboundMail) -> None:
    from notifications.outbox import queue_delivery

    ids = list(Notification.objects.filter(key=f"reply:{inbound.pk}").values_list("pk", flat=True))
    transaction.on_commit(lambda: queue_delivery(ids))


def receive_message(message) -> InboundMail:
    """From an email.message.Message (RFC 822), e.g. piped in by the local MTA."""
    recipients = [address for _, address in getaddresses(
        message.get_all("To", []) + message.get_all("Cc", []) + message.get_all("Delivered-To", [])
    )]
    return receive(message.get("From", ""), recipients, message.get("Message-ID"), _text_of(message))


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


def on_anymail_inbound(sender, event, esp_name, **kwargs):
    """anymail's inbound signal: any provider anymail supports."""
    message = event.message
    recipients = [a.addr_spec for a in (message.to or [])] + [a.addr_spec for a in (message.cc or [])]
    if message.envelope_recipient:
        recipients.append(message.envelope_recipient)
    text = message.text or (html_text(message.html) if message.html else "")
    receive(str(message.from_email or ""), recipients, message.get("Message-ID"), text)
