"""Loading and appending a game's events: optimistic concurrency and snapshots.

Appending is the only write. The new events get the next seqs in one transaction with the
Game projection; the unique (game, seq) rule makes two racing writers collide, and the
loser gets VersionConflict with nothing applied.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games import rules
from games.clock import game_deadline
from games.models import Event, Game, Snapshot
from games.upcasters import current_version, upcast

ENGINE_VERSION = 1  # bump when GameState's shape changes: older snapshots are then ignored

# Called inside the append transaction with (game, new events, state before, state after):
# the mail outbox hooks in here so its rows commit or roll back with the events.
APPEND_HOOKS: list[Callable] = []


class VersionConflict(Exception):
    def __init__(self, current_version: int):
        super().__init__(f"the game is at version {current_version}")
        self.current_version = current_version


def snapshot_every() -> int:
    return getattr(settings, "CONQUEST_SNAPSHOT_EVERY", 100)


def _event_rows(game: Game, after: int, upto: int | None, *extra: str):
    rows = Event.objects.filter(game=game, seq__gt=after)
    if upto is not None:
        rows = rows.filter(seq__lte=upto)
    return rows.order_by("seq").values_list(
        "seq", "type", "data", "actor", "schema_version", *extra
    )


def _event(seq, kind, data, actor, version) -> rules.Event:
    if version != current_version(kind):
        data = upcast(kind, version, data)
    return rules.Event(seq, kind, data, actor)


def stored_events(game: Game, after: int = 0, upto: int | None = None) -> list[rules.Event]:
    return [_event(*row) for row in _event_rows(game, after, upto)]


def stored_events_with_times(game: Game, after: int = 0, upto: int | None = None) -> list:
    """[(event, when it was stored)], read in one query."""
    return [(_event(*row[:5]), row[5]) for row in _event_rows(game, after, upto, "created_at")]


# The newest state this process has loaded or made for each recently used game. Events
# never change, so the state at a version is the same wherever it was computed: it is
# used whenever the game's row shows that same version, which saves the snapshot and
# event reads of a move or a view. Keyed by the game's id and seed hash (an id can come
# back after a rolled-back insert on SQLite); only states of committed events go in; a
# copy goes in and comes out (evolve works in place). Like snapshots, it changes nothing
# but speed: CONQUEST_RECENT_STATES=0 turns it off.
_recent: OrderedDict = OrderedDict()
_recent_lock = threading.Lock()


def _recent_limit() -> int:
    return getattr(settings, "CONQUEST_RECENT_STATES", 256)


def recall(game: Game) -> rules.GameState | None:
    with _recent_lock:
        state = _recent.get((game.pk, game.seed_hash))
    if state is None or state.version != game.version:
        return None
    return state.copy()


def remember(game: Game, state: rules.GameState | None) -> None:
    """Keep `state` for `game` once the transaction that made it commits."""
    limit = _recent_limit()
    if state is None or limit <= 0:
        return
    key, kept = (game.pk, game.seed_hash), state.copy()

    def keep():
        with _recent_lock:
            known = _recent.get(key)
            if known is None or known.version <= kept.version:
                _recent[key] = kept
            _recent.move_to_end(key)
            while len(_recent) > limit:
                _recent.popitem(last=False)

    transaction.on_commit(keep)


def forget_recent() -> None:
    with _recent_lock:
        _recent.clear()


def load_state(game: Game, upto: int | None = None) -> rules.GameState | None:
    """The state after event `upto` (default: the last): newest usable snapshot + replay."""
    if upto is None or upto == game.version:
        state = recall(game)
        if state is not None:
            return state
        state = _load(game, upto)
        remember(game, state)
        return state
    return _load(game, upto)


def _load(game: Game, upto: int | None) -> rules.GameState | None:
    snapshots = Snapshot.objects.filter(game=game, engine_version=ENGINE_VERSION)
    if upto is not None:
        snapshots = snapshots.filter(seq__lte=upto)
    snapshot = snapshots.order_by("-seq").values_list("seq", "state").first()
    state, after = None, 0
    if snapshot is not None:
        after, data = snapshot
        state = rules.GameState.from_dict(data)
    return rules.replay(stored_events(game, after, upto), state)


def clock_key(state: rules.GameState | None):
    """What a deadline is for: the same key means the same decision is still owed.
    A player's turn (reinforce, attack, fortify) is one decision; each setup step and the
    neutral's placement are their own."""
    if state is None or state.finished or state.paused:
        return None  # no clock runs
    if state.phase in ("reinforce", "attack", "occupy", "fortify"):
        return ("turn", state.turn)
    # One deadline for a simultaneous phase, however many have handed in already.
    return (state.phase, state.turn, state.current)


def next_deadline(game: Game, before, after, now):
    if clock_key(after) is None:
        return None
    if clock_key(before) != clock_key(after) or game.deadline is None:
        return game_deadline(game, now)
    return game.deadline


def status_of(state: rules.GameState) -> str:
    if state.finished:
        return Game.ABORTED if state.finish_reason == "aborted" else Game.FINISHED
    return Game.PAUSED if state.paused else Game.ACTIVE


def append(game: Game, events: list[rules.Event], before, after, user_id=None,
           deadline=None) -> Game:
    """Store `events` (made against `before`, whose version they follow) and the projection
    of `after`. Raises VersionConflict if anyone appended since `before` was loaded.
    `deadline` overrides the clock (a moderator extending it)."""
    expected = before.version if before is not None else 0
    if game.version != expected:
        # This copy of the row is older than `before`: the deadline and status it would
        # carry forward may have changed since. Read them as they stand (if the row has
        # moved past `before`, the conditional update below still refuses the append).
        game.refresh_from_db()
    now = timezone.now()
    projection = {
        "version": after.version,
        "status": status_of(after),
        "phase": "setup" if after.phase == "setup_done" else after.phase,
        "turn": after.turn,
        "current_seat": after.current,
        "winner": after.winner,
        "deadline": deadline or next_deadline(game, before, after, now),
    }
    if expected == 0:
        projection["started_at"] = now
    if after.finished:
        projection["finished_at"] = now
    try:
        with transaction.atomic():
            rows = Event.objects.bulk_create([
                Event(game=game, seq=e.seq, type=e.type, data=e.data, actor=e.actor,
                      user_id=user_id, schema_version=current_version(e.type))
                for e in events
            ])
            moved = Game.objects.filter(pk=game.pk, version=expected).update(**projection)
            if moved != 1:
                raise IntegrityError("the game moved on")
            if after.version // snapshot_every() > expected // snapshot_every():
                Snapshot.objects.create(
                    game=game, seq=after.version, state=after.to_dict(),
                    engine_version=ENGINE_VERSION,
                )
            for hook in APPEND_HOOKS:
                hook(game, events, before, after)
    except IntegrityError:
        current = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first()
        raise VersionConflict(current if current is not None else expected) from None
    for field, value in projection.items():
        setattr(game, field, value)
    # When each new event was stored, for answers that show them (no read-back needed).
    game.appended_at = [row.created_at for row in rows]
    remember(game, after)
    return game


def rebuild_snapshots(game: Game) -> int:
    """Drop a game's snapshots and take them again from a full replay; returns how many."""
    every = snapshot_every()
    state, taken = None, []
    # The log first, then drop and write in one go: a move landing meanwhile (with its own
    # snapshot, past the log read) neither collides with these nor leaves a window without.
    for event in stored_events(game):
        state = rules.evolve(state, event)
        if event.seq % every == 0:
            taken.append(Snapshot(game=game, seq=event.seq, state=state.to_dict(),
                                  engine_version=ENGINE_VERSION))
    with transaction.atomic():
        Snapshot.objects.filter(game=game).delete()
        Snapshot.objects.bulk_create(taken)
    return len(taken)
