"""Each side's chance of winning turn by turn, estimated by playing the position out many
times with computer players (bots.arena.play_on), and the turns that moved it most.

Deterministic: every play-out's dice and choices come from the game's seed, the turn and the
play-out's number, so a game and its seed always give the same estimate.
"""

from __future__ import annotations

import hashlib
import math
import random
from dataclasses import dataclass, field

from engine import FairDice
from engine.story import Story

from .arena import play_on

# The level that plays every seat out: fast and sound (hard thinks ten times longer).
LEVEL = "normal"
# At most this many decisions in one play-out; one unfinished by then splits its win
# between the sides still in it.
PLAYOUT_DECISIONS = 4_000
Z95 = 1.96


@dataclass
class Outlook:
    """`chances[k][side]`: the chance of each side after k turns (the last: the result)."""

    playouts: int  # per turn
    chances: list[list[float]] = field(default_factory=list)
    turning_points: list[dict] = field(default_factory=list)

    @property
    def margin(self) -> float:
        """The 95 % margin of one turn's estimate, in points, at its widest (a chance of
        one half): 1.96 standard errors."""
        return margin(self.playouts)


def margin(playouts: int) -> float:
    return round(100 * Z95 * math.sqrt(0.25 / max(playouts, 1)), 1)


def margin_of(chances: list[float], playouts: int) -> float:
    """The widest 95 % margin, in points, of an estimate from `playouts` play-outs: the
    Agresti-Coull interval (two wins and two losses added), honest even when every
    play-out agreed."""
    def half_width(chance: float) -> float:
        adjusted = (chance * playouts + 2) / (playouts + 4)
        return Z95 * math.sqrt(adjusted * (1 - adjusted) / (playouts + 4))
    return round(100 * max(half_width(c) for c in chances), 1)


def spread(points: list[int]) -> list[int]:
    """`points` coarse to fine: both ends, the middle, the quarters, ...; a walk cut short
    anywhere has covered the whole range evenly."""
    if len(points) < 2:
        return list(points)
    order, halves = [0, len(points) - 1], [(0, len(points) - 1)]
    while halves:
        low, high = halves.pop(0)
        if high - low >= 2:
            middle = (low + high) // 2
            order.append(middle)
            halves += [(low, middle), (middle, high)]
    return [points[i] for i in order]


def sample(turns: int, most: int) -> list[int]:
    """At most `most` of the positions 0 .. turns - 1, evenly apart (the first and the last
    always among them), in the order to play them out (spread)."""
    if turns <= most:
        return spread(list(range(turns)))
    step = (turns - 1) / max(most - 1, 1)
    return spread(sorted({round(i * step) for i in range(most)}))


def drawn_between(turns: int, estimated: dict[int, list[float]],
                  result: list[float]) -> list[list[float]]:
    """The chances after 0 .. turns - 1 turns and the result: each estimated position as
    estimated, the others on the straight line between the nearest estimated ones (the
    result the last of them)."""
    known = sorted(estimated.items()) + [(turns, result)]
    found, at = [], 0
    for index in range(turns):
        while known[at][0] < index:
            at += 1
        high, after = known[at]
        if high == index or at == 0:
            found.append(list(after))
            continue
        low, before = known[at - 1]
        share = (index - low) / (high - low)
        found.append([b + (a - b) * share for b, a in zip(before, after, strict=True)])
    return found + [list(result)]


def playouts_per_turn(budget: int, turns: int, least: int = 8) -> int:
    """The play-outs each turn gets of a game's `budget`: shared evenly, never under `least`."""
    return max(least, budget // max(turns, 1))


def _seed(seed: str, turn: int, number: int) -> str:
    return hashlib.sha256(f"{seed}:outlook:{turn}:{number}".encode()).hexdigest()


def estimate(position, teams: int, seed: str, turn: int, playouts: int,
             first: int = 0) -> list[float]:
    """Each side's share of `playouts` play-outs of `position` (a state, left unchanged),
    numbered from `first` (so that more of them add to the first ones)."""
    wins = [0.0] * teams
    levels = (LEVEL,) * position.seats
    for number in range(first, first + playouts):
        hexseed = _seed(seed, turn, number)
        dice = FairDice(hexseed, f"{position.game_id}-outlook")
        state = play_on(position.copy(), levels, dice, random.Random(hexseed),
                        max_decisions=PLAYOUT_DECISIONS)
        if state.finished and state.winner is not None:
            wins[state.team_of(state.winner)] += 1
        else:
            alive = sorted({state.team_of(s) for s in state.living()}) or list(range(teams))
            for side in alive:
                wins[side] += 1 / len(alive)
    return [w / playouts for w in wins]


def outlook(story: Story, seed: str, playouts: int) -> Outlook:
    """The chances after each turn of a finished game told with its positions; the last
    point is the result itself."""
    if not story.finished or len(story.positions) != len(story.turns):
        raise ValueError("the outlook needs a finished game's story with its positions")
    found = Outlook(playouts)
    for position, turn in zip(story.positions, story.turns, strict=True):
        found.chances.append(estimate(position, story.teams, seed, turn.turn, playouts))
    found.chances.append(result_point(story, found.chances))
    found.turning_points = turning_points(story, found.chances)
    return found


def result_point(story: Story, chances: list[list[float]]) -> list[float]:
    """The last point: the winning side's (shared by a team's seats) at 1, the others at 0;
    with no winner, the last estimate stands (equal shares if there is none)."""
    winners = {story.team_of(s) for s in story.winners}
    if winners:
        return [1.0 / len(winners) if side in winners else 0.0 for side in range(story.teams)]
    return list(chances[-1]) if chances else [1.0 / story.teams] * story.teams


def _what(turn, story: Story) -> dict:
    """What the turn's player did that tells the turn best: an elimination, players leaving
    a turn of no conquest, a continent completed (with the odds of its last conquest), a
    continent broken, conquests, none; and the armies they lost attacking (the words of a
    turn that cost its player their chance tell that, not a conquest)."""
    lost = sum(b["attacker_losses"] for b in turn.battles if b.get("seat") == turn.seat)
    return {**_deed(turn, story), "lost": lost}


def _deed(turn, story: Story) -> dict:
    if turn.eliminated:
        return {"kind": "eliminated", "seats": list(turn.eliminated)}
    if turn.left and not turn.conquests:
        return {"kind": "left", "seats": list(turn.left)}
    if turn.continents_taken:
        continent = turn.continents_taken[0]
        last = next((c for c in reversed(turn.conquests)
                     if c.territory in story.board.continent_territories[continent]), None)
        return {"kind": "continent", "continent": continent,
                "territory": last.territory if last else None,
                "odds": round(last.odds, 3) if last else None}
    if turn.continents_broken:
        continent, holder = turn.continents_broken[0]
        return {"kind": "broke", "continent": continent, "holder": holder}
    if turn.conquests:
        boldest = min(turn.conquests, key=lambda c: c.odds)
        return {"kind": "took", "count": len(turn.conquests), "territory": boldest.territory,
                "odds": round(boldest.odds, 3)}
    return {"kind": "quiet"}


# How much a turn tells, to pick the turn that stands for a stretch not played out turn by turn.
_TELLING = {"eliminated": 4, "continent": 3, "broke": 2, "took": 1, "left": 0.5, "quiet": 0}


def _most_telling(story: Story, low: int, high: int) -> int:
    def telling(index: int) -> tuple:
        what = _what(story.turns[index], story)
        return (_TELLING[what["kind"]], what.get("count", 0), -index)
    return max(range(low, high), key=telling)


def turning_points(story: Story, chances: list[list[float]], count: int = 3,
                   sampled: list[int] | None = None) -> list[dict]:
    """The `count` turns that moved the chances most, in turn order: whose turn, what they
    did, and the side that moved most with its chance before and after the turn, the
    series' own values (`chances[index - 1]` and `chances[index]`, as the chart and its
    table show them). Chosen turns stand a round apart (as many turns as there are seats,
    at most 3): a round's turns move together and the largest stands for them."""
    window = max(1, min(story.seats, 3))
    moves = []
    for index in range(len(story.turns)):
        before_row, after_row = chances[index], chances[index + 1]
        moved = [(after_row[s] - before_row[s], s) for s in range(story.teams)]
        change, side = max(moved, key=lambda m: (abs(m[0]), -m[1]))
        if abs(change) > 0:
            moves.append((abs(change), index, side, before_row[side], after_row[side]))
    moves.sort(key=lambda m: (-m[0], m[1]))
    chosen = []
    for move in moves:
        if len(chosen) < count and all(abs(move[1] - c[1]) >= window for c in chosen):
            chosen.append(move)
    found = []
    ends = sorted(set(sampled or range(len(story.turns)))) + [len(story.turns)]
    for swing, index, side, before, after in sorted(chosen, key=lambda m: m[1]):
        # Between two positions played out, the chance moved somewhere on the way: the turn
        # that tells most of the stretch stands for it.
        low = max((e for e in ends if e <= index), default=0)
        high = min(e for e in ends if e > index)
        if high - low > 1:
            index = _most_telling(story, low, high)
            # Its numbers are the series' own at that turn (the line drawn between).
            before, after = chances[index][side], chances[index + 1][side]
            swing = abs(after - before)
        if any(point["index"] == index + 1 for point in found):
            continue
        turn = story.turns[index]
        found.append({"turn": turn.turn, "index": index + 1, "seat": turn.seat, "side": side,
                      "before": round(before, 3), "after": round(after, 3),
                      "swing": round(swing, 3), **_what(turn, story)})
    return found
