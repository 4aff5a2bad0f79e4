"""A finished game's win chance (bots.outlook), as a worker computes it: a 3-player classic
game of computer players, every turn's position played out the default number of times
(CONQUEST_ANALYSIS_PLAYOUTS shared among the turns), in one process; its CPU seconds
(target: under 60), the play-outs per turn and the estimate's 95 % margin."""

from __future__ import annotations

import os
import time

import django

from bots.arena import play
from bots.outlook import outlook, playouts_per_turn
from engine.story import read_story, series

GAMES = int(os.environ.get("CONQUEST_BENCH_ANALYSIS_GAMES", "2"))
# A short game (hard wins fast) and a long one (three equals).
TABLES = (("hard", "normal", "normal"), ("normal", "normal", "normal"))


def main() -> None:
    django.setup()
    from django.conf import settings  # the settings' default, as the worker reads it
    budget = settings.CONQUEST_ANALYSIS_PLAYOUTS
    for seed in range(GAMES):
        levels = TABLES[seed % len(TABLES)]
        _, events = play(levels, seed=20_000 + seed, record=True)
        started = time.process_time()
        story = read_story(events, keep_positions=True)
        series(story)
        read = time.process_time() - started
        per_turn = playouts_per_turn(budget, len(story.turns))
        started = time.process_time()
        found = outlook(story, f"bench-{seed}", per_turn)
        spent = time.process_time() - started
        total = per_turn * len(story.turns)
        print(f"-- game {seed + 1} ({','.join(levels)}): {len(story.turns)} turns; charts' numbers from the log "
              f"{read * 1000:.0f} ms; win chance {spent:.1f} CPU s for {total} play-outs "
              f"({per_turn} a turn, {spent / total * 1000:.0f} ms each): "
              f"{'met' if spent < 60 else 'NOT met'} (target under 60 s); "
              f"±{found.margin} points at 95 % per turn; turning points at turns "
              f"{', '.join(str(p['turn']) for p in found.turning_points)}")
