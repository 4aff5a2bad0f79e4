"""Rendering a notification into a mail (text and HTML), in the recipient's language and
time zone, showing only what the recipient's seat may see."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from accounts import email as addresses
from accounts.models import Preferences, preferences_for
from games import narrate, services
from games.clock import zone
from games.models import Seat
from games.names import continent_name, territory_name
from games.rules import events as ev
from games.rules.board import CONTINENTS
from games.store import load_state
from notifications import links
from notifications.models import Notification

# Marked for the catalogues here, translated when a mail is rendered in its reader's language.
SUBJECTS = {
    Notification.TURN: gettext_noop("Your move in %(game)s (%(when)s)"),
    Notification.REMINDER: gettext_noop("Reminder: your move in %(game)s is due %(deadline)s"),
    Notification.STARTED: gettext_noop("%(game)s has started"),
    Notification.ELIMINATED: gettext_noop("You were eliminated from %(game)s"),
    Notification.FINISHED: gettext_noop("%(game)s is over"),
    Notification.TIMED_OUT: gettext_noop("A deadline passed in %(game)s"),
    Notification.DROPPED: gettext_noop("A player left %(game)s"),
    Notification.REPLY: gettext_noop("Re: your moves in %(game)s"),
    Notification.DIGEST: gettext_noop("Your games waiting for you"),
    Notification.REPLACED: gettext_noop("You take over a seat in %(game)s"),
    Notification.MODERATED: gettext_noop("A moderator acted in %(game)s"),
    Notification.TOURNAMENT: gettext_noop("%(tournament)s: news of your tournament"),
}


def wants(preferences: Preferences, notification: Notification) -> bool:
    if notification.kind == Notification.CONFIRM_EMAIL:
        # Not once that address is the account's and confirmed (an earlier link was used).
        email = notification.payload.get("email")
        return bool(email) and not (email == notification.user.email
                                    and addresses.confirmed(notification.user))
    if preferences.unsubscribed or not addresses.confirmed(notification.user):
        return False
    if notification.kind in (Notification.TURN, Notification.REMINDER):
        return preferences.turn_mail != Preferences.NO_TURN_MAIL
    if notification.kind in (Notification.REPLY, Notification.DIGEST):
        return True
    return preferences.game_mail


def board_text(view: dict, names: dict) -> list[str]:
    """The board as text lines, continent by continent."""
    lines = []
    for continent, (bonus, territories) in CONTINENTS.items():
        lines.append(f"{continent_name(continent)} (+{bonus})")
        for territory in territories:
            spot = view["territories"][territory]
            if spot.get("fog"):  # fog of war: neither owner nor armies are known
                lines.append(f"  {territory_name(territory):<24} {_('(out of sight)'):<22} ?")
                continue
            owner = narrate.seat_name(spot["owner"], names) if spot["owner"] is not None else "-"
            lines.append(f"  {territory_name(territory):<24} {owner:<22} {spot['armies']}")
    return lines


def _local(moment, tz_name):
    return timezone.localtime(moment, zone(tz_name)) if moment else None


def context_for(notification: Notification, preferences: Preferences) -> dict:
    game = notification.game
    context = {
        "kind": notification.kind, "user": notification.user, "payload": notification.payload,
        "site_url": settings.SITE_URL,
        "unsubscribe_url": links.unsubscribe_url(notification.user_id),
        "preferences_url": links.site("/accounts/profile/"),
        "time_zone": preferences.time_zone,
    }
    if notification.kind == Notification.TOURNAMENT:
        context["tournament_url"] = links.site(
            f"/tournaments/{notification.payload.get('tournament_id')}/")
    if game is None:
        return context
    seat = Seat.objects.filter(game=game, user_id=notification.user_id).values_list(
        "seat", flat=True).first()
    upto = notification.event_seq if notification.kind != Notification.REMINDER else None
    state = load_state(game, upto) if game.version else None
    view = services.game_view(game, state, seat)
    names = services.usernames(game)
    deadline = _local(game.deadline, preferences.time_zone)
    context.update({
        "game": game, "view": view, "seat": seat, "names": names,
        "game_url": links.open_game_url(notification.user, game.pk),
        "deadline": deadline, "turn": view.get("turn"),
        "you": view.get("you"),
        # each card by its id (mailed trades name them) and its names in the reader's language
        "cards": [{"id": card["id"], "words": narrate.card_text(card["id"])}
                  for card in (view.get("you") or {}).get("cards", [])],
        "me": narrate.seat_name(seat, names) if seat is not None else None,
        "board": board_text(view, names) if state is not None else [],
    })
    if notification.kind in (Notification.TURN, Notification.REPLY) and state is not None:
        context["since"] = _since_last_turn(game, seat, names, notification.event_seq)
    if notification.kind == Notification.FINISHED:
        context["seed"] = game.seed if game.is_over else None
        context["winner"] = narrate.seat_name(view.get("winner"), names)
        if view.get("winning_team") is not None:  # a team game: every member won
            context["winner"] = narrate.team_words(view["winning_team"], view["winners"], names)
    if notification.kind in (Notification.ELIMINATED, Notification.DROPPED,
                             Notification.TIMED_OUT):
        context["who"] = narrate.seat_name(notification.payload.get("seat"), names)
        context["by"] = narrate.seat_name(notification.payload.get("by"), names)
    # Table talk since the reader's previous turn mail (the moderation app keeps the chat).
    from moderation.mail import chat_for_mail

    context.update(chat_for_mail(notification, context))
    return context


def _since_last_turn(game, seat, names, upto) -> list[str]:
    """What others did to the recipient since their previous turn began."""
    events = services.event_dicts(game, seat)
    if upto:
        events = [e for e in events if e["seq"] <= upto]
    start = 0
    for index, event in enumerate(events[:-1]):
        if event["type"] == ev.TURN_STARTED and event["data"]["seat"] == seat:
            start = index
    return narrate.happened_to(events[start:], seat, names)[-30:]


def render(notification: Notification) -> EmailMultiAlternatives | None:
    """The mail for a notification, or None if the recipient wants no such mail."""
    preferences = preferences_for(notification.user)
    if not wants(preferences, notification):
        return None
    if notification.kind == Notification.CONFIRM_EMAIL:
        return _confirmation(notification, preferences)
    with translation.override(preferences.language), timezone.override(
        zone(preferences.time_zone)
    ):
        context = context_for(notification, preferences)
        game = notification.game
        subject = _(SUBJECTS[notification.kind]) % {
            "game": game.name if game else "Conquest", "turn": context.get("turn"),
            "when": _("turn %(turn)s") % {"turn": context["turn"]} if context.get("turn")
            else _("setup"),
            # the reader's language's own short date ("čt 11. 6. 19:00", not "Thu 11 Jun")
            "deadline": date_format(context["deadline"], pgettext("short date", "D j M H:i"))
            if context.get("deadline") else "",
            "tournament": notification.payload.get("tournament", ""),
        }
        text = render_to_string("mail/notification.txt", context)
        html = render_to_string("mail/notification.html", context)
    headers = {
        "List-Unsubscribe": f"<{context['unsubscribe_url']}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Message-ID": f"<notification-{notification.pk}@{settings.CONQUEST_MAIL_DOMAIN}>",
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


def _confirmation(notification: Notification, preferences: Preferences):
    """The link that confirms payload["email"], mailed to that address."""
    email = notification.payload["email"]
    with translation.override(preferences.language):
        context = {"user": notification.user,
                   "confirm_url": addresses.confirm_url(notification.user, email),
                   "hours": settings.CONQUEST_CONFIRM_LINK_HOURS}
        subject = _("Confirm your address for Conquest")
        text = render_to_string("mail/confirm_email.txt", context)
        html = render_to_string("mail/confirm_email.html", context)
    message = EmailMultiAlternatives(
        subject=subject, body=text, from_email=settings.DEFAULT_FROM_EMAIL, to=[email],
        headers={"Message-ID":
                 f"<notification-{notification.pk}@{settings.CONQUEST_MAIL_DOMAIN}>",
                 "X-Conquest-Notification": str(notification.pk)})
    message.attach_alternative(html, "text/html")
    return message
