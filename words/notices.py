"""What each notification kind says, in plain, translatable words: its mail's subject, its
push's title and its line in the site's list (notifications.kinds declares the kinds and
reads these; tests/notifications/test_kinds.py holds them complete). Marked here,
translated when a mail, a push or a page is made in its reader's language."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

# The mail's subject: %(game)s, %(when)s, %(deadline)s, %(tournament)s, %(sender)s, %(by)s.
SUBJECTS = {
    "turn": gettext_noop("Your move in %(game)s (%(when)s)"),
    "reminder": gettext_noop("Reminder: your move in %(game)s is due %(deadline)s"),
    "started": gettext_noop("%(game)s has started"),
    "eliminated": gettext_noop("You were eliminated from %(game)s"),
    "finished": gettext_noop("%(game)s is over"),
    "timed_out": gettext_noop("A deadline passed in %(game)s"),
    "dropped": gettext_noop("A player left %(game)s"),
    "reply": gettext_noop("Re: your moves in %(game)s"),
    "digest": gettext_noop("Your games waiting for you"),
    "replaced": gettext_noop("You take over a seat in %(game)s"),
    "moderated": gettext_noop("A moderator acted in %(game)s"),
    "tournament": gettext_noop("%(tournament)s: news of your tournament"),
    "rematch": gettext_noop("A rematch of %(game)s"),
    "message": gettext_noop("%(sender)s sent you a message"),
    "invitation": gettext_noop("%(by)s invites you to %(game)s"),
}

# The push's title: %(by)s, %(sender)s.
PUSH_TITLES = {
    "turn": gettext_noop("Your move"),
    "reminder": gettext_noop("Your move is due soon"),
    "started": gettext_noop("A game has started"),
    "eliminated": gettext_noop("You were eliminated"),
    "finished": gettext_noop("Game over"),
    "replaced": gettext_noop("You take over a seat"),
    "invitation": gettext_noop("%(by)s invites you to a game"),
    "message": gettext_noop("%(sender)s sent you a message"),
}

# The site's list (notifications.notices), the msgids the mails use where they say the same:
# %(game)s, %(author)s, %(by)s; the rematch's and the tournament's depend on their news.
LISTED = {
    "turn": gettext_noop("Your move in %(game)s"),
    "started": gettext_noop("%(game)s has started"),
    "finished": gettext_noop("%(game)s is over"),
    "eliminated": gettext_noop("You were eliminated from %(game)s"),
    "replaced": gettext_noop("You take over a seat in %(game)s"),
    "mention": gettext_noop("%(author)s mentioned you in %(game)s"),
    "invitation": gettext_noop("%(by)s invites you to %(game)s"),
}


def listed_text(kind: str, payload: dict, game: str) -> str:
    """A kind's line in the site's list, in the active language."""
    if kind == "rematch":
        return rematch_text(payload, game)
    if kind == "tournament":
        return tournament_text(payload)
    return _(LISTED[kind]) % {"game": game, "author": payload.get("author", ""),
                              "by": payload.get("by", "")}


def rematch_text(payload: dict, game: str) -> str:
    if payload.get("what") == "declined":
        return _("%(player)s declined the rematch of %(game)s") % {
            "player": payload.get("by", ""), "game": game}
    return _("%(player)s offers a rematch of %(game)s") % {
        "player": payload.get("by", ""), "game": game}


def tournament_text(payload: dict) -> str:
    name, what = payload.get("tournament", ""), payload.get("what")
    if what == "round":
        return _("Round %(round)s of %(name)s has begun: your game is table %(table)s.") % {
            "round": payload.get("round"), "name": name, "table": payload.get("table")}
    if what == "bye" and payload.get("knockout"):
        return _("You have a bye in round %(round)s of %(name)s: you go through to the next "
                 "round without a game.") % {"round": payload.get("round"), "name": name}
    if what == "bye":
        points = payload.get("points") or 0
        return ngettext(
            "You sit out round %(round)s of %(name)s (a bye): it counts as a win, "
            "%(points)s point.",
            "You sit out round %(round)s of %(name)s (a bye): it counts as a win, "
            "%(points)s points.", points) % {"round": payload.get("round"), "name": name,
                                             "points": points}
    if what == "out":
        return _("You are out of %(name)s after round %(round)s. Thank you for playing!") % {
            "name": name, "round": payload.get("round")}
    if what == "finished":
        return _("%(name)s is over: %(winner)s won it.") % {
            "name": name, "winner": payload.get("winner", "")}
    return _("%(name)s was called off.") % {"name": name}
