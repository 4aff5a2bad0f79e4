"""The arrow keys reach every territory of every shipped map (Eswatini and Qatar, beside
South Africa and Saudi Arabia on the world map, were never an arrow's answer), from any
territory, and each arrow still answers with a neighbour."""

from __future__ import annotations

import pytest

from engine.maps import shipped_boards
from web.arrow_keys import _reached, arrow_moves


@pytest.mark.parametrize("board", shipped_boards(), ids=lambda b: b.id)
def test_it_reaches_every_territory_from_every_territory(board):
    moves = arrow_moves(board)
    assert set(moves) == set(board.territories)
    for start in moves:
        assert _reached(moves, start) == set(moves), start


@pytest.mark.parametrize("board", shipped_boards(), ids=lambda b: b.id)
def test_it_moves_only_to_neighbours(board):
    for here, answers in arrow_moves(board).items():
        assert {there for there in answers.values() if there} <= set(board.neighbours[here])


def test_it_leads_to_the_small_territories_of_the_world_map():
    world = next(board for board in shipped_boards() if board.id == "world")
    moves = arrow_moves(world)
    assert "eswatini" in {moves[n][a] for n in world.neighbours["eswatini"] for a in moves[n]}
    assert moves["saudi_arabia"]["right"] == "qatar"
