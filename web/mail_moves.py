"""Moves by mail, a door like the API and the pages: a reply to a turn mail plays the
commands in its body through games.service.submit, one line after another (each counted
against the account's command limit, as the API's are), and stops at the first refused (notifications.mail_in.receive checks who sent it and mails the answer)."""

from __future__ import annotations

from django.utils import translation

from accounts import throttles
from accounts.models import preferences_for
from engine.errors import RuleViolation
from games import errors, service
from games.boards import board_for_new_game
from games.store.append import VersionConflict
from games.store.states import load_state
from notifications.mail_in import receive as mail_in
from notifications.mail_in.commands import MailCommandError, command_lines, parse_line
from notifications.models import InboundMail
from words.refusals import detail_sentence, too_fast
from words.vocabulary import detail_words


def receive(sender: str, recipients: list[str], message_id: str | None, body: str) -> InboundMail:
    """Handle one inbound mail; returns its log row (applied, failed, refused or duplicate)."""
    return receive_mail(mail_in.Mail(sender, recipients, message_id, body))


def receive_mail(mail: mail_in.Mail) -> InboundMail:
    found = mail_in.check_sender(mail)
    if isinstance(found, InboundMail):
        return found
    # Territory names in the player's own language come first; refusals are worded in it.
    with translation.override(preferences_for(found.user).language):
        applied, failed, error, seqs = _play(found.game, found.user, found.seat,
                                             command_lines(mail.text))
    status = InboundMail.FAILED if error else InboundMail.APPLIED
    mail_in.close(found.inbound, status, error or f"{len(applied)} command(s) applied")
    return mail_in.reply(found.inbound, found.game, found.user, applied, failed, error,
                         found.message_id, seqs)


def receive_message(message) -> InboundMail:
    """From an email.message.Message (RFC 822), e.g. piped in by the local MTA
    (`manage.py receive_mail`)."""
    return receive_mail(mail_in.from_message(message))


def on_anymail_inbound(sender, event, esp_name, **kwargs):
    """anymail's inbound signal (config/reactions.py, SIGNALS)."""
    receive_mail(mail_in.from_anymail(event))


def _play(game, user, seat, lines):
    applied, failed, error, seqs = [], None, None, []
    for line in lines[:mail_in.MAX_COMMANDS]:
        game.refresh_from_db()
        state = load_state(game) if game.version else None
        try:
            payload = parse_line(line, state, seat)
            if payload is None:
                continue
            # Each command counts against the account's limit, as one sent by the API does.
            wait = throttles.account_refused(user, throttles.COMMAND)
            if wait:
                failed, error = line, too_fast(wait)
                break
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
