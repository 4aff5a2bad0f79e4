"""What a caller may see of a game: its seats and options, its view for a seat, its events
and record redacted for a seat. Reads only: the write path is games.write."""

from __future__ import annotations

from accounts.bots import owners
from games import maps, rules
from games.models import Game
from games.store import load_state, read_seats, status_of, stored_events_with_times
from games.upcasters import current_version, upcast


def rules_of(game: Game) -> rules.Rules:
    """The game's options (defaults filled in), parsed once per read of its row."""
    parsed = game.__dict__.get("_parsed_rules")
    if parsed is None or parsed[0] is not game.rules:
        parsed = game._parsed_rules = (game.rules, rules.Rules.from_dict(game.rules))
    return parsed[1]


def redacted(game: Game, events: list, seat: int | None,
             before: rules.GameState | None = None) -> list[dict]:
    """Consecutive events of `game` as `seat` may see them (games.rules.sight decides):
    under fog a seated player's sight needs the state before the first one, read here when
    the caller has none."""
    game_rules = rules_of(game)
    if (before is None and events and events[0].seq > 1 and game_rules.fog
            and seat is not None and not game.is_over):
        before = load_state(game, upto=events[0].seq - 1)
    return rules.redact_events(events, seat, game.is_over, game_rules, game.players, before)


def dice_for(game: Game) -> rules.FairDice:
    return rules.FairDice(game.dice_seed, game.game_id)


def seat_rows(game: Game) -> list[tuple[int, int, str, str | None]]:
    """(seat, user id, username, bot level or None) of everyone seated, read once per Game object: a command
    asks for them several times. Whatever changes the seats calls forget_seats()."""
    rows = getattr(game, "_seat_rows", None)
    if rows is None:
        rows = game._seat_rows = read_seats(game)
    return rows


def forget_seats(game: Game) -> None:
    game.__dict__.pop("_seat_rows", None)
    game.__dict__.pop("_seat_flags", None)  # read with the seats (games.store.fetch_game)
    game.__dict__.pop("_bot_owners", None)


def seat_of(game: Game, user) -> int | None:
    if user is None or not user.is_authenticated:
        return None
    return next((row[0] for row in seat_rows(game) if row[1] == user.pk), None)


def usernames(game: Game) -> dict[int, str]:
    return {row[0]: row[2] for row in seat_rows(game)}


def bot_levels(game: Game, state: rules.GameState | None = None) -> dict[int, str]:
    """The seats computer players play, with their levels: seats made for a bot, and (with
    `state`) seats a bot took over under the dropped_seat rule."""
    levels = {row[0]: row[3] for row in seat_rows(game) if row[3]}
    if state is not None:
        for player in state.players:
            if player.bot and not player.out:
                levels.setdefault(player.seat, player.bot)
    return levels


def bot_owners(game: Game) -> dict[int, str]:
    """{seat: owner's username} of the seats bot accounts hold (docs/bots/contract.md "Bot
    accounts"), read once per Game object; no query when the seats were read with their
    flags and none is a bot account's."""
    found = game.__dict__.get("_bot_owners")
    if found is None:
        rows = seat_rows(game)
        flagged = game.__dict__.get("_seat_flags", {}).get("bot_account")
        by_user = {} if flagged is not None and not flagged else owners(
            [row[1] for row in rows if not row[3]])
        found = game._bot_owners = {row[0]: by_user[row[1]] for row in rows
                                    if row[1] in by_user}
    return found


def _mark_bot_accounts(players: list[dict], game: Game) -> None:
    """A bot account's seat shows as `bot: "account"` with its `owner`; computer players
    and people keep their shape."""
    for player in players:
        owner = bot_owners(game).get(player["seat"])
        if owner is not None and not player.get("bot"):
            player["bot"], player["owner"] = "account", owner


def rated(game: Game) -> bool:
    """Whether the game moves ratings: the creator's choice, else true unless a computer
    player was seated (a dropped seat a bot plays on does not change it)."""
    if game.rated is not None:
        return game.rated
    return not any(row[3] for row in seat_rows(game))


def team_of(game: Game, seat: int) -> int | None:
    """A seat's team in a team game (docs/players/rules.md "Teams": seat s in team s % teams), else None."""
    game_rules = rules_of(game)
    return None if game_rules.team_size == 1 else seat % game_rules.team_count(game.players)


def game_view(game: Game, state: rules.GameState | None, seat: int | None) -> dict:
    names = usernames(game)
    bots = bot_levels(game, state)
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
        "rated": rated(game),
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
                            for t in maps.board_of_map(game.map).territories},
            "pending": {"reinforcements": 0, "must_trade": False, "occupy": None},
            "sets_traded": 0,
            "next_set_value": rules.cards.next_set_value(rules_of(game), 0),
            "you": None if seat is None else {
                "seat": seat, "color": rules.COLORS[seat], "cards": [], "mission": None,
                "capital": None, "defense": "max",
            },
        })
        _mark_bot_accounts(view["players"], game)
        return view
    engine_view = rules.view(state, seat)
    for player in engine_view["players"]:
        player["username"] = names.get(player["seat"])
        player["bot"] = bots.get(player["seat"])
    _mark_bot_accounts(engine_view["players"], game)
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


def record(game: Game, seat: int | None) -> dict:
    """The game's whole log as `seat` may see it, with what checks its draws: the players'
    entropy once the game has started, the server's seed and the seed once it is over."""
    revealed = game.is_over
    names = usernames(game)
    bots = bot_levels(game)
    events = event_dicts(game, seat)
    started = next((e["data"] for e in events if e["type"] == rules.events.GAME_STARTED), {})
    seats = [{"seat": s, "username": name, "color": rules.COLORS[s], "bot": bots.get(s)}
             for s, name in sorted(names.items())]
    _mark_bot_accounts(seats, game)
    return {
        "id": game.pk, "name": game.name, "status": game.status, "rules": game.rules,
        "map": game.map, "map_hash": started.get("map_hash"),
        "seats": seats,
        "seed_hash": game.seed_hash,
        "server_seed": game.seed if revealed else None,
        "contributions": None if game.version == 0 else list(game.contributions or []),
        "seed": game.dice_seed if revealed else None,
        "events": events,
    }
