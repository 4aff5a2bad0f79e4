"""The site's notification list: the user's outbox rows worth showing there (your move, a
game started or finished, chat mentions, tournament news, invitations), read or unread.

An entry says no more than its mail does, which shows only what the recipient's seat may
see: a game's name, a tournament's news, who mentioned you (not the line, which a
moderator may hide later). Opening a game's page marks that game's entries read
(notifications.presence.seen).
"""

from __future__ import annotations

from django.db.models import OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from notifications.models import Notification
from words.titles import game_title

LISTED = (Notification.TURN, Notification.STARTED, Notification.FINISHED,
          Notification.ELIMINATED, Notification.REPLACED, Notification.MENTION,
          Notification.TOURNAMENT, Notification.REMATCH,
          Notification.INVITATION)
PAGE_SIZE = 50


def listed(user):
    """The user's entries, newest first. Of a game's "your move" rows only the newest
    counts: a game against bots writes one a turn, and they all say the same."""
    newest_turn = Notification.objects.filter(
        user_id=OuterRef("user_id"), game_id=OuterRef("game_id"), kind=Notification.TURN,
    ).order_by("-pk").values("pk")[:1]
    return (Notification.objects.filter(user=user, kind__in=LISTED)
            .exclude(Q(kind=Notification.TURN) & ~Q(pk=Subquery(newest_turn)))
            .select_related("game").order_by("-pk"))


def unread_count(user) -> int:
    if not user.is_authenticated:
        return 0
    return listed(user).filter(read_at__isnull=True).count()


def mark_read(user, ids=None) -> int:
    """Mark the user's entries `ids` (all, if None) read; how many were unread."""
    rows = Notification.objects.filter(user=user, kind__in=LISTED, read_at__isnull=True)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read_at=timezone.now())


def text_of(row: Notification) -> str:
    """The entry in words, in the active language (the msgids the mails use, where the
    mails say the same)."""
    game = game_title(row.game) if row.game is not None else ""
    payload = row.payload or {}
    if row.kind == Notification.TURN:
        return _("Your move in %(game)s") % {"game": game}
    if row.kind == Notification.STARTED:
        return _("%(game)s has started") % {"game": game}
    if row.kind == Notification.FINISHED:
        return _("%(game)s is over") % {"game": game}
    if row.kind == Notification.ELIMINATED:
        return _("You were eliminated from %(game)s") % {"game": game}
    if row.kind == Notification.REPLACED:
        return _("You take over a seat in %(game)s") % {"game": game}
    if row.kind == Notification.MENTION:
        return _("%(author)s mentioned you in %(game)s") % {
            "author": payload.get("author", ""), "game": game}
    if row.kind == Notification.REMATCH:
        return rematch_text(payload, game)
    if row.kind == Notification.INVITATION:
        return _("%(by)s invites you to %(game)s") % {"by": payload.get("by", ""), "game": game}
    return _tournament_text(payload)


def rematch_text(payload: dict, game: str) -> str:
    if payload.get("what") == "declined":
        return _("%(player)s declined the rematch of %(game)s") % {
            "player": payload.get("by", ""), "game": game}
    return _("%(player)s offers a rematch of %(game)s") % {
        "player": payload.get("by", ""), "game": game}


def _tournament_text(payload: dict) -> str:
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


def url_of(row: Notification) -> str:
    if row.kind == Notification.TOURNAMENT and (row.payload or {}).get("tournament_id"):
        return reverse("tournament", args=[row.payload["tournament_id"]])
    if row.game_id is None:
        return reverse("inbox")
    page = reverse("game", args=[row.game_id])
    if row.kind == Notification.REMATCH:
        return f"{page}#result"
    return f"{page}#chat" if row.kind == Notification.MENTION else page


def entry(row: Notification) -> dict:
    """One entry as the page and the API show it."""
    return {"id": row.pk, "kind": row.kind, "text": text_of(row), "url": url_of(row),
            "game": row.game_id, "created_at": row.created_at.isoformat(),
            "read": row.read_at is not None}


def entries(user, limit: int = PAGE_SIZE) -> list[dict]:
    return [entry(row) for row in listed(user)[:limit]]
