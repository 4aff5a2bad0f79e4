"""Many arena games in a process pool, summed up per level (the bot_arena command and
make bench use it)."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from .arena import percentile, play, wilson


def _one(args):
    levels, rules, seed, board = args
    result = play(levels, rules, seed, board=board)
    winner = None if result.winner is None else levels[result.winner]
    return winner, result.refused, result.times, result.turns


@dataclass
class Summary:
    levels: tuple[str, ...]
    games: int = 0
    undecided: int = 0  # games that reached the arena's decision limit
    wins: dict[str, int] = field(default_factory=dict)
    times: dict[str, list[float]] = field(default_factory=dict)
    refused: list[str] = field(default_factory=list)
    seconds: float = 0.0
    workers: int = 1

    def lines(self) -> list[str]:
        out = []
        for level in dict.fromkeys(self.levels):
            seats = self.levels.count(level)
            wins = self.wins.get(level, 0)
            low, high = wilson(wins, self.games)
            times = self.times.get(level, [])
            each = f" (each {wins / seats / max(1, self.games):.1%})" if seats > 1 else ""
            out.append(
                f"{level:>6} ({seats} seat{'s' if seats > 1 else ''}): won {wins}/{self.games}"
                f" = {wins / max(1, self.games):6.1%}  95% CI [{low:.1%}, {high:.1%}]{each}"
                f"  decision median {percentile(times, 0.5) * 1000:.2f} ms"
                f" p99 {percentile(times, 0.99) * 1000:.2f} ms")
        rate = self.games / self.seconds if self.seconds else 0.0
        out.append(f"{self.games} games ({self.undecided} undecided) in {self.seconds:.1f} s on "
                   f"{self.workers} process(es): {rate / self.workers:.1f} games/s per core")
        if self.refused:
            out.append(f"REFUSED COMMANDS: {len(self.refused)}, e.g. {self.refused[0]}")
        return out


def run(levels, games: int, rules: dict | None = None, seed: int = 0,
        workers: int | None = None, board=None, rotate: bool = False) -> Summary:
    """`games` games of `levels` on `board` (a engine.maps.Board; default classic).
    With `rotate`, game n seats the levels turned n places (each level plays every seat
    equally often: the first seat to move has an edge)."""
    levels = tuple(levels)
    workers = workers or os.cpu_count() or 1
    summary = Summary(levels, workers=workers)
    turned = (lambda n: levels[n % len(levels):] + levels[:n % len(levels)]) if rotate else (
        lambda n: levels)
    jobs = [(turned(n), rules or {}, seed + n, board) for n in range(games)]
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        for level, refused, times, _turns in pool.map(_one, jobs, chunksize=4):
            summary.games += 1
            if level is None:
                summary.undecided += 1
            else:
                summary.wins[level] = summary.wins.get(level, 0) + 1
            for level, spent in times.items():
                summary.times.setdefault(level, []).extend(spent)
            summary.refused.extend(refused)
    summary.seconds = time.perf_counter() - started
    return summary
