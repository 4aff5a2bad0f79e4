"""What a caller may see of a game: its view for a seat, its events and record redacted for a
seat (or a spectator). Reads only: the write path is games.service's."""

from __future__ import annotations

import engine as rules
from games import boards
from games.models import Game
from games.store.log import stored_events_with_times
from games.store.row import rules_of, team_of
from games.store.seats import Seats
from games.store.states import load_state, status_of
from games.upcasters import current_version, upcast


def redacted(game: Game, events: list, seat: int | None,
             before: rules.GameState | None = None) -> list[dict]:
    """Consecutive events of `game` as `seat` may see them (engine.sight decides):
    under fog a seated player's sight needs the state before the first one, read here when
    the caller has none."""
    game_rules = rules_of(game)
    if (before is None and events and events[0].seq > 1 and game_rules.fog
            and seat is not None and not game.is_over):
        before = load_state(game, upto=events[0].seq - 1)
    return rules.redact_events(events, seat, game.is_over, game_rules, game.players, before)


def _mark_bot_accounts(players: list[dict], seats: Seats) -> None:
    """A bot account's seat shows as `bot: "account"` with its `owner`; computer players
    and people keep their shape."""
    for player in players:
        owner = seats.bot_owners.get(player["seat"])
        if owner is not None and not player.get("bot"):
            player["bot"], player["owner"] = "account", owner


def game_view(game: Game, seats: Seats, state: rules.GameState | None,
              seat: int | None) -> dict:
    """The game (seated as `seats`) as `seat` sees it in `state` (None: not started)."""
    names = seats.usernames()
    bots = seats.bot_levels(state)
    view = {
        "id": game.pk, "name": game.name, "status": game.status, "version": game.version,
        "map": game.map,
        # Every option, defaults filled in for games made before an option existed.
        "rules": rules_of(game).to_dict(),
        "deadline_seconds": game.deadline_seconds,
        "deadline": game.deadline.isoformat() if game.deadline else None,
        "seed_hash": game.seed_hash, "seats_wanted": game.players,
        "clock": {"time_zone": game.clock_time_zone, "quiet_from": game.quiet_from,
                  "quiet_until": game.quiet_until, "weekends": game.pause_weekends},
        "creator": names.get(0),
        "rated": seats.rated(game),
        "bots_allowed": game.bots_allowed,
    }
    if state is None:
        view.update({
            "phase": None, "turn": 0, "current_seat": None, "winner": None,
            "players": [
                {"seat": s, "username": name, "color": rules.COLORS[s], "territories": 0,
                 "armies": 0, "cards": 0, "eliminated": False, "dropped": False,
                 "missed_turns": 0, "bot": bots.get(s), "team": team_of(game, s)}
                for s, name in sorted(names.items())
            ],
            "territories": {t: {"owner": None, "armies": 0}
                            for t in boards.board_of_map(game.map).territories},
            "pending": {"reinforcements": 0, "must_trade": False, "occupy": None},
            "sets_traded": 0,
            "next_set_value": rules.cards.next_set_value(rules_of(game), 0),
            "you": None if seat is None else {
                "seat": seat, "color": rules.COLORS[seat], "cards": [], "mission": None,
                "capital": None, "defense": "max",
            },
        })
        _mark_bot_accounts(view["players"], seats)
        return view
    engine_view = rules.view(state, seat)
    for player in engine_view["players"]:
        player["username"] = names.get(player["seat"])
        player["bot"] = bots.get(player["seat"])
    _mark_bot_accounts(engine_view["players"], seats)
    view.update(engine_view)
    if state.version != game.version:  # ?at=N: the status as of that version, too
        view["status"] = status_of(state)
    view["version"] = state.version
    return view


def event_dicts(game: Game, seat: int | None, after: int = 0,
                upto: int | None = None) -> list[dict]:
    """The game's events after `after` (up to `upto`), as `seat` may see them, with their
    times."""
    # One read: a second one for the times could see an event the first did not.
    rows = stored_events_with_times(game, after, upto)
    seen = redacted(game, [e for e, _ in rows], seat)
    return [{**e, "at": at.isoformat()} for e, (_, at) in zip(seen, rows, strict=True)]


def spectator_event(stored, game: Game) -> dict:
    """A stored games.models.Event as a spectator may see it (everything once it is over)."""
    data = stored.data
    if stored.schema_version != current_version(stored.type):
        data = upcast(stored.type, stored.schema_version, data)
    event = rules.Event(stored.seq, stored.type, data, stored.actor)
    return redacted(game, [event], None)[0]


def record(game: Game, seats: Seats, seat: int | None) -> dict:
    """The game's whole log as `seat` may see it, with what checks its draws: the players'
    entropy once the game has started, the server's seed and the seed once it is over."""
    revealed = game.is_over
    names = seats.usernames()
    bots = seats.bot_levels()
    events = event_dicts(game, seat)
    started = next((e["data"] for e in events if e["type"] == rules.events.GAME_STARTED), {})
    seated = [{"seat": s, "username": name, "color": rules.COLORS[s], "bot": bots.get(s)}
              for s, name in sorted(names.items())]
    _mark_bot_accounts(seated, seats)
    return {
        "id": game.pk, "name": game.name, "status": game.status, "rules": game.rules,
        "map": game.map, "map_hash": started.get("map_hash"),
        "seats": seated,
        "seed_hash": game.seed_hash,
        "server_seed": game.seed if revealed else None,
        "contributions": None if game.version == 0 else list(game.contributions or []),
        "seed": game.dice_seed if revealed else None,
        "events": events,
    }
