"""static/js/odds.js, the attack form's odds in the browser, against engine/odds.py: the same
tables to 1e-9 (run by node where it is installed, else in chromium)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from engine import odds
from engine.pieces import ATTACK_DICE, DEFENCE_DICE

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "odds.js"
PAIRS = [(a, d, dice, defense) for a in range(2, 26) for d in range(1, 21)
         for dice in (1, 2, 3) for defense in odds.DEFENSES] + [(100, 100, 3, "max"),
                                                                (57, 83, 2, "one")]


def in_javascript(request) -> list[dict]:
    # The page hands the script the dice caps (web/page/odds.py): so does the test.
    caps = json.dumps({"attack": ATTACK_DICE, "defence": DEFENCE_DICE})
    call = (f"(odds.caps = {caps}, {json.dumps(PAIRS)}.map(function (p) "
            f"{{ return odds.summary(p[0], p[1], p[2], p[3]); }}))")
    if shutil.which("node"):
        program = f"var odds = require({json.dumps(str(SCRIPT))}); " \
                  f"process.stdout.write(JSON.stringify({call}));"
        done = subprocess.run(["node", "-e", program], capture_output=True, text=True,
                              timeout=120, check=True)
        return json.loads(done.stdout)
    page = request.getfixturevalue("browser").new_page()
    try:
        page.add_script_tag(content=SCRIPT.read_text())
        return page.evaluate(f"(function () {{ var odds = window.ConquestOdds; return {call}; }})()")
    finally:
        page.close()


def assert_same(browser, server, where: str) -> None:
    if isinstance(server, dict):
        assert set(browser) == set(server), where
        for key in server:
            assert_same(browser[key], server[key], f"{where}.{key}")
    elif isinstance(server, (list, tuple)):
        assert len(browser) == len(server), where
        for i, (b, s) in enumerate(zip(browser, server, strict=True)):
            assert_same(b, s, f"{where}[{i}]")
    elif isinstance(server, float):
        assert browser == pytest.approx(server, abs=1e-9), where
    else:
        assert browser == server, where


def test_the_browser_and_the_server_give_the_same_tables(request):
    browser = in_javascript(request)

    assert len(browser) == len(PAIRS)
    for pair, found in zip(PAIRS, browser, strict=True):
        assert_same(found, odds.summary(*pair), str(pair))


def test_it_would_see_a_different_table():
    # The comparison can fail: one roll of 3 against 2 is not one of 1 against 1.
    with pytest.raises(AssertionError):
        assert_same(odds.summary(2, 1), odds.summary(4, 2), "pair")
