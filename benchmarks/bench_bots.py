"""Computer players' figures: strength in arena games (with 95 % confidence intervals) and
decision times on one core. CONQUEST_BENCH_BOT_GAMES sets the main figure's games (1,000)."""

from __future__ import annotations

import os

from bots.report import run

GAMES = int(os.environ.get("CONQUEST_BENCH_BOT_GAMES", "1000"))
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
