"""The pages' scripts: each file of static/js/ holds one feature in at most 400 lines, and
the board's scripts (zoom and pan, the search, the keyboard, the forms filled in from the
map, the game area's stream) come with the one page that draws a board, the game page,
board.js first; every page has the common forms.js."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.web.support import started_game

SCRIPTS = Path(__file__).resolve().parents[2] / "static" / "js"
BOARD_SCRIPTS = ["board.js", "board_choice.js", "countdown.js", "board_zoom.js",
                 "board_find.js", "board_keys.js", "game_stream.js"]


def scripts_of(html: str) -> list[str]:
    return re.findall(r'<script src="/static/js/([\w.]+\.js)"', html)


def test_no_script_runs_past_400_lines():
    sizes = {path.name: path.read_text().count("\n") for path in SCRIPTS.glob("*.js")}

    assert "board_zoom.js" in sizes and "forms.js" in sizes
    assert {name: lines for name, lines in sizes.items() if lines > 400} == {}


def test_every_board_script_is_a_file():
    assert all((SCRIPTS / name).is_file() for name in BOARD_SCRIPTS)


def test_the_game_page_loads_the_board_scripts_board_js_first(alice, bob, as_alice):
    game = started_game([alice, bob], setup="random")

    for url in (f"/games/{game.pk}/", f"/games/{game.pk}/?at=2"):
        loaded = scripts_of(as_alice.get(url).content.decode())
        assert "forms.js" in loaded
        assert [name for name in loaded if name in BOARD_SCRIPTS] == BOARD_SCRIPTS
        # map_taps.js reads window.conquestBoard, which board.js makes
        assert loaded.index("board.js") < loaded.index("map_taps.js")


@pytest.mark.parametrize("url", ["/", "/games/", "/accounts/profile/", "/maps/", "/maps/classic/",
                                 "/tournaments/"])
def test_a_page_without_a_board_loads_no_board_script(as_alice, url):
    response = as_alice.get(url)
    loaded = scripts_of(response.content.decode())

    assert response.status_code == 200
    assert "forms.js" in loaded and "menu.js" in loaded
    assert [name for name in loaded if name in BOARD_SCRIPTS] == []


def test_the_board_list_loads_no_board_script(alice, bob, as_alice):
    game = started_game([alice, bob], setup="random")

    loaded = scripts_of(as_alice.get(f"/games/{game.pk}/board/").content.decode())

    assert "forms.js" in loaded and "board.js" not in loaded and "board_zoom.js" not in loaded
