"""Where each arrow key moves the focus from a territory of a drawn map: to the neighbour
lying that way (sea lanes included, the short way round across the map's edge), chosen so
that every territory is the arrow's answer from at least one of its neighbours and all of
them can be reached from any one."""

from __future__ import annotations

import math
from functools import lru_cache

from engine.maps import Board

from .drawing import drawing_of

# The arrows in the order templates/games/_board.html writes them (data-arrows).
ARROWS = {"left": (-1, 0), "up": (0, -1), "right": (1, 0), "down": (0, 1)}


def _offset(board: Board, a: str, b: str) -> tuple[float, float]:
    layout = drawing_of(board)
    (x1, y1), (x2, y2) = layout.labels[a], layout.labels[b]
    dx, dy = x2 - x1, y2 - y1
    for wrap in (layout.width, -layout.width):  # Alaska to Kamchatka: the short way round
        if abs(dx + wrap) < abs(dx):
            dx += wrap
    return dx, dy


def _cost(offset: tuple[float, float], arrow: tuple[int, int]) -> float | None:
    """How well a neighbour at `offset` answers `arrow` (lower is better), or None when it
    does not lie that way at all."""
    dx, dy = offset
    along = dx * arrow[0] + dy * arrow[1]
    across = abs(dx * arrow[1] - dy * arrow[0])
    if along <= 0 or across > along * 2.2:
        return None
    return along + across * 2


def _angle_cost(offset: tuple[float, float], arrow: tuple[int, int]) -> float:
    """How far from `arrow`'s way a neighbour lies, in radians: for a neighbour no arrow
    answers, the arrow that points nearest to it."""
    return abs(math.atan2(offset[0] * arrow[1] - offset[1] * arrow[0],
                          offset[0] * arrow[0] + offset[1] * arrow[1]))


def _reached(moves: dict, start: str) -> set:
    seen, queue = {start}, [start]
    while queue:
        for there in moves[queue.pop()].values():
            if there and there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


@lru_cache(maxsize=32)
def arrow_moves(board: Board) -> dict:
    """territory -> {arrow: neighbour or ""}: the nearest neighbour lying each way; then a
    territory no arrow leads to (a small one beside a big one: Eswatini, Qatar) takes the
    arrow of a neighbour that points nearest to it, from an answer that other arrows (or
    other neighbours) still reach."""
    layouts = drawing_of(board).labels
    drawn = [t for t in board.territories if t in layouts]
    moves = {}
    for here in drawn:
        moves[here] = {}
        for name, arrow in ARROWS.items():
            costs = [(c, there) for there in board.neighbours[here] if there in layouts
                     and (c := _cost(_offset(board, here, there), arrow)) is not None]
            moves[here][name] = min(costs)[1] if costs else ""
    for _ in range(2 * len(drawn)):
        led_to = {}
        for here in drawn:
            for there in moves[here].values():
                led_to[there] = led_to.get(there, 0) + 1
        reached = _reached(moves, drawn[0]) if drawn else set()
        lonely = [t for t in drawn if not led_to.get(t)] \
            or [t for t in drawn if t not in reached and set(board.neighbours[t]) & reached]
        if not lonely:
            break
        for territory in lonely:
            _lead_to(board, moves, territory, led_to,
                     reached if led_to.get(territory) else set(moves))
    return moves


def _lead_to(board: Board, moves: dict, lonely: str, led_to: dict, sources: set) -> None:
    """Give `lonely` the arrow of one of its neighbours among `sources`: the arrow pointing
    nearest to it whose answer is empty or is still another arrow's answer."""
    options = sorted((_angle_cost(_offset(board, here, lonely), arrow), here, name)
                     for here in board.neighbours[lonely] if here in sources
                     for name, arrow in ARROWS.items())
    for _, here, name in options:
        before = moves[here][name]
        if not before or led_to.get(before, 0) > 1:
            moves[here][name] = lonely
            led_to[before] = led_to.get(before, 0) - 1
            led_to[lonely] = led_to.get(lonely, 0) + 1
            return


def unreachable(board: Board) -> list[str]:
    """The drawn territories the arrows never reach from the first one (none, on a map the
    keyboard can play)."""
    moves = arrow_moves(board)
    if not moves:
        return []
    return sorted(set(moves) - _reached(moves, next(iter(moves))))
