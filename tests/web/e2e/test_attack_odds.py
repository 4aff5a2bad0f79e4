"""The attack form's odds in a real browser at a laptop's and a phone's size: told for the
pair and the dice the player chooses, computed on the page (no request), and the same
numbers as the server's model. Screenshots: var/screenshots/odds-*."""

from __future__ import annotations

import re

import pytest

from engine import odds
from engine.board import NEIGHBOURS, NEUTRAL
from tests.people import with_password
from tests.play import play_until
from tests.web.e2e.conftest import save_screenshot
from tests.web.e2e.test_board import SIZES, attack_position, signed_in_page
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def players(db):
    return [with_password("alice"), with_password("bob")]


def told_percents(page) -> list[tuple[str, float]]:
    """Each percentage the odds' first line tells, with its bound: "> 99.9 %" and "< 0.1 %"
    stand for what rounds to 100 or 0 and is not certain (static/js/attack_odds.js)."""
    text = page.locator("#attack-odds p").first.inner_text()
    assert text.startswith("Chance to take it:"), text
    return [(bound, float(n)) for bound, n in re.findall(r"([<>]?)\s?(\d+\.\d) %", text)]


def says(told: tuple[str, float], chance: float) -> bool:
    """Whether the told percentage is the exact `chance` (0-1), to its one decimal."""
    bound, percent = told
    if bound == ">":
        return percent == 99.9 and 0.999 < chance < 1
    if bound == "<":
        return percent == 0.1 and 0 < chance < 0.001
    return percent == pytest.approx(chance * 100, abs=0.051)


@pytest.mark.parametrize("size", SIZES)
def test_the_odds_follow_the_pair_and_the_dice(browser, live_server, contexts, players, size):
    game, state = attack_position(players)
    seat = state.current
    source = max((t for t in NEIGHBOURS if state.owner[t] == seat
                  and any(state.owner[n] != seat for n in NEIGHBOURS[t])),
                 key=lambda t: state.armies[t])
    target = min((n for n in NEIGHBOURS[source] if state.owner[n] != seat),
                 key=lambda n: state.armies[n])
    owner = state.owner[target]
    defense = "max" if owner == NEUTRAL else state.players[owner].defense
    page = signed_in_page(browser, live_server, players[seat], size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")
    assert page.locator("#attack-odds p.help").count() == 1
    asked = []
    page.on("request", lambda request: asked.append(request.url))

    page.select_option("#attack-from", source)
    page.select_option("#attack-to", target)
    page.wait_for_function("document.querySelector('#attack-odds p:not(.help)') !== null")

    before = ""
    for dice in (3, 1):
        page.select_option("#attack-dice", "" if dice == 3 else str(dice))
        expected = odds.summary(state.armies[source], state.armies[target],
                                min(dice, state.armies[source] - 1), defense)
        if before:  # one die instead of three: other odds, told without a request
            page.wait_for_function(
                "(was) => document.querySelector('#attack-odds p').textContent !== was",
                arg=before)
        before = page.locator("#attack-odds p").first.inner_text()
        repeat, one = told_percents(page)[:2]
        assert says(repeat, expected["repeat"]["conquer"]), (repeat, expected["repeat"])
        assert says(one, expected["one_roll"]["conquer"]), (one, expected["one_roll"])
        lines = page.locator("#attack-odds p").all_inner_texts()
        assert lines[1].startswith("Armies each side should expect to lose")
        if expected["repeat"]["conquer"] > 0:
            assert lines[2].startswith("If it falls:")
        page.locator("#form-attack").scroll_into_view_if_needed()
        save_screenshot(page, f"odds-{size}-dice-{dice}", full_page=False)
    assert not [url for url in asked if "/api/" in url or "/play" in url]
    # The fortify form says what the territory it empties keeps (its source has an enemy).
    if page.locator(f'#fortify-from option[value="{source}"]').count():
        page.select_option("#fortify-from", source)
        page.fill("#fortify-armies", "1")
        page.wait_for_function("document.querySelector('#fortify-border').textContent !== ''")
        assert f" keeps {state.armies[source] - 1} against " in page.inner_text("#fortify-border")
    assert page.problems == []


def occupy_position(users):
    """A two-player game where the mover is to move into a conquered territory and may
    leave its border more or fewer armies."""
    game = started_game(users, setup="random")
    state = play_until(game, users, lambda s: s.phase == "occupy"
                       and s.armies[s.occupation.source] - 1 > s.occupation.minimum
                       and any(s.owner[n] != s.current and s.armies[n] >= 2
                               for n in NEIGHBOURS[s.occupation.source]))
    return game, state


@pytest.mark.parametrize("size", SIZES)
def test_the_move_in_form_says_what_the_border_keeps(browser, live_server, contexts, players,
                                                      size):
    game, state = occupy_position(players)
    seat, source = state.current, state.occupation.source
    enemy = max((n for n in sorted(NEIGHBOURS[source]) if state.owner[n] != seat),
                key=lambda n: state.armies[n])
    page = signed_in_page(browser, live_server, players[seat], size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_selector("#occupy-border")
    first = page.inner_text("#occupy-border")

    page.fill("#occupy-armies", str(state.occupation.minimum))
    page.wait_for_function(
        "(was) => document.querySelector('#occupy-border').textContent !== was", arg=first)

    kept = state.armies[source] - state.occupation.minimum
    taken = odds.assault(state.armies[enemy], kept, 3, state.players[seat].defense).conquer
    told = page.inner_text("#occupy-border")
    assert f" keeps {kept} against " in told and f"({state.armies[enemy]})" in told
    bound, held = re.search(r"holds ([<>]?)\s?(\d+\.\d) %", told).groups()
    assert says((bound, float(held)), 1 - taken), (told, 1 - taken)
    page.locator("#form-occupy").scroll_into_view_if_needed()
    save_screenshot(page, f"odds-{size}-move-in", full_page=False)
    assert page.problems == []


def test_the_attack_form_speaks_czech(browser, live_server, contexts, players):
    game, state = attack_position(players)
    seat = state.current
    source = max((t for t in NEIGHBOURS if state.owner[t] == seat
                  and any(state.owner[n] != seat for n in NEIGHBOURS[t])),
                 key=lambda t: state.armies[t])
    target = next(n for n in NEIGHBOURS[source] if state.owner[n] != seat)
    page = signed_in_page(browser, live_server, players[seat], "laptop", contexts)
    page.set_extra_http_headers({"Accept-Language": "cs"})
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.select_option("#attack-from", source)
    page.select_option("#attack-to", target)
    page.wait_for_function("document.querySelector('#attack-odds p:not(.help)') !== null")

    told = page.locator("#attack-odds p").first.inner_text()
    assert told.startswith("Šance na dobytí:") and re.search(r"\d,\d %", told), told
    page.locator("#form-attack").scroll_into_view_if_needed()
    save_screenshot(page, "odds-laptop-cs", full_page=False)
    assert page.problems == []
