"""`manage.py bot_arena --map ID`: the computer players against each other on any map a
game may be made on (tests/maps.py: isles), and a clear refusal of an unknown one."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from bots.arena import play
from tests.maps import TERRITORIES, isles


def test_the_arena_plays_whole_games_on_the_map_asked_for(isles_map):
    out = io.StringIO()

    call_command("bot_arena", "--players", "hard,normal,easy", "--games", "4", "--map",
                 "isles", "--workers", "1", stdout=out)

    text = out.getvalue()
    assert text.startswith("hard,normal,easy on isles ")
    assert "4 games (0 undecided)" in text and "REFUSED" not in text


def test_a_game_of_the_arena_is_on_that_map_from_start_to_end():
    board = isles()
    result, events = play(("hard", "normal"), {"fog": True}, seed=3, record=True, board=board)
    assert result.winner is not None and not result.refused
    assert events[0].data["map_hash"] == board.hash
    assert {e.data["to"] for e in events if e.type == "battle"} <= set(TERRITORIES)


@pytest.mark.parametrize("arguments, words", [
    (["--map", "atlantis"], "--map: no map 'atlantis'"),
    (["--map", "isles", "--rules", '{"objective": "missions"}'], "has no missions"),
])
def test_it_refuses_a_map_it_cannot_play(isles_map, arguments, words, db):  # imported maps
    with pytest.raises(CommandError, match=words):
        call_command("bot_arena", "--players", "normal,easy", "--games", "1", *arguments)
