"""The game page's players: the players' table (who is to move, teams, bots, the neutral
army) and the viewer's hand of cards."""

from __future__ import annotations

from django.utils.translation import gettext as _

from engine.pieces import NEUTRAL
from games.boards import board_of_view
from games.models import Game
from words.vocabulary import DEFENSE_NAMES, color_name, level_name, symbol_name, territory_name


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
        if player.get("bot") == "account":
            # A bot account (docs/bots/contract.md "Bot accounts"): a program its owner runs.
            status = " · ".join(filter(None, [
                _("bot of %(owner)s") % {"owner": player.get("owner")}, status]))
        elif player.get("bot"):
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


def waiting_for(rows: list[dict], seat: int | None) -> str:
    """The players the game waits for other than the viewer, as the players' table shows
    them (who is to move, who has not handed in a simultaneous step: public knowledge)."""
    return ", ".join(f"{row['color_name']} ({row['username']})" if row.get("username")
                     else row["color_name"]
                     for row in rows if row.get("acting") and row["seat"] != seat)


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
    board = board_of_view(view)
    return [{
        "id": card["id"], "territory": card["territory"],
        "name": territory_name(card["territory"], board) if card["territory"] else _("Wild card"),
        "symbol": card["symbol"], "symbol_name": symbol_name(card["symbol"]),
        "owned": bool(card["territory"])
        and view["territories"][card["territory"]]["owner"] == you.get("seat"),
    } for card in you.get("cards", [])]
