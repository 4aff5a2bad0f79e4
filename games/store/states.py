"""A game's state rebuilt from its log: the snapshots, the copy of each game's newest state this
process keeps, and rebuilding the snapshots (the engine's version decides which stay good)."""

from __future__ import annotations

import threading
from collections import OrderedDict

from django.conf import settings
from django.db import transaction
from django.db.models import OuterRef, Subquery

import engine as rules
from games.models import Game, Snapshot
from games.store.log import event_from_row, events_of_many, stored_events

# The engine's version (engine.state: bumped when GameState's shape or a rule's
# behaviour changes): snapshots another version made are ignored and rebuilt.
ENGINE_VERSION = rules.ENGINE_VERSION


def snapshot_every() -> int:
    return getattr(settings, "CONQUEST_SNAPSHOT_EVERY", 100)


# The newest state this process has loaded or made for each recently used game. Events
# never change, so the state at a version is the same wherever it was computed: it is
# used whenever the game's row shows that same version, which saves the snapshot and
# event reads of a move or a view; when the row is a little ahead (another process
# moved), it is caught up by replaying just the events since, read in one query or with
# the game's row (events_after_column). Keyed by the game's id, with its seed hash kept
# beside the state (an id can come back after a rolled-back insert on SQLite); only
# states of committed events go in; a copy goes in and comes out (evolve works in place).
# Like snapshots, it changes nothing but speed: CONQUEST_RECENT_STATES=0 turns it off.
_recent: OrderedDict = OrderedDict()


_recent_lock = threading.Lock()


def _recent_limit() -> int:
    return getattr(settings, "CONQUEST_RECENT_STATES", 256)


def _kept(game: Game) -> rules.GameState | None:
    """What this process remembers for the game (the caller holds _recent_lock)."""
    found = _recent.get(game.pk)
    return found[1] if found is not None and found[0] == game.seed_hash else None


def remembered_version(game_id: int) -> int | None:
    """The version of the state this process remembers for the game, if any: a statement
    that reads the game can read the events since with it (events_after_column)."""
    with _recent_lock:
        found = _recent.get(game_id)
    return None if found is None else found[1].version


def recall(game: Game) -> rules.GameState | None:
    """The state at the version the game's row shows, from what this process remembers
    (caught up if fewer than a snapshot interval behind), or None."""
    with _recent_lock:
        state = _kept(game)
    if state is None or not 0 <= game.version - state.version <= snapshot_every():
        return None
    if state.version == game.version:
        return state.copy()
    read = game.__dict__.get("_events_after")
    if read is not None and read[0] == state.version:  # read with the game's row
        missed = [event for event in read[1] if event.seq <= game.version]
    else:
        missed = stored_events(game, state.version, game.version)
    if len(missed) != game.version - state.version:
        return None  # the row is ahead of the log this connection sees: read afresh
    state = rules.replay(missed, state.copy())
    remember(game, state)  # (a copy of it)
    return state


def remember(game: Game, state: rules.GameState | None) -> None:
    """Keep `state` for `game` once the transaction that made it commits."""
    limit = _recent_limit()
    if state is None or limit <= 0:
        return
    key, seed_hash, kept = game.pk, game.seed_hash, state.copy()

    def keep():
        with _recent_lock:
            known = _recent.get(key)
            if known is None or known[0] != seed_hash or known[1].version <= kept.version:
                _recent[key] = (seed_hash, kept)
            _recent.move_to_end(key)
            while len(_recent) > limit:
                _recent.popitem(last=False)

    transaction.on_commit(keep)


def forget_recent() -> None:
    """Forget every state this process remembers: the next load reads the log (tests, and
    an operator's shell after the database was restored or edited by hand)."""
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


def load_states(games: list[Game]) -> dict[int, rules.GameState | None]:
    """{game id: its state at the version its row shows} for many games in three queries
    at most (what this process remembers, the newest snapshots, the events after them),
    where load_state takes one or two per game: for sweeps over many games."""
    states, starts, wanted = {}, {}, []
    with _recent_lock:
        kept = {game.pk: _kept(game) for game in games}
    for game in games:
        state = kept[game.pk]
        if state is not None and state.version == game.version:
            states[game.pk] = state.copy()
            continue
        if state is not None and 0 < game.version - state.version <= snapshot_every():
            starts[game.pk] = state.copy()  # caught up with the few events since
        wanted.append(game)
    if not wanted:
        return states
    newest = Snapshot.objects.filter(
        game_id=OuterRef("game_id"), engine_version=ENGINE_VERSION,
        seq__lte=OuterRef("game__version")).order_by("-seq").values("seq")[:1]
    from_snapshots = [game.pk for game in wanted if game.pk not in starts]
    for game_id, data in Snapshot.objects.filter(
            game_id__in=from_snapshots, engine_version=ENGINE_VERSION,
            seq=Subquery(newest)).values_list("game_id", "state"):
        starts[game_id] = rules.GameState.from_dict(data)
    events: dict[int, list[rules.Event]] = {game.pk: [] for game in wanted}
    ranges = [(game.pk, starts[game.pk].version if game.pk in starts else 0, game.version)
              for game in wanted]
    for game_id, *row in events_of_many(ranges):
        events[game_id].append(event_from_row(*row))
    for game in wanted:
        state = rules.replay(events[game.pk], starts.get(game.pk))
        states[game.pk] = state
        if state is not None and state.version == game.version:
            remember(game, state)
    return states


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


def status_of(state: rules.GameState) -> str:
    if state.finished:
        return Game.ABORTED if state.finish_reason == "aborted" else Game.FINISHED
    return Game.PAUSED if state.paused else Game.ACTIVE


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
