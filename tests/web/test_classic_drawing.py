"""The classic board is drawn byte-for-byte as before maps became data: its SVG and legend,
with owners, fog, teams, capitals, a selection and its targets, rendered from a fixed view and
compared with the digest of the drawing as it was (when it was Python, web/board_layout.py)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from django.template.loader import render_to_string
from django.utils import translation

from engine.maps import classic
from web.game_drawing import board_context

# sha256 of the rendered classic board and legend before the web read maps from their files,
# with what issue 58 added since: owners named in the accessible names and marked by shape,
# the selection's state in its name, the arrow keys' table (data-arrows), the tap words.
CLASSIC_SVG = "6925eba3b47e7defd4d955881cdd4c44da78b0cab93f2afeda610521ad6d68f6"
KEPT = Path(__file__).resolve().parents[2] / "var" / "classic_board_rendered.svg"


def fixed_view() -> dict:
    board = classic()
    territories = {}
    for i, t in enumerate(board.territories):
        owner = "neutral" if i % 11 == 0 else (i % 4)
        territories[t] = {"owner": owner, "armies": 1 + i % 7}
    for t in board.territories[30:36]:
        territories[t] = {"owner": None, "armies": None, "fog": True}
    players = [{"seat": s, "color": c, "username": f"p{s}", "team": s % 2}
               for s, c in enumerate(("red", "blue", "green", "yellow"))]
    return {"map": "classic", "map_hash": board.hash, "phase": "attack",
            "territories": territories, "players": players,
            "capitals": {"alaska": 0, "brazil": 1},
            "you": {"seat": 0, "capital": "ural",
                    "may": {"attack": {"alaska": ["kamchatka", "alberta"]}}}}


def rendered() -> str:
    with translation.override("en"):
        context = board_context(fixed_view(), 0, "alaska")
        return (render_to_string("games/_board.html", {"board": context})
                + render_to_string("games/_legend.html", {"board": context, "players": []}))


def test_the_classic_board_is_drawn_as_before():
    svg = rendered()
    digest = hashlib.sha256(svg.encode()).hexdigest()
    if digest != CLASSIC_SVG:
        KEPT.parent.mkdir(parents=True, exist_ok=True)
        KEPT.write_text(svg, encoding="utf-8")
    assert digest == CLASSIC_SVG, f"the classic drawing changed: see {KEPT}"
    assert svg.count("data-territory=") == 42 and "c-north_america" in svg
