"""The end of a game by mail: one mail that tells how the game ended (the departures of
the move that ended it: a resignation, a drop, the last elimination) and what it did to
the reader's rating, and a link to the game's charts with its biggest turning point if the
analysis is done by then. Ratings are recorded by a worker after the game-ending commit
(ratings.reactions), so delivery holds the end mail until they are, for at most
CONQUEST_END_MAIL_WAIT_SECONDS after the end (then it goes without the rating); it does not
wait for the analysis, which takes up to a minute of a worker's time. The order is declared
(config/reactions.py: "results_recorded"): once a game's ratings are recorded,
notifications.reactions.release_end_mails hands its held end mails to the workers at once."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.utils import timezone

from engine import events as ev
from games import seat_views
from games.models import Game
from games.store.row import rules_of
from lib.numbers import signed
from notifications.models import Notification
from ratings import changes, headlines, story_words
from words import narrator

# A held end mail is asked for again this often, should its release be lost (a worker
# stopped between recording the ratings and releasing the mails); the release is at once.
RETRY = timedelta(seconds=30)
# What the end mail tells of the move that ended the game, instead of mails of their own.
DEPARTURES = (ev.TURN_TIMED_OUT, ev.PLAYER_DROPPED, ev.PLAYER_ELIMINATED, ev.SEAT_TO_BOT)


def wait() -> timedelta:
    return timedelta(seconds=settings.CONQUEST_END_MAIL_WAIT_SECONDS)


def waiting_for_results(rows) -> dict[int, datetime]:
    """Of these outbox rows, the end mails to hold back because their game's ratings are
    not recorded yet: row id -> when to try again."""
    ends = [r for r in rows if r.kind == Notification.FINISHED and r.game_id
            and r.game.status == Game.FINISHED]
    if not ends:
        return {}
    done = changes.recorded_of({r.game_id for r in ends})
    now, held = timezone.now(), {}
    for row in ends:
        ended = row.game.finished_at or row.created_at
        if row.game_id not in done and now < ended + wait():
            held[row.pk] = min(now + RETRY, ended + wait())
    return held


def end_context(notification: Notification, game, seat, names) -> dict:
    """What the end mail adds: how the game ended, and the reader's rating change."""
    since = (notification.payload or {}).get("since")
    upto = notification.event_seq
    events = seat_views.event_dicts(game, seat, upto=upto)
    departures = []
    if isinstance(since, int):
        departures = [narrator.describe(e, names) for e in events
                      if e["seq"] > since and e["type"] in DEPARTURES]
    headline = ""
    if seat is not None and game.status == Game.FINISHED:
        team_size = rules_of(game).team_size
        places = headlines.places_of(events, game.players, team_size)
        headline = headlines.headline(places, seat, team_size)[0] if seat in places else ""
    found = changes.changes(game.pk)
    rating = None if found is None else found.get(notification.user_id, {"rated": False})
    if rating and rating["rated"]:
        rating = {**rating, "signed": signed(rating["change"]),
                  "before": changes.written(rating["before"], rating),
                  "after": changes.written(rating["after"], rating)}
    elif rating is not None and not rating.get("why"):
        rating = {**rating, "why": changes.why_words("", False)}
    turning = story_words.mail_line(game, names) if game.status == Game.FINISHED else ""
    return {"departures": departures, "rating": rating, "headline": headline,
            "turning_point": turning}
