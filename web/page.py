"""Everything the game page shows, gathered from one game view: board, players, the forms
the viewer may use now, cards, mission, deadline, log and the finished game's proof."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import narrator, rules, services
from games.inputs import whole_number
from games.models import Game
from games.rules import events as ev
from games.rules.board import NEIGHBOURS, NEUTRAL, TERRITORIES
from games.rules.cards import set_kinds, set_value
from games.rules.options import PRESET_PLAYERS
from games.store import load_state
from games.vocabulary import (
    BOT_LEVELS,
    DEFENSE_NAMES,
    FINISH_REASONS,
    RULE_CHOICES,
    RULE_LABELS,
    RULEBOOKS,
    STATUS_NAMES,
    color_name,
    level_name,
    mission_text,
    phase_name,
    seat_color,
    symbol_name,
    territory_name,
)
from ratings.luck import luck_by_seat

from . import game_log
from .board import board_context, neighbours_json

LOG_LENGTH = 60


def stamp(game: Game) -> str:
    """What the page's poll compares: moves, status and seats taken (joins change no version)."""
    return f"{game.version}.{game.status}.{game.seats.count()}"


def _option(territory: str, view: dict) -> dict:
    square = view["territories"][territory]
    return {"id": territory, "name": territory_name(territory), "armies": square["armies"]}


def _sorted(territories) -> list[str]:
    return sorted(territories, key=territory_name)


# Rules about cards, left out of a game played without them (rules.cards false).
_CARD_KEYS = ("card_values", "fixed_values", "card_territory_bonus", "max_cards",
              "elimination_trade_at", "elimination_trade_when", "forced_trade", "traded_cards",
              "card_draw")


def _irrelevant(key: str, rules_dict: dict, players: int | None) -> bool:
    """Rules a game's panel leaves out because they cannot apply to it: capitals' rules in
    a game without capitals, the neutral's in a game without one, and the like."""
    if key in ("capitals_to_win", "capital_collapse"):
        return rules_dict.get("objective") != "capitals"
    if key == "neutral":
        return players is not None and players != 2
    if key in ("neutral_reinforcement", "neutral_dice"):
        return not rules_dict.get("neutral") or (players is not None and players != 2)
    if key == "capital_card_out":
        return rules_dict.get("objective") != "capitals"
    if key in _CARD_KEYS:
        return rules_dict.get("cards") is False
    if key == "placement_batch":
        return rules_dict.get("initial_placement") == "simultaneous"
    return False


# Not what a rulebook says but how the site keeps time: left out of "where it differs".
_CLOCK_KEYS = ("deadline_seconds", "max_missed_turns", "dropped_seat", "preset")


def rulebook_in_words(rules_dict: dict, players: int | None = None) -> list[dict]:
    """Which rulebook the game follows (rules.preset) and where its rules differ from it."""
    name = rules_dict.get("preset")
    if name not in RULEBOOKS:
        return []
    label, _summary = RULEBOOKS[name]
    lines = [{"key": "preset", "label": _("Rulebook"), "value": label}]
    # A table its rulebook is not written for (a game made before the preset refused it) is
    # compared with the rulebook at the nearest size it is written for.
    low, high = PRESET_PLAYERS.get(name, (2, 6))
    table = min(max(players or 3, low), high)
    as_written = rules.validate_rules({"preset": name}, table).to_dict()
    differs = [str(RULE_LABELS[key]) for key in RULE_LABELS
               if key not in _CLOCK_KEYS and rules_dict.get(key) != as_written.get(key)]
    lines.append({"key": "preset_differs", "label": _("Differs from the rulebook in"),
                  "value": ", ".join(differs) if differs else _("nothing: as written")})
    return lines


def rules_in_words(rules_dict: dict, players: int | None = None) -> list[dict]:
    lines = rulebook_in_words(rules_dict, players)
    for key, label in RULE_LABELS.items():
        value = rules_dict.get(key)
        if _irrelevant(key, rules_dict, players):
            continue
        if key in RULE_CHOICES:
            words_ = RULE_CHOICES[key].get(value, value)
            if (key == "objective" and value == "missions" and players == 2
                    and rules_dict.get("neutral")):
                words_ = _("no missions with two players and the neutral army: destroy "
                           "the other player")
        elif key == "fixed_values":
            if rules_dict.get("card_values") != "fixed":
                continue
            words_ = ", ".join(f"{symbol_name(k)} {v}" for k, v in value.items())
        elif key in ("capital_collapse", "neutral", "continent_bonus_after_round",
                     "capital_card_out"):
            words_ = _("yes") if value else _("no")
        elif key == "cards":
            words_ = _("played") if value is not False else _("not played at all")
        elif key == "max_cards":
            words_ = value if value is not None else _("no limit")
        elif key == "fog":
            words_ = (_("yes: you see your territories, their neighbours and your "
                        "teammates'") if value else _("no"))
        elif key == "team_size":
            words_ = team_size_words(value or 1, players)
        elif key in ("initial_max_per_territory", "round_limit"):
            words_ = value if value is not None else _("no limit")
        elif key == "deadline_seconds":
            words_ = duration_words(value)
        else:
            words_ = value
        lines.append({"key": key, "label": label, "value": words_})
    return lines


def open_game_words(game: Game) -> str:
    """An open game's rules in one line for the lobby: how to win, the clock, and whatever
    departs from the classic game."""
    rules_dict = game.rules or {}
    parts = [RULE_CHOICES["objective"].get(rules_dict.get("objective"), ""),
             _("%(time)s per move") % {"time": duration_words(game.deadline_seconds)}]
    if rules_dict.get("initial_placement") == "simultaneous":
        parts.append(_("starting armies placed all at once"))
    else:
        batch = rules_dict.get("placement_batch") or 1
        parts.append(_("starting armies placed one per turn") if batch == 1 else
                     _("starting armies placed %(n)s per turn") % {"n": batch})
    if rules_dict.get("fog"):
        parts.append(_("fog of war"))
    if (rules_dict.get("team_size") or 1) > 1:
        parts.append(team_size_words(rules_dict["team_size"], None))
    if game.players == 2 and rules_dict.get("neutral"):
        parts.append(_("with a neutral army"))
    return "; ".join(str(p) for p in parts if p)


def team_size_words(team_size: int, players: int | None) -> str:
    if team_size <= 1:
        return _("no teams: everyone for themselves")
    if players:
        return _("%(teams)s teams of %(size)s; teammates never attack each other, see each "
                 "other's cards and win together") % {"teams": players // team_size,
                                                      "size": team_size}
    return _("teams of %(size)s") % {"size": team_size}


def clock_in_words(game: Game) -> list[dict]:
    """When the game's clock rests (night hours, weekends), in the game's time zone."""
    rests = []
    if game.quiet_from is not None and game.quiet_until is not None:
        rests.append(_("every night from %(start)02d:00 to %(end)02d:00") % {
            "start": game.quiet_from, "end": game.quiet_until})
    if game.pause_weekends:
        rests.append(_("on Saturdays and Sundays"))
    if not rests:
        return []
    return [{"key": "clock", "label": _("The clock rests"),
             "value": "; ".join(rests) + f" ({game.clock_time_zone})"}]


def duration_words(seconds: int) -> str:
    if seconds % 86400 == 0:
        n = seconds // 86400
        return ngettext("%(n)s day", "%(n)s days", n) % {"n": n}
    if seconds % 3600 == 0:
        n = seconds // 3600
        return ngettext("%(n)s hour", "%(n)s hours", n) % {"n": n}
    if seconds % 60 == 0:
        n = seconds // 60
        return ngettext("%(n)s minute", "%(n)s minutes", n) % {"n": n}
    return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}


def players_panel(view: dict, game: Game) -> list[dict]:
    acting = set()
    if view.get("current_seat") is not None:
        acting.add(view["current_seat"])
    elif view.get("phase") in ("setup_place", "capital"):
        acting = {p["seat"] for p in view["players"]
                  if not p.get("ready") and not p["eliminated"] and not p["dropped"]
                  and (view["phase"] == "capital" or p.get("unplaced"))}
    rows = []
    teams = view["rules"].get("team_size", 1) > 1
    names = {p["seat"]: f"{color_name(p['color'])}" for p in view["players"]}
    for player in view["players"]:
        status = ""
        if view.get("winner") == player["seat"]:
            status = _("winner")
        elif player["eliminated"]:
            status = _("eliminated")
        elif player["dropped"]:
            status = _("left the game")
        elif player["seat"] in acting:
            status = _("to move")
        elif player.get("ready"):
            status = _("ready")
        if player.get("bot"):
            # A computer player: say so, with its level (also for a seat it took over).
            status = " · ".join(filter(None, [
                _("computer, %(level)s") % {"level": level_name(player["bot"])}, status]))
        team = player.get("team") if teams else None
        mates = [names[p["seat"]] for p in view["players"]
                 if team is not None and p.get("team") == team and p["seat"] != player["seat"]]
        rows.append({
            **player, "color_name": color_name(player["color"]), "status": status,
            # under fog of war another team's totals are unknown
            "territories": "?" if player["territories"] is None else player["territories"],
            "armies": "?" if player["armies"] is None else player["armies"],
            "team": team, "team_number": None if team is None else team + 1,
            "team_words": _("team of %(mates)s") % {"mates": ", ".join(mates)} if mates else "",
            "acting": player["seat"] in acting and game.status == Game.ACTIVE,
            "defense_words": DEFENSE_NAMES.get(player.get("defense", "max")),
        })
    if teams:  # teammates side by side
        rows.sort(key=lambda row: (row["team"], row["seat"]))
    neutral = neutral_row(view)
    return rows + [neutral] if neutral else rows


def neutral_row(view: dict) -> dict | None:
    """The neutral army as a row of the players' table, in games that have one: two
    players with the neutral option, or wherever a territory has turned neutral."""
    squares = view["territories"].values()
    held = [s for s in squares if s["owner"] == NEUTRAL]
    if not held and not (view["rules"].get("neutral") and len(view["players"]) == 2):
        return None
    fogged = any(s.get("fog") for s in squares)
    return {
        "seat": NEUTRAL, "color": NEUTRAL, "color_name": color_name(NEUTRAL), "username": "",
        "neutral": True, "status": _("not a player: it only defends"),
        "territories": "?" if fogged else len(held),
        "armies": "?" if fogged else sum(s["armies"] for s in held),
        "cards": "—", "missed_turns": "—",
    }


def card_rows(view: dict) -> list[dict]:
    you = view.get("you") or {}
    return [{
        "id": card["id"], "territory": card["territory"],
        "name": territory_name(card["territory"]) if card["territory"] else _("Wild card"),
        "symbol": card["symbol"], "symbol_name": symbol_name(card["symbol"]),
        "owned": bool(card["territory"])
        and view["territories"][card["territory"]]["owner"] == you.get("seat"),
    } for card in you.get("cards", [])]


def trade_sets(view: dict, rules_obj) -> list[dict]:
    you = view.get("you") or {}
    names = {c["id"]: c for c in you.get("cards", [])}
    sets = []
    for trio in you.get("tradeable_sets", []):
        kinds = set_kinds(trio)
        sets.append({
            "ids": ",".join(str(c) for c in trio),
            "cards": [narrator.card_text(c) for c in trio],
            "value": set_value(rules_obj, trio, view["sets_traded"]),
            "kind": symbol_name(kinds[0] if kinds else "mixed"),
            "bonus": [territory_name(names[c]["territory"]) for c in trio
                      if names[c]["territory"]
                      and view["territories"][names[c]["territory"]]["owner"] == you["seat"]],
        })
    return sets


def actions(view: dict, seat: int | None, game: Game, selected: str | None,
            posted=None) -> dict:
    """The forms the viewer may use now, each with what it needs to be filled in."""
    posted = posted or {}
    if seat is None or game.status != Game.ACTIVE or view.get("phase") is None:
        return {}
    me = view["players"][seat]
    if me["eliminated"] or me["dropped"]:
        return {}
    territories = view["territories"]
    own = _sorted(t for t in TERRITORIES if territories[t]["owner"] == seat)
    phase, current = view["phase"], view["current_seat"]
    pending = view["pending"]
    rules_obj = rules.Rules.from_dict(view["rules"])
    you = view.get("you") or {}
    forms: dict = {"defense": {"policy": you.get("defense", "max")}, "resign": True}
    if rules_obj.neutral_dice == "opponent" and rules_obj.has_neutral(len(view["players"])):
        # Polish two-player game: this player's standing order for the neutral's dice.
        forms["neutral_defense"] = {"policy": you.get("neutral_defense", "max")}

    def rows(candidates, prefix):
        return [{**_option(t, view), "field": prefix + t, "value": posted.get(prefix + t, "")}
                for t in candidates]

    if phase == "claim" and current == seat:
        free = _sorted(t for t in TERRITORIES if territories[t]["owner"] is None)
        forms["claim"] = {"choices": [_option(t, view) for t in free],
                          "value": selected if selected in free else posted.get("territory")}
    if phase == "setup_place" and pending["reinforcements"] > 0:
        forms["place"] = {
            "count": pending["reinforcements"], "rows": rows(own, "place-"),
            "setup": True, "simultaneous": current is None,
            "cap": view["rules"].get("initial_max_per_territory"),
        }
    if phase == "capital" and not (view.get("you") or {}).get("capital"):
        forms["choose_capital"] = {
            "choices": [_option(t, view) for t in own],
            "value": selected if selected in own else posted.get("territory"),
        }
    if phase == "neutral_place" and current == seat:
        neutral = _sorted(t for t in TERRITORIES if territories[t]["owner"] == NEUTRAL)
        forms["place_neutral"] = {"count": pending["reinforcements"],
                                  "rows": rows(neutral, "place-")}
    if current != seat or phase not in ("reinforce", "attack", "occupy", "fortify"):
        return forms
    if phase == "reinforce":
        if (view.get("you") or {}).get("tradeable_sets") or pending["must_trade"]:
            forms["trade"] = {
                "must": pending["must_trade"], "sets": trade_sets(view, rules_obj),
                "cards": card_rows(view),
                "checked": [str(c) for c in getattr(posted, "getlist", lambda k: [])("card")],
                "bonus_mode": view["rules"].get("card_territory_bonus"),
            }
        if not pending["must_trade"] and pending["reinforcements"] > 0:
            forms["place"] = {"count": pending["reinforcements"], "rows": rows(own, "place-"),
                              "setup": False}
    if phase == "occupy" and pending["occupy"]:
        forms["occupy"] = {**pending["occupy"], "from_name": territory_name(
            pending["occupy"]["from"]), "to_name": territory_name(pending["occupy"]["to"])}
    may = (view.get("you") or {}).get("may") or {}
    if phase == "attack":
        attacks = may.get("attack", {})
        sources = _sorted(attacks)
        source = selected if selected in sources else posted.get("from")
        if source in sources:
            targets = attacks[source]
        else:
            targets = sorted({t for ts in attacks.values() for t in ts}, key=territory_name)
        # A kept choice of dice that is unreadable or would now be refused: the most.
        dice = whole_number(posted.get("dice", ""), 1, territories[source]["armies"] - 1) \
            if source in sources else None
        forms["attack"] = {
            "sources": [_option(t, view) for t in sources],
            "targets": [{**_option(t, view), "owner": color_name(seat_color(
                territories[t]["owner"]))} for t in _sorted(targets)],
            "from": source, "to": posted.get("to") if source in sources else None,
            "dice": "" if dice is None else str(dice),
            "repeat": posted.get("repeat") == "on",
        }
        forms["end_attack"] = True
    if phase in ("attack", "fortify"):
        mode = view["rules"].get("fortify", "adjacent")
        moves = may.get("fortify", {})
        sources = _sorted(moves)
        if phase == "fortify" and selected in sources:
            source = selected
        else:
            source = posted.get("from") if posted.get("type") == "fortify" else None
        if source in sources:
            targets = moves[source]
        else:
            targets = own
        forms["fortify"] = {
            "mode": mode, "sources": [_option(t, view) for t in sources],
            "targets": [_option(t, view) for t in _sorted(targets)], "from": source,
            "to": posted.get("to") if posted.get("type") == "fortify" else None,
            "armies": posted.get("armies", "") if posted.get("type") == "fortify" else "",
            "rows": rows(_sorted(targets), "move-") if mode == "spread" else [],
        }
        forms["end_turn"] = True
    return forms


def pause_reason(events: list[dict]) -> str:
    """Why a moderator paused the game: the reason of the last pause (players may read it)."""
    for event in reversed(events):
        if event["type"] == ev.GAME_RESUMED:
            return ""
        if event["type"] == ev.GAME_PAUSED:
            return event["data"].get("reason") or ""
    return ""


def end_summary(view: dict, events: list[dict], names: dict) -> list[dict]:
    """How a finished game went for each seat, from its revealed event log: how it ended
    for them, their secret mission and capital, the sets they traded, their battles."""
    rows = {p["seat"]: {
        "seat": p["seat"], "name": narrator.seat_name(p["seat"], names),
        "color": seat_color(p["seat"]),
        "won": p["seat"] in (view.get("winners") or [view.get("winner")]),
        "outcome": "", "mission": mission_text((p.get("mission") or {}).get("effective")
                                               or (p.get("mission") or {}).get("id")),
        "capital": territory_name(p["capital"]) if p.get("capital") else "",
        "sets": 0, "set_armies": 0, "attacks": 0, "conquests": 0,
        "killed": 0, "lost": 0, "eliminated": [],
    } for p in view["players"]}
    for event in events:
        data, kind = event["data"], event["type"]
        if kind == ev.CARDS_TRADED and data.get("seat") in rows:
            row = rows[data["seat"]]
            row["sets"] += 1
            row["set_armies"] += data.get("value") or 0
        elif kind == ev.BATTLE and data.get("seat") in rows:
            row = rows[data["seat"]]
            row["attacks"] += 1
            row["conquests"] += bool(data.get("conquered"))
            row["killed"] += data.get("defender_losses") or 0
            row["lost"] += data.get("attacker_losses") or 0
            if data.get("defender") in rows:
                rows[data["defender"]]["killed"] += data.get("attacker_losses") or 0
                rows[data["defender"]]["lost"] += data.get("defender_losses") or 0
        elif kind == ev.PLAYER_ELIMINATED and data.get("seat") in rows:
            rows[data["seat"]]["outcome"] = _("eliminated by %(by)s") % {
                "by": narrator.seat_name(data.get("by"), names)}
            if data.get("by") in rows:
                rows[data["by"]]["eliminated"].append(narrator.seat_name(data["seat"], names))
        elif kind == ev.PLAYER_DROPPED and data.get("seat") in rows:
            rows[data["seat"]]["outcome"] = (
                _("resigned") if data.get("reason") == "resigned"
                else _("dropped for missed turns") if data.get("reason") == "timeout"
                else _("removed by a moderator"))
    luck = luck_by_seat([e["data"] for e in events if e["type"] == ev.BATTLE], len(rows))
    for seat, row in rows.items():
        if seat in luck and luck[seat].battles:
            row["luck"] = f"{luck[seat].net:+.1f}"
    for row in rows.values():
        if row["won"]:
            row["outcome"] = _("won")
        elif not row["outcome"]:
            row["outcome"] = _("still in the game at the end")
    return sorted(rows.values(), key=lambda row: (not row["won"], row["seat"]))


def deadline_context(game: Game) -> dict | None:
    if game.deadline is None or game.status != Game.ACTIVE:
        return None
    return {"at": game.deadline, "iso": game.deadline.isoformat(),
            "past": game.deadline <= timezone.now()}


def verification(game: Game) -> dict | None:
    if not game.is_over or game.status != Game.FINISHED:
        return None
    record = services.record(game, None)
    result = rules.verify(record)
    return {"ok": result.ok, "checked": result.checked_draws, "problems": result.problems[:10],
            "seed": record["seed"], "server_seed": record["server_seed"],
            "contributions": record["contributions"], "seed_hash": game.seed_hash}


def game_context(game: Game, user, *, at: int | None = None, selected: str | None = None,
                 full_log: bool = False, posted=None) -> dict:
    seat = services.seat_of(game, user)
    live = at is None or at >= game.version
    if live:
        at = None
    state = None if game.status == Game.OPEN else load_state(game, at)
    view = services.game_view(game, state, seat)
    if selected not in NEIGHBOURS:
        selected = None
    you = view.get("you")
    events = services.event_dicts(game, seat) if state is not None else []
    entries = game_log.log_entries(events)
    if not live:
        entries = [e for e in entries if e["seq"] <= at]
    shown = entries if full_log else entries[-LOG_LENGTH:]
    seated_users = dict(game.seats.values_list("user_id", "seat"))
    finished = game.status == Game.FINISHED
    return {
        "game": game, "view": view, "seat": seat, "you": you, "live": live, "at": at,
        "version": game.version, "shown_version": view["version"],
        "stamp": stamp(game),
        "phase_name": phase_name(view.get("phase")),
        "status_name": STATUS_NAMES.get(game.status, game.status),
        "current_name": color_name(seat_color(view.get("current_seat")))
        if view.get("current_seat") is not None else "",
        "current_color": seat_color(view.get("current_seat")),
        "current_username": next((p["username"] for p in view["players"]
                                  if p["seat"] == view.get("current_seat")), ""),
        "board": board_context(view, seat if live else None, selected if live else None),
        "players": players_panel(view, game),
        "cards": card_rows(view) if you else [],
        "mission": mission_text((you.get("mission") or {}).get("effective")) if you else "",
        "mission_card": mission_text((you.get("mission") or {}).get("id")) if you else "",
        "capital_name": territory_name(you.get("capital")) if you else "",
        "actions": actions(view, seat, game, selected, posted) if live else {},
        "deadline": deadline_context(game) if live else None,
        "log": list(reversed(shown)), "log_total": len(entries),
        "last_roll": game_log.last_battles(entries) if live and not finished else [],
        "log_cut": len(shown) < len(entries),
        "rules_words": rules_in_words(view["rules"], game.players) + clock_in_words(game),
        "next_set_value": view.get("next_set_value"),
        "can_join": game.status == Game.OPEN and user.is_authenticated
        and user.pk not in seated_users,
        "can_start": game.status == Game.OPEN and user.is_authenticated
        and game.creator_id == user.pk and len(seated_users) >= 2,
        "can_add_bot": game.status == Game.OPEN and user.is_authenticated
        and game.creator_id == user.pk and len(seated_users) < game.players,
        "can_leave": game.status == Game.OPEN and user.is_authenticated
        and game.creator_id != user.pk and user.pk in seated_users,
        "can_cancel": game.status == Game.OPEN and user.is_authenticated
        and game.creator_id == user.pk,
        "bot_levels": [(level, level_name(level)) for level in BOT_LEVELS],
        "seats_taken": len(seated_users),
        "winner_name": color_name(seat_color(view.get("winner")))
        if view.get("winner") is not None else "",
        "winner_username": next((p["username"] for p in view["players"]
                                 if p["seat"] == view.get("winner")), ""),
        "winning_team": narrator.team_words(view["winning_team"], view["winners"],
                                           services.usernames(game))
        if view.get("winning_team") is not None else "",
        "finish_reason": FINISH_REASONS.get(view.get("finish_reason"), ""),
        "proof": verification(game) if finished else None,
        "summary": end_summary(view, events, services.usernames(game)) if finished else [],
        "pause_reason": pause_reason(events) if game.status == Game.PAUSED else "",
        "playing": live and you is not None and game.status == Game.ACTIVE
        and not next((p for p in view["players"] if p["seat"] == seat and
                      (p["eliminated"] or p["dropped"])), None),
        "neighbours": neighbours_json(),
        "polling": live and game.status in (Game.OPEN, Game.ACTIVE, Game.PAUSED),
    }
