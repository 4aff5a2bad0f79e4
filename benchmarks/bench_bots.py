"""Computer players' figures: strength in arena games (with 95 % confidence intervals) and
decision times on one core. CONQUEST_BENCH_BOT_GAMES sets the main figure's games (1,000);
CONQUEST_BENCH_MAP_GAMES the games per table on the other shipped maps (60 on a map of
classic's size, more on smaller maps, fewer on larger ones: a world game is long)."""

from __future__ import annotations

import os

from bots.arena import percentile
from bots.report import run
from engine.maps import shipped_boards

GAMES = int(os.environ.get("CONQUEST_BENCH_BOT_GAMES", "1000"))
MAP_GAMES = int(os.environ.get("CONQUEST_BENCH_MAP_GAMES", "60"))
TABLES = [
    # (what it shows, levels, rules, games, the level whose win rate is the figure, target)
    ("hard against two normal, 3 players, domination", ("hard", "normal", "normal"), {},
     GAMES, "hard", 0.5),
    ("normal against two easy, 3 players, domination", ("normal", "easy", "easy"), {},
     GAMES, "normal", 0.6),
    ("hard against normal, 2 players with the neutral", ("hard", "normal"), {},
     max(100, GAMES // 3), "hard", None),
    ("hard against two normal, 3 players, missions", ("hard", "normal", "normal"),
     {"objective": "missions"}, max(100, GAMES // 3), "hard", None),
]


def map_games(board) -> int:
    return max(6, min(200, round(MAP_GAMES * (42 / len(board.territories)) ** 1.5)))


def maps() -> None:
    """On every shipped map: hard against two normal (classic's is above), and hard,
    normal, normal and easy, seats rotated; hard's decision p99 on each map."""
    print("-- every shipped map, seats rotated (targets: hard >= 50 % against two "
          "normal; hard above each normal at 4; hard's decision p99 under 200 ms):")
    for board in sorted(shipped_boards(), key=lambda b: len(b.territories)):
        games = map_games(board)
        for levels in (("hard", "normal", "normal"), ("hard", "normal", "normal", "easy")):
            if len(levels) > board.max_players or board.id == "classic" and len(levels) == 3:
                continue
            summary = run(levels, games, {}, seed=40_000, board=board, rotate=True)
            hard = summary.wins.get("hard", 0) / summary.games
            each = summary.wins.get("normal", 0) / 2 / summary.games
            met = hard >= 0.5 if len(levels) == 3 else hard > each
            p99 = percentile(summary.times.get("hard", []), 0.99) * 1000
            print(f"   {board.id} ({len(board.territories)} territories), {','.join(levels)}: "
                  f"hard {hard:.1%}, each normal {each:.1%} ({'met' if met else 'NOT met'}); "
                  f"hard p99 {p99:.0f} ms")
            for line in summary.lines():
                print("      " + line)


def main() -> None:
    for title, levels, rules, games, level, target in TABLES:
        summary = run(levels, games, rules, seed=10_000)
        rate = summary.wins.get(level, 0) / summary.games
        goal = f" (target {target:.0%}: {'met' if rate >= target else 'NOT met'})" if target else ""
        print(f"-- {title}: {level} wins {rate:.1%}{goal}")
        for line in summary.lines():
            print("   " + line)
    # Speed on one core: decision times per level, and whole normal games per second.
    speed = run(("hard", "normal", "easy"), 100, {}, seed=20_000, workers=1)
    print("-- decision times on one core (hard, normal, easy at one table, 100 games):")
    for line in speed.lines()[:-1]:
        print("   " + line)
    games = run(("normal", "normal", "normal"), 100, {}, seed=30_000, workers=1)
    print(f"-- 3-player normal games on one core: {games.games / games.seconds:.1f} games/s "
          "(target 5)")
    maps()
