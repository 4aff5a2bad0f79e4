"""Battle odds figures: one exact computation of 100 attackers against 100 defenders (the
whole distribution of how the assault ends, no cache), the largest the API takes (its
worst case: one die against one, each battle taking one army; once its open-field table is
filled, and the filling itself, once per process), and how far the browser's tables
(static/js/odds.js, run by node where installed) are from the server's."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

from benchmarks import figures
from engine import odds
from engine.pieces import ATTACK_DICE, DEFENCE_DICE

SCRIPT = Path(__file__).resolve().parents[1] / "static" / "js" / "odds.js"
# The script as the page loads it: the page hands it the dice caps (web/page/odds.py).
LOAD = (f"var odds = require({json.dumps(str(SCRIPT))}); "
        f"odds.caps = {json.dumps({'attack': ATTACK_DICE, 'defence': DEFENCE_DICE})}; ")


def best_of(rounds: int, work) -> float:
    best = float("inf")
    for _ in range(rounds):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def largest_difference(pairs) -> float | None:
    """The largest difference between any number of the two tables, or None without node."""
    if not shutil.which("node"):
        return None
    call = f"{json.dumps(pairs)}.map(function (p) {{ return odds.summary(p[0], p[1], p[2], p[3]); }})"
    program = LOAD + f"process.stdout.write(JSON.stringify({call}));"
    done = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True)
    worst = 0.0

    def walk(browser, server) -> None:
        nonlocal worst
        if isinstance(server, dict):
            for key in server:
                walk(browser[key], server[key])
        elif isinstance(server, (list, tuple)):
            for b, s in zip(browser, server, strict=True):
                walk(b, s)
        elif isinstance(server, float):
            worst = max(worst, abs(browser - server))
    for pair, browser in zip(pairs, json.loads(done.stdout), strict=True):
        walk(browser, odds.summary(*pair))
    return worst


def browser_milliseconds() -> float | None:
    """The script's best time for one 100 against 100 summary under node, or None."""
    if not shutil.which("node"):
        return None
    program = (LOAD + "var best = Infinity; "
               "for (var i = 0; i < 20; i++) { var t = process.hrtime.bigint(); "
               "odds.summary(100, 100, 3, 'max'); "
               "best = Math.min(best, Number(process.hrtime.bigint() - t) / 1e6); } "
               "process.stdout.write(String(best));")
    done = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True)
    return float(done.stdout)


def main() -> None:
    exact = odds.assault.__wrapped__  # past the cache of recent pairs: the computation itself
    odds.battle(3, 2)  # the dice's outcomes are counted once per process
    seconds = best_of(20, lambda: exact(100, 100, 3, "max"))
    print(f"one exact assault, 100 against 100:   {seconds * 1000:8.2f} ms (target 5 ms)")
    seconds = best_of(20, lambda: odds.summary(100, 100))
    print(f"the API's answer for it (summary):   {seconds * 1000:8.2f} ms (cached assault)")
    most = odds.MOST_ARMIES
    filling = best_of(1, lambda: exact(most, most, 1, "one"))
    print(f"its open-field table, filled once:   {filling * 1000:8.0f} ms (per process and dice)")
    # Distinct pairs, as a client past the cache of recent pairs would ask them.
    pairs = iter((most - n, most - 2 * n) for n in range(1, 100))
    seconds = best_of(10, lambda: odds.summary(*next(pairs), 1, "one"))
    print(f"the worst answer, {most} against {most}, one die each: {seconds * 1000:8.2f} ms "
          "(target 50 ms)")
    figures.record("odds_worst_answer_ms", seconds * 1000, 50)
    pairs = [(a, d, dice, defense) for a in range(2, 26) for d in range(1, 21)
             for dice in (1, 2, 3) for defense in odds.DEFENSES] + [(100, 100, 3, "max")]
    worst = largest_difference(pairs)
    milliseconds = browser_milliseconds()
    if milliseconds is not None:
        print(f"the page's script, 100 against 100:  {milliseconds:8.2f} ms (node)")
    if worst is None:
        print("browser against server: node is not installed (the tests use chromium)")
    else:
        print(f"browser against server, {len(pairs)} tables: largest difference {worst:.1e} "
              f"(target 1e-9)")


if __name__ == "__main__":
    main()
