"""What a stream reads from the database, each a plain synchronous function the hub runs on
its few threads: who is asking, the caller's game view and its new events (through the very
code GET /games/{id}/ and events/ answer with: games.api.views, games.seat_views), the
caller's new notices."""

from __future__ import annotations

from django.db.models import Max
from rest_framework.request import Request
from rest_framework.settings import api_settings

from conversations import messaging
from engine.moves import seats_to_act
from games import seat_views, visibility
from games.api.views import game_view_for
from games.models import Game, Seat
from games.store.row import Loaded, load_game
from games.store.states import load_state
from games.waiting import games_waiting_for
from lib.api.renderers import FastJSONRenderer
from live import credentials
from moderation.models import ChatMessage
from notifications import notices
from notifications.models import Notification

_RENDER = FastJSONRenderer().render

# A notification's kind as the user stream names it; kinds not listed are never sent
# (an address to confirm, a digest, a mailed reply: mail business, not news).
NOTICE_KINDS = {
    Notification.TURN: "your_move",
    Notification.REMINDER: "reminder",
    Notification.STARTED: "game_started",
    Notification.FINISHED: "game_finished",
    Notification.ELIMINATED: "eliminated",
    Notification.TIMED_OUT: "timed_out",
    Notification.DROPPED: "dropped",
    Notification.REPLACED: "replaced",
    Notification.MODERATED: "moderated",
    Notification.MENTION: "mention",
    Notification.REMATCH: "rematch",
    Notification.MESSAGE: "message",
    Notification.INVITATION: "invitation",
    Notification.TOURNAMENT: "tournament",
}
# At most this many notices or events go out per read (a stream reads again at once).
BATCH = 200


def caller(django_request):
    """(The user the API's own authentication finds (a token, else the session), the
    credential that signed them in (None: signed out)), or raises DRF's
    AuthenticationFailed for a bad token, as every API call does."""
    request = Request(django_request,
                      authenticators=[cls() for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES])
    return request.user, credentials.of(request, request.user)


def visible_game(game_id: int, user) -> Loaded | None:
    """The game with its seats if the caller may see it (as games.api.views.found
    decides), else None."""
    loaded = load_game(game_id)
    if loaded is None or not visibility.may_see(loaded.game, user, None, loaded.seats):
        return None
    return loaded


def opening(game_id: int, user) -> tuple[bytes, int, bool] | None:
    """The caller's game view, as GET /games/{id}/ renders it, its version and whether the
    game is private; None if the game is not theirs to see."""
    loaded = visible_game(game_id, user)
    if loaded is None:
        return None
    view = game_view_for(loaded.game, loaded.seats, user)
    return _RENDER(view), view["version"], loaded.game.private


def game_row(game_id: int) -> Loaded | None:
    """The game's row with its seats (read now, in one query): what every stream of the
    game woken by the same news shares (live.hub.shared); None if it is gone."""
    return load_game(game_id)


def may_see(loaded: Loaded, user) -> bool:
    return visibility.may_see(loaded.game, user, None, loaded.seats)


def events_for(game: Game, seat: int | None, after: int) -> tuple[list[tuple[int, bytes]], bool]:
    """The game's events after `after` as events/ shows them to `seat` now (games.seat_views,
    the same redaction), each (seq, its JSON), and whether more wait."""
    upto = min(game.version, after + BATCH)
    if upto <= after:
        return [], False
    events = seat_views.event_dicts(game, seat, after, upto)
    return [(e["seq"], _RENDER(e)) for e in events], upto < game.version


def chat_heard(game_id: int, team: int | None, after: int) -> int:
    """The newest chat line of the game the caller may read (table lines, and their own
    team's): its id, or `after` if none is newer."""
    lines = ChatMessage.objects.filter(game_id=game_id, pk__gt=after)
    newest = [pk for pk, line_team in lines.values_list("pk", "team")
              if line_team is None or line_team == team]
    return max(newest, default=after)


def newest_chat(game_id: int) -> int:
    return ChatMessage.objects.filter(game_id=game_id).aggregate(m=Max("pk"))["m"] or 0


def newest_notice(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id).aggregate(m=Max("pk"))["m"] or 0


def notices_after(user_id: int, after: int) -> list[tuple[int, bytes]]:
    """The user's notices after notification `after`, oldest first: (id, its JSON or None
    for a row that is no notice)."""
    rows = (Notification.objects.filter(user_id=user_id, pk__gt=after)
            .order_by("pk").values_list("pk", "kind", "game_id", "payload", "created_at")[:BATCH])
    return [(pk, _RENDER(notice(pk, kind, game_id, payload, created_at))
             if kind in NOTICE_KINDS else None)  # passed over: the cursor moves on
            for pk, kind, game_id, payload, created_at in rows]


def due_now(user) -> list[bytes]:
    """`your_move` for each game that waits for the user now (a program that connects late
    still hears of the decision it owes): notices without a number, sent on opening."""
    due = []
    seated = (Seat.objects.filter(user=user, bot__isnull=True, game__status=Game.ACTIVE)
              .order_by("game_id").values_list("game_id", "seat")[:BATCH])
    for game_id, seat in seated:
        game = Game.objects.filter(pk=game_id).first()
        if game is not None and seat in seats_to_act(load_state(game)):
            due.append(_RENDER({"kind": "your_move", "game": game_id, "seat": seat,
                                "id": None, "pending": True}))
    return due


def counters(user) -> dict:
    """What the site's pages count for the user: the games waiting for their move, their
    unread notifications and messages (the header's badges)."""
    return {"games": games_waiting_for(user.pk), "unread": notices.unread_count(user),
            "messages": messaging.unread_count(user)}


def moves_data(counted: dict) -> bytes:
    """`event: moves`'s data: how many games wait for the user's move, and which; the
    unread notifications and messages."""
    return _RENDER({"count": len(counted["games"]), **counted})


def notice(pk, kind, game_id, payload, created_at) -> dict:
    return {**{k: v for k, v in (payload or {}).items() if k not in ("email",)},
            "id": pk, "kind": NOTICE_KINDS[kind], "game": game_id,
            "at": created_at.isoformat()}
