"""The clock while finished games are analysed (benchmarks/clock_during_analysis.py, in a
process of its own, with the workers as `make run` starts them): how late a 10-s deadline
and a computer player's move come while 20 games wait for their analysis; and the same with
the analysis on the clock's worker, as before it had a queue of its own; and the same on Redis
(CONQUEST_BENCH_REDIS_URL names an empty database of its own, as for bench_notifications)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from benchmarks import figures
from benchmarks.bench_notifications import REDIS_URL

ROOT = Path(__file__).resolve().parent.parent


def measured(*args: str) -> tuple[float, float]:
    done = subprocess.run([sys.executable, "-m", "benchmarks.clock_during_analysis", *args],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    print("\n".join(line for line in done.stdout.splitlines()
                    if not re.match(r"^(deadline|bot)=", line)) or done.stderr[-2000:])
    found = dict(re.findall(r"^(deadline|bot)=(-?[0-9.]+)", done.stdout, re.M))
    return float(found.get("deadline", -1)), float(found.get("bot", -1))


def main() -> None:
    deadline, bot = measured()
    # A figure not measured (-1: not within the bench's patience) counts as missed.
    figures.record("deadline_delay_during_analysis_s", deadline if deadline >= 0 else 999, 5)
    figures.record("bot_move_delay_during_analysis_s", bot if bot >= 0 else 999, 5)
    measured("--before")
    measured("--redis", REDIS_URL)
