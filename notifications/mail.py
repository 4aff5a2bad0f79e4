"""Rendering a notification into a mail (text and HTML), in the recipient's language and
time zone, showing only what the recipient's seat may see."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

import engine as rules
from accounts import email as addresses
from accounts.models import Preferences, preferences_for
from engine import events as ev
from engine.maps import board_by_hash
from games import seat_views
from games.boards import board_of_view
from games.clock import zone
from games.models import Seat
from games.store import log
from games.store.seats import Seats, read_seats, seats_of_games
from games.store.states import load_state
from notifications import links
from notifications.confirmation_mail import confirmation_mail
from notifications.kinds import KINDS
from notifications.models import Notification
from notifications.parts import mail_parts
from words import narrator
from words.notices import SUBJECTS
from words.titles import game_title
from words.vocabulary import continent_name, territory_name


def wants(preferences: Preferences, notification: Notification, confirmed=None) -> bool:
    """Whether the recipient takes this mail (`confirmed`: whether their address is, if
    the caller has read it already): as its kind's declared preference says."""
    if confirmed is None:
        confirmed = addresses.confirmed(notification.user)
    if notification.kind == Notification.CONFIRM_EMAIL:
        # Not once that address is the account's and confirmed (an earlier link was used);
        # the word to an address's owner that someone else gave it, always.
        email = notification.payload.get("email")
        return bool(email) and (notification.payload.get("taken")
                                or not (email == notification.user.email and confirmed))
    kind = KINDS[notification.kind]
    if preferences.unsubscribed or not confirmed or not kind.mailed:
        return False  # (a mention is shown on the site only)
    if kind.preference == "turn_mail":
        return preferences.turn_mail != Preferences.NO_TURN_MAIL
    return kind.preference is None or bool(getattr(preferences, kind.preference))


def board_text(view: dict, names: dict) -> list[str]:
    """The board as text lines, continent by continent (the game's map)."""
    board = board_of_view(view)
    territories, continents, out_of_sight = _board_words(board.hash, translation.get_language())
    owners: dict = {}
    lines = []
    for continent, (bonus, members) in board.continents.items():
        lines.append(f"{continents[continent]} (+{bonus})")
        for territory in members:
            spot = view["territories"][territory]
            if spot.get("fog"):  # fog of war: neither owner nor armies are known
                lines.append(f"  {territories[territory]:<24} {out_of_sight:<22} ?")
                continue
            owner = spot["owner"]
            if owner not in owners:
                owners[owner] = narrator.seat_name(owner, names) if owner is not None else "-"
            lines.append(f"  {territories[territory]:<24} {owners[owner]:<22} {spot['armies']}")
    return lines


@lru_cache(maxsize=32)
def _board_words(map_hash: str, language: str | None) -> tuple[dict, dict, str]:
    """The map's names in `language` (the active one), looked up once, not some fifty (or
    some hundreds) times a mail."""
    board = board_by_hash(map_hash)
    return ({t: territory_name(t, board) for t in board.territories},
            {c: continent_name(c, board) for c in board.continents}, _("(out of sight)"))


def _local(moment, tz_name):
    return timezone.localtime(moment, zone(tz_name)) if moment else None


class Reader:
    """What rendering a mail reads, a query at a time: for one mail. Batch reads the same
    for many mails in a few queries."""

    def preferences(self, user) -> Preferences:
        return preferences_for(user)

    def confirmed(self, user) -> bool:
        return addresses.confirmed(user)

    def seat(self, game, user_id: int) -> int | None:
        return Seat.objects.filter(game=game, user_id=user_id).values_list(
            "seat", flat=True).first()

    def seats(self, game) -> Seats:
        return read_seats(game)

    def state(self, game, upto: int | None):
        return load_state(game, upto) if game.version else None

    def since_last_turn(self, game, seat, names, upto, board=None) -> list[str]:
        return _since_last_turn(game, seat, names, upto, board)

    def chat(self, notification, context) -> dict:
        # Parts other apps add (the wiring's MAIL_PARTS: table talk since the reader's
        # previous turn mail, which the moderation app keeps).
        if notification.game_id is None:
            return {}
        seats = {(notification.game_id, notification.user_id):
                 self.seat(notification.game, notification.user_id)}
        return mail_parts([notification], seats).get(notification.pk, {})


def context_for(notification: Notification, preferences: Preferences,
                reader: Reader | None = None) -> dict:
    reader = reader or Reader()
    game = notification.game
    context = {
        "kind": notification.kind, "user": notification.user, "payload": notification.payload,
        "site_url": settings.SITE_URL,
        "unsubscribe_url": links.unsubscribe_url(notification.user_id),
        "preferences_url": links.site("/accounts/profile/"),
        "time_zone": preferences.time_zone,
    }
    kind = KINDS[notification.kind]
    context.update({"shows_board": kind.shows_board, "answered_by_mail": kind.answered_by_mail,
                    "commands_after": kind.commands_after})
    for link in kind.links:
        context.update(link(notification, context, reader, preferences, None))
    if game is None:
        return context
    seats = reader.seats(game)
    seat = seats.seat_of_user(notification.user_id)
    upto = notification.event_seq if kind.as_of_event else None
    state = reader.state(game, upto)
    view = seat_views.game_view(game, seats, state, seat)
    board = state.board if state is not None else board_of_view(view)
    names = seats.usernames()
    deadline = _local(game.deadline, preferences.time_zone)
    context.update({
        "game": game, "view": view, "seat": seat, "names": names,
        "game_url": links.open_game_url(notification.user, game.pk,
                                         preferences.mail_link_sign_in),
        "deadline": deadline, "turn": view.get("turn"),
        "you": view.get("you"),
        # each card by its id (mailed trades name them) and its names in the reader's language
        "cards": [{"id": card["id"], "words": narrator.card_text(card["id"], board)}
                  for card in (view.get("you") or {}).get("cards", [])],
        "me": narrator.seat_name(seat, names) if seat is not None else None,
        "board": board_text(view, names) if state is not None else [],
        "board_block": "",
    })
    for part in kind.parts:
        context.update(part(notification, context, reader, preferences, state))
    # One string for the templates: a loop over fifty lines costs more than the rest.
    context["board_block"] = "".join(f"{line}\n" for line in context["board"])
    context.update(reader.chat(notification, context))
    return context


def _since_last_turn(game, seat, names, upto, board=None) -> list[str]:
    """What others did to the recipient since their previous turn began."""
    events = seat_views.event_dicts(game, seat)
    if upto:
        events = [e for e in events if e["seq"] <= upto]
    start = 0
    for index, event in enumerate(events[:-1]):
        if event["type"] == ev.TURN_STARTED and event["data"]["seat"] == seat:
            start = index
    return narrator.happened_to(events[start:], seat, names, board)[-30:]


class Batch(Reader):
    """The reads of rendering many mails at once, in a few queries for the lot: the
    recipients' preferences and accounts, each game's seats and event log (read once
    and replayed in memory for every state the mails show), and the table talk."""

    def __init__(self, notifications: list[Notification]):
        from accounts.models import Account

        users = {n.user_id for n in notifications}
        self._preferences = {p.user_id: p for p in Preferences.objects.filter(
            user_id__in=users)}
        self._confirmed = dict(Account.objects.filter(user_id__in=users).values_list(
            "user_id", "email_confirmed"))
        games = {}
        for n in notifications:
            if n.game is not None:
                games.setdefault(n.game_id, []).append(n.game)
        self._seated = seats_of_games(list(games))
        self._seats = {(game_id, row.user_id): row.seat
                       for game_id, seats in self._seated.items() for row in seats}
        self._logs = {pk: [] for pk in games}
        for game_id, event, at in log.events_with_times_of_many(
                [(pk, 0, copies[0].version) for pk, copies in games.items()]):
            self._logs[game_id].append((event, at))
        self._states: dict[tuple, object] = {}
        self._made: dict[int, list[int]] = {}  # the versions of each game in _states
        self._chat = mail_parts([n for n in notifications if n.game is not None], self._seats)

    def preferences(self, user) -> Preferences:
        found = self._preferences.get(user.pk)
        if found is None:
            found = self._preferences[user.pk] = preferences_for(user)
        return found

    def confirmed(self, user) -> bool:
        return bool(user.email) and self._confirmed.get(user.pk, True)

    def seat(self, game, user_id: int) -> int | None:
        return self._seats.get((game.pk, user_id))

    def seats(self, game) -> Seats:
        return self._seated[game.pk]

    def state(self, game, upto: int | None):
        if not game.version:
            return None
        upto = game.version if upto is None else min(upto, game.version)
        key = (game.pk, upto)
        if key not in self._states:
            # From the nearest earlier state this batch made, else from the start.
            earlier = max((seq for seq in self._made.setdefault(game.pk, []) if seq < upto),
                          default=None)
            state = None if earlier is None else self._states[(game.pk, earlier)].copy()
            events = [e for e, _ in self._logs[game.pk][(earlier or 0):upto]]
            self._states[key] = rules.replay(events, state)
            self._made[game.pk].append(upto)
        return self._states[key].copy()

    def since_last_turn(self, game, seat, names, upto, board=None) -> list[str]:
        log = self._logs[game.pk][:upto] if upto else self._logs[game.pk]
        start = 0
        for index in range(len(log) - 2, -1, -1):
            event = log[index][0]
            if event.type == ev.TURN_STARTED and event.data.get("seat") == seat:
                start = index
                break
        if not log:
            return []
        # Under fog what a seat saw depends on the board before the first event.
        before = self.state(game, start) if start and (game.rules or {}).get("fog") else None
        seen = seat_views.redacted(game, [e for e, _ in log[start:]], seat, before)
        events = [{**e, "at": at.isoformat()} for e, (_, at) in zip(seen, log[start:],
                                                                     strict=True)]
        return narrator.happened_to(events, seat, names, board)[-30:]

    def chat(self, notification, context) -> dict:
        return self._chat.get(notification.pk, {})


def render_many(ids) -> list[EmailMultiAlternatives | None]:
    """The mails of the rows `ids` (None for one the recipient does not want), in that
    order, read in a few queries for the lot instead of some ten per mail."""
    rows = {n.pk: n for n in Notification.objects.filter(pk__in=list(ids)).select_related(
        "user", "game")}
    batch = Batch(list(rows.values()))
    return [render(rows[pk], batch) if pk in rows else None for pk in ids]


def render(notification: Notification, reader: Reader | None = None
           ) -> EmailMultiAlternatives | None:
    """The mail for a notification, or None if the recipient wants no such mail."""
    reader = reader or Reader()
    preferences = reader.preferences(notification.user)
    if not wants(preferences, notification, reader.confirmed(notification.user)):
        return None
    if notification.kind == Notification.CONFIRM_EMAIL:
        return confirmation_mail(notification, preferences, message_id(notification))
    with translation.override(preferences.language), timezone.override(
        zone(preferences.time_zone)
    ):
        context = context_for(notification, preferences, reader)
        game = notification.game
        subject = _(SUBJECTS[notification.kind]) % {
            "game": game_title(game) if game else "Conquest", "turn": context.get("turn"),
            "when": _("turn %(turn)s") % {"turn": context["turn"]} if context.get("turn")
            else _("setup"),
            # the reader's language's own short date ("čt 11. 6. 19:00", not "Thu 11 Jun")
            "deadline": date_format(context["deadline"], pgettext("short date", "D j M H:i"))
            if context.get("deadline") else "",
            "tournament": notification.payload.get("tournament", ""),
            "sender": notification.payload.get("sender", ""),
            "by": notification.payload.get("by", ""),
        }
        text = render_to_string("mail/notification.txt", context)
        html = render_to_string("mail/notification.html", context)
    headers = {
        "List-Unsubscribe": f"<{context['unsubscribe_url']}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Message-ID": message_id(notification),
        "X-Conquest-Notification": str(notification.pk),
    }
    reply_to = []
    if game is not None and context.get("seat") is not None and not game.is_over:
        reply_to = [links.reply_address(game.pk, context["seat"], notification.user_id,
                                        game.turn)]
        if notification.payload.get("in_reply_to"):
            headers["In-Reply-To"] = notification.payload["in_reply_to"]
    message = EmailMultiAlternatives(
        subject=subject, body=text, from_email=settings.DEFAULT_FROM_EMAIL,
        to=[notification.user.email], reply_to=reply_to, headers=headers,
    )
    message.attach_alternative(html, "text/html")
    return message


def message_id(notification: Notification) -> str:
    """The Message-ID every copy of the notification's mail carries."""
    return f"<notification-{notification.pk}@{settings.CONQUEST_MAIL_DOMAIN}>"
