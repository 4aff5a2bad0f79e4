"""The game page's decisions: the forms the viewer may use now, each with what it needs to be
filled in (territories to choose, sets to trade, a kept choice after a refusal)."""

from __future__ import annotations

import engine as rules
from engine.cards import set_kinds, set_value
from engine.pieces import ATTACK_DICE, NEUTRAL
from games.boards import board_of_view
from games.models import Game
from lib.inputs import whole_number
from words import narrator
from words.vocabulary import color_name, seat_color, symbol_name, territory_name

from .odds import DICE_CHOICES, attack_odds, border_line, border_texts, defenses, texts
from .players import card_rows


def _option(territory: str, view: dict) -> dict:
    square = view["territories"][territory]
    return {"id": territory, "name": territory_name(territory, board_of_view(view)),
            "armies": square["armies"]}


def _sorted(territories, board) -> list[str]:
    """Territories in the order of their names in the reader's language."""
    return sorted(territories, key=lambda t: territory_name(t, board))


def trade_sets(view: dict, rules_obj) -> list[dict]:
    you = view.get("you") or {}
    names = {c["id"]: c for c in you.get("cards", [])}
    sets = []
    for trio in you.get("tradeable_sets", []):
        board = board_of_view(view)
        kinds = set_kinds(trio, board.cards)
        sets.append({
            "ids": ",".join(str(c) for c in trio),
            "cards": [narrator.card_text(c, board) for c in trio],
            "value": set_value(rules_obj, trio, view["sets_traded"], board.cards),
            "kind": symbol_name(kinds[0] if kinds else "mixed"),
            "bonus": [territory_name(names[c]["territory"], board) for c in trio
                      if names[c]["territory"]
                      and view["territories"][names[c]["territory"]]["owner"] == you["seat"]],
        })
    return sets


def border_keeps(view: dict, seat: int, source: str) -> int:
    """What "all but what the border needs" leaves on the conquering territory: as many
    armies as its strongest remaining enemy neighbour has (at least one). Teammates and the
    conquered territory are no enemies; a neighbour whose armies are out of sight counts 0."""
    team = view["players"][seat].get("team")
    friends = {p["seat"] for p in view["players"]
               if p["seat"] == seat or (team is not None and p.get("team") == team)}
    enemies = [view["territories"][n]["armies"] or 0 for n in board_of_view(view).neighbours[source]
               if view["territories"][n]["owner"] not in friends
               and view["territories"][n]["owner"] is not None]
    return max([1, *enemies])


def occupy_form(view: dict, seat: int, occupy: dict, default: str) -> dict:
    """The "Move in" form, filled in with the player's stated default (profile)."""
    low, high = occupy["min"], occupy["max"]
    keeps = border_keeps(view, seat, occupy["from"])
    armies = view["territories"][occupy["from"]]["armies"]
    value = {"minimum": low, "border": armies - keeps}.get(default, high)
    board = board_of_view(view)
    value = min(max(value, low), high)
    return {**occupy, "from_name": territory_name(occupy["from"], board),
            "to_name": territory_name(occupy["to"], board), "value": value,
            "default": default if default in ("minimum", "border") else "all",
            "keeps": keeps, "border": border_line(view, seat, occupy["from"], armies - value)}


def actions(view: dict, seat: int | None, game: Game, selected: str | None,
            posted=None, occupy_default: str = "all", names: dict | None = None) -> dict:
    """The forms the viewer may use now, each with what it needs to be filled in. `names`:
    the seats' usernames (games.store.seats.Seats.usernames)."""
    names = names or {}
    posted = posted or {}
    if seat is None or game.status != Game.ACTIVE or view.get("phase") is None:
        return {}
    me = view["players"][seat]
    if me["eliminated"] or me["dropped"]:
        return {}
    territories = view["territories"]
    board = board_of_view(view)
    own = _sorted((t for t in board.territories if territories[t]["owner"] == seat), board)
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
        free = _sorted((t for t in board.territories if territories[t]["owner"] is None), board)
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
        neutral = _sorted((t for t in board.territories if territories[t]["owner"] == NEUTRAL),
                          board)
        forms["place_neutral"] = {"count": pending["reinforcements"],
                                  "rows": rows(neutral, "place-"),
                                  "mover": narrator.seat_name(view.get("turn_seat"), names)}
    elif phase == "neutral_place" and view.get("turn_seat") == seat:
        # This player's own turn waits while the other places the neutral's half of it.
        forms["neutral_waiting"] = {"placer": narrator.seat_name(current, names)}
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
        forms["occupy"] = occupy_form(view, seat, pending["occupy"], occupy_default)
    may = (view.get("you") or {}).get("may") or {}
    if phase == "attack":
        attacks = may.get("attack", {})
        sources = _sorted(attacks, board)
        source = selected if selected in sources else posted.get("from")
        if source in sources:
            targets = attacks[source]
        else:
            targets = _sorted({t for ts in attacks.values() for t in ts}, board)
        # A kept choice of dice that is unreadable or would now be refused: the most.
        dice = whole_number(posted.get("dice", ""), 1, min(
            ATTACK_DICE, territories[source]["armies"] - 1)) if source in sources else None
        forms["attack"] = {
            "sources": [_option(t, view) for t in sources],
            "targets": [{**_option(t, view), "owner": color_name(seat_color(
                territories[t]["owner"]))} for t in _sorted(targets, board)],
            "from": source, "to": posted.get("to") if source in sources else None,
            "dice": "" if dice is None else str(dice), "dice_choices": DICE_CHOICES,
            "repeat": posted.get("repeat") == "on",
            "odds": attack_odds(view, source if source in sources else None,
                                posted.get("to"), None if dice is None else str(dice)),
            "odds_texts": texts(), "defenses": defenses(view),
        }
        forms["end_attack"] = True
    if phase in ("attack", "fortify"):
        mode = view["rules"].get("fortify", "adjacent")
        moves = may.get("fortify", {})
        sources = _sorted(moves, board)
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
            "targets": [_option(t, view) for t in _sorted(targets, board)], "from": source,
            "to": posted.get("to") if posted.get("type") == "fortify" else None,
            "armies": posted.get("armies", "") if posted.get("type") == "fortify" else "",
            "rows": rows(_sorted(targets, board), "move-") if mode == "spread" else [],
        }
        forms["end_turn"] = True
    if "occupy" in forms or "fortify" in forms:
        forms["border"] = border_texts(view, seat)
    return forms
