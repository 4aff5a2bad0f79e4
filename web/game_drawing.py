"""A game view drawn in SVG on its board's drawing (web/drawing.py): each territory's shape,
owner, armies and highlight, every border and sea lane, drawn server-side."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.maps import DEFAULT_MAP, Board
from engine.pieces import NEUTRAL
from games.boards import board_of_view
from words.vocabulary import color_name, continent_name, map_name, seat_color, territory_name

from .arrow_keys import ARROWS, arrow_moves
from .drawing import continent_class, drawing_of

# Owner colours with readable army counts on top (the count sits in a white disc).
FILL = {
    "red": "#d1342f", "blue": "#2f63c4", "green": "#2e9a4f", "yellow": "#e9bd2a",
    "black": "#3b3b3b", "white": "#f7f7f2", NEUTRAL: "#9b968c", "": "#e4dcc6",
}
# A territory under fog of war: a cloud-grey with the hatch pattern over it.
FOG = "#b9bcc2"
# Continents are told apart by dashed outlines in hues no player wears (violet, orange,
# teal, brown, magenta, indigo) and by the dash pattern, so that a continent never reads as
# an owner: the colours and dashes live in conquest.css (.c-<continent> on the classic
# map, .c-<n> by the continent's place on any other), for the board and the legend alike.


def legal_targets(view: dict, seat: int | None, selected: str | None) -> list[str]:
    """Where the selected territory can attack or fortify to now: the engine's answer
    (the view's you.may, engine.moves.legal)."""
    if seat is None or not selected:
        return []
    may = (view.get("you") or {}).get("may") or {}
    kind = "attack" if view.get("phase") == "attack" else "fortify"
    if view.get("phase") not in ("attack", "fortify"):
        return []
    return list(may.get(kind, {}).get(selected, []))


def board_context(view: dict, seat: int | None, selected: str | None = None,
                  link: bool = True) -> dict:
    """What templates/games/_board.html draws, on the game's own map."""
    board = board_of_view(view)
    layout = drawing_of(board)
    targets = set(legal_targets(view, seat, selected))
    capitals = dict(view.get("capitals") or {})
    mine = (view.get("you") or {}).get("capital")
    if mine:
        capitals[mine] = seat
    # Team games: each territory's army disc wears its owner's team mark (a numbered
    # diamond and a ring whose dash tells the team apart without colour).
    team_of = {p["seat"]: p["team"] for p in view["players"] if p.get("team") is not None}
    arrows = arrow_moves(board)
    continents = []
    for continent, (bonus, members) in board.continents.items():
        territories = []
        for territory in members:
            square = view["territories"][territory]
            owner = square["owner"]
            color = seat_color(owner)
            armies = square["armies"]
            classes = ["territory"]
            if territory == selected:
                classes.append("selected")
            if territory in targets:
                classes.append("target")
            if seat is not None and owner == seat:
                classes.append("mine")
            fogged = bool(square.get("fog"))
            if fogged:  # fog of war: neither owner nor armies are known here
                classes.append("fogged")
                words = _("out of sight")
            else:
                words = f"{owner_words(view, owner, seat)}, " + ngettext(
                    "%(count)d army", "%(count)d armies", armies) % {"count": armies}
            label_x, label_y = layout.labels[territory]
            name = territory_name(territory, board)
            territories.append({
                "id": territory, "name": name,
                "owner": "" if owner is None else owner, "color": color,
                "fill": FOG if fogged else FILL[color],
                "armies": "?" if fogged else armies, "fogged": fogged,
                "path": layout.shapes[territory],
                "x": label_x, "y": label_y, "classes": " ".join(classes),
                "capital": territory in capitals,
                "team": None if fogged or owner not in team_of else team_of[owner] + 1,
                "label": f"{name}, {continent_name(continent, board)}: {words}",
                "state": state_words(territory == selected, territory in targets),
                # The owner's mark on the army disc: a shape per colour (conquest.css), so
                # that the owner is not told by colour alone.
                "mark": color if color and color != NEUTRAL and not fogged else "",
                "arrows": " ".join(arrows.get(territory, {}).get(a, "") or "-" for a in ARROWS),
            })
        continents.append({
            "id": continent, "name": continent_name(continent, board), "bonus": bonus,
            "css": continent_class(board, continent),
            "outline": layout.outlines.get(continent, ""),
            "territories": territories,
        })
    borders = []
    for a, b in board.borders:
        if (a, b) in layout.land:
            borders.append({"a": a, "b": b, "kind": "land", "paths": [layout.land[(a, b)]]})
        else:
            borders.append({"a": a, "b": b, "kind": "sea", "paths": layout.sea[(a, b)]})
    return {
        "width": layout.width, "height": layout.height, "continents": continents,
        "title": board_title(board), "map": board.id,
        "teams": teams_legend(view),
        "sea_lanes": [b for b in borders if b["kind"] == "sea"],
        "land_borders": [b for b in borders if b["kind"] == "land"],
        "selected": selected, "targets": sorted(targets), "link": link,
        "marks": sorted({t["mark"] for c in continents for t in c["territories"] if t["mark"]}),
        "selected_word": state_words(True, False), "target_word": state_words(False, True),
        "cluster_word": _("Also here:"),
    }


def owner_words(view: dict, owner, seat: int | None) -> str:
    """Who holds a territory, in its accessible name: the player by name ("alice (you)"),
    the neutral or nobody; the colour only for a seat without a name."""
    if owner is None or owner == "":
        return _("nobody")
    if owner == NEUTRAL:
        return color_name(NEUTRAL)
    player = next((p for p in view["players"] if p["seat"] == owner), {})
    who = player.get("username") or color_name(seat_color(owner))
    if seat is not None and owner == seat:
        return _("%(player)s (you)") % {"player": who}
    return who


def state_words(selected: bool, target: bool) -> str:
    """What the accessible name adds for a territory chosen on the map (the script keeps
    it up to date as the player chooses)."""
    if selected:
        return _("selected")
    if target:
        return _("a target of the selected territory")
    return ""


def teams_legend(view: dict) -> list[dict]:
    """The teams as the legend lists them: the team's number (its mark on the map) and its
    players' colours and names."""
    teams: dict[int, list] = {}
    for player in view["players"]:
        if player.get("team") is not None:
            teams.setdefault(player["team"] + 1, []).append(
                f"{color_name(player['color'])}"
                + (f" ({player['username']})" if player.get("username") else ""))
    return [{"number": number, "members": ", ".join(members)}
            for number, members in sorted(teams.items())]


def board_title(board: Board) -> str:
    """The board's accessible title: which map, how many territories and continents."""
    if board.id == DEFAULT_MAP:
        return _("The world map: 42 territories in 6 continents")
    return _("%(map)s: %(territories)d territories in %(continents)d continents") % {
        "map": map_name(board), "territories": len(board.territories),
        "continents": len(board.continents)}


def neighbours_json(board: Board) -> dict:
    """The adjacency the page's script needs to highlight targets without a round trip."""
    return {t: list(ns) for t, ns in board.neighbours.items()}
