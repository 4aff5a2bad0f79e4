"""Signed links and addresses in mails: open the game signed in, unsubscribe in one click,
and the per-seat reply address that moves by mail are sent to."""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import NamedTuple

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.crypto import salted_hmac

from accounts.models import preferences_for

OPEN_SALT = "conquest.mail.open-game.v2"
UNSUBSCRIBE_SALT = "conquest.mail.unsubscribe"


def site(path: str) -> str:
    return settings.SITE_URL + path


def account_state(user) -> str:
    """What an open-game link is bound to, as Django's password reset links are: the
    password hash and the last sign-in. Signing in with the link (or any other way) or
    changing the password makes every earlier link useless."""
    last_login = user.last_login.replace(microsecond=0, tzinfo=None) if user.last_login else ""
    raw = f"{user.pk}:{user.password}:{last_login}:{user.email}"
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def open_game_url(user, game_id: int, sign_in: bool | None = None) -> str:
    """The mail's "open the game" link. It signs the reader in only for a player who chose
    so (`Preferences.mail_link_sign_in`; `sign_in` if the caller has read it): otherwise it
    carries no secret at all, so a forwarded mail hands over nothing, and it opens the
    page, asking for a sign-in first when the reader is not signed in."""
    if sign_in is None:
        sign_in = preferences_for(user).mail_link_sign_in
    if not sign_in:
        return site(reverse("mail-game", args=[game_id]))
    token = signing.dumps({"u": user.pk, "g": game_id, "s": account_state(user)},
                          salt=OPEN_SALT, compress=True)
    return site(reverse("mail-open", args=[token]))


def read_open_token(token: str) -> tuple[int, int, str] | None:
    """(user id, game id, account state) of a link still within its lifetime, else None."""
    try:
        data = signing.loads(token, salt=OPEN_SALT,
                             max_age=settings.CONQUEST_OPEN_LINK_HOURS * 3600)
        return int(data["u"]), int(data["g"]), str(data["s"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def unsubscribe_url(user_id: int) -> str:
    return site(reverse("mail-unsubscribe", args=[signing.dumps(user_id, salt=UNSUBSCRIBE_SALT)]))


def read_unsubscribe_token(token: str) -> int | None:
    try:
        return int(signing.loads(token, salt=UNSUBSCRIBE_SALT))
    except (signing.BadSignature, TypeError, ValueError):
        return None


NEUTRAL_SALT = "conquest.mail.neutral-question"


def neutral_answer_url(user_id: int, choice: str) -> str:
    """A mailed answer to "place the neutral's armies yourself, or automatically from now
    on?": signed for the player and the answer, it opens a page that takes it in one click
    (a POST: a link scanner opening the mail changes nothing)."""
    token = signing.dumps({"u": user_id, "c": choice}, salt=NEUTRAL_SALT)
    return site(reverse("mail-neutral", args=[token]))


def read_neutral_answer_token(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=NEUTRAL_SALT)
        return int(data["u"]), str(data["c"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


class ReplyTarget(NamedTuple):
    game_id: int
    seat: int
    user_id: int
    turn: int  # the game's turn when the address was mailed


REPLY_SALT = "conquest.mail.reply-address"


def _seat_signatures(game_id: int, seat: int, user_id: int, turn: int) -> list[str]:
    """The signatures an address may carry: its own first (signed with SECRET_KEY), then
    those signed with each of SECRET_KEY_FALLBACKS, so that rotating the key leaves the
    addresses already mailed working until they expire (reply_window)."""
    value = f"{game_id}:{seat}:{user_id}:{turn}"
    keys = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    return [salted_hmac(REPLY_SALT, value, secret=key, algorithm="sha256").hexdigest()[:20]
            for key in keys] + [_legacy_signature(value, key) for key in keys]


def _legacy_signature(value: str, key: str) -> str:
    """How addresses were signed before they had a key of their own (the raw key's HMAC):
    those already mailed keep moving until they expire in their game (reply_window)."""
    message = f"reply:v2:{value}".encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()[:20]


def reply_address(game_id: int, seat: int, user_id: int, turn: int = 0) -> str:
    """play+<game>-<seat>-<turn>-<signature>@<domain>: lower-case hex, safe through any MTA.

    A secret like a password: it moves for the seat. The signature covers the seat's player
    and the turn it was mailed in, and inbound mail accepts it only for a round of play
    after that (reply_window), so an address seen once (a forwarded mail, a log) soon
    moves nothing."""
    local, domain = settings.CONQUEST_REPLY_ADDRESS.split("@", 1)
    signature = _seat_signatures(game_id, seat, user_id, turn)[0]
    return f"{local}+{game_id}-{seat}-{turn}-{signature}@{domain}"


def reply_window(players: int) -> int:
    """How many turns after the one it was mailed in a reply address still moves: a round
    of play and the recipient's own next turn."""
    return max(players, 2) + 1


# Bounded digits: a game id fits a database integer, a seat is 0-5, a turn fits 9 digits.
_REPLY = re.compile(r"\+(\d{1,18})-(\d{1,2})-(\d{1,9})-([0-9a-f]{20})@", re.IGNORECASE)


def masked(address: str) -> str:
    """An address list with each reply address's signature hidden (for the admin)."""
    return _REPLY.sub(lambda m: f"+{m[1]}-{m[2]}-{m[3]}-…@", address or "")


def read_reply_address(address: str, user_for_seat) -> ReplyTarget | None:
    """Who and when the address was signed for, if its signature is valid, else None.
    `user_for_seat(game_id, seat)` says who holds the seat now."""
    match = _REPLY.search(address or "")
    if not match:
        return None
    game_id, seat, turn, signature = int(match[1]), int(match[2]), int(match[3]), match[4].lower()
    user_id = user_for_seat(game_id, seat)
    if user_id is None:
        return None
    signatures = _seat_signatures(game_id, seat, user_id, turn)
    if not any([hmac.compare_digest(signature, known) for known in signatures]):
        return None
    return ReplyTarget(game_id, seat, user_id, turn)
