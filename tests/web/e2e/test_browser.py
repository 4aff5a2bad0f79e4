"""Two players sign up and play in a real browser: create and join a game, the setup, a
reinforcement, the neutral's share, an attack with a conquest and an occupation, a
fortification and an end of turn, every step clicked or typed on the pages."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from engine.board import NEIGHBOURS, NEUTRAL, TERRITORIES
from games.models import Game
from games.store.states import load_state
from tests.people import places_the_neutral_by_hand
from tests.web.e2e.support import after_polls

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "a-long-browser-password-3"
WAIT = 15_000  # ms


def sign_up(browser, base: str, name: str, contexts: list):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    contexts.append(context)
    context.clock.install()  # the live poll's 4 s skipped (after_polls), not waited for
    page = context.new_page()
    problems = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    # Anything the Content-Security-Policy blocked (an inline script or style, a CDN).
    page.on("console", lambda message: problems.append(f"{message.text} at {message.location}")
            if "Content Security Policy" in message.text else None)
    page.problems = problems
    page.goto(f"{base}/")
    page.get_by_role("link", name="Sign up").first.click()
    page.fill("#id_username", name)
    page.fill("#id_email", f"{name}@example.com")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.wait_for_url(f"{base}/games/")
    return page


def brought(page, selector: str) -> None:
    """Wait until the page's live poll brings `selector` (the other player moved)."""
    assert after_polls(page, lambda: page.locator(selector).first.is_visible()), selector


def territory(page, territory_id: str):
    return page.locator(f'svg.board [data-territory="{territory_id}"]')


def click_on_map(page, territory_id: str) -> None:
    """A real mouse click on the territory, where its army count is drawn."""
    box = page.locator(f'svg.board .count[data-for="{territory_id}"] circle').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def press_on_map(page, territory_id: str) -> None:
    """Keyboard: focus the territory and press Enter."""
    territory(page, territory_id).focus()
    page.keyboard.press("Enter")


def best_territory(state, seat, stacks=()) -> str:
    """An own territory bordering someone else's, with the weakest such neighbour, next to
    none of `stacks`: beside the other player's setup stack, the attack could take it (the
    deal follows the game's id, so it changes from run to run)."""
    border = state.border_territories(seat)
    candidates = [t for t in border if not stacks or not set(NEIGHBOURS[t]) & set(stacks)]
    return min(candidates or border, key=lambda t: min(
        state.armies[n] for n in NEIGHBOURS[t] if state.owner[n] != seat))


def test_two_players_play_a_turn_each_in_the_browser(browser, live_server, contexts,
                                                     screenshot):
    base = live_server.url
    alice = sign_up(browser, base, "alice", contexts)
    bob = sign_up(browser, base, "bob", contexts)
    for name in ("alice", "bob"):  # the rulebooks' way, which this test plays through
        places_the_neutral_by_hand(get_user_model().objects.get(username=name).pk)

    # alice creates a two-player game with the classic preset (simultaneous setup)
    alice.fill("#id_name", "Browser game")
    alice.select_option("#id_players", "2")
    alice.get_by_label("Classic", exact=True).check()
    alice.get_by_role("button", name="Create the game").click()
    alice.wait_for_url(f"{base}/games/*/")
    game = Game.objects.get(name="Browser game")
    assert game.rules["initial_placement"] == "simultaneous"
    screenshot(alice, "01-open-game")

    # bob joins from the lobby; the game starts by itself when full
    bob.goto(f"{base}/games/")
    bob.get_by_role("button", name="Join Browser game").click()
    bob.wait_for_url(f"{base}/games/{game.pk}/")
    game.refresh_from_db()
    assert game.status == Game.ACTIVE
    pages = {0: alice, 1: bob}

    # setup: each places every starting army at once on one territory, typed in the form
    state = load_state(game)
    strong, placed = {}, {}
    for seat, page in pages.items():
        page.goto(f"{base}/games/{game.pk}/")
        form = page.locator("#form-place")
        count = int(form.get_attribute("data-count"))
        strong[seat] = best_territory(state, seat, strong.values())
        press_on_map(page, strong[seat])
        assert page.input_value(f"#place-{strong[seat]}") == "1"
        page.fill(f"#place-{strong[seat]}", str(count))
        placed[seat] = count
        assert f"{count} / {count}" in form.locator(".remaining").inner_text()
        if seat == 0:
            screenshot(page, "02-setup-placement")
        form.get_by_role("button", name="Place").click()
        page.wait_for_selector("#game .notes .message", timeout=WAIT)
    state = load_state(game)
    assert state.phase == "reinforce"
    for seat in pages:
        assert state.armies[strong[seat]] == 1 + placed[seat]

    # the first player reinforces: click the strong territory on the map, then place all
    first = state.current
    page = pages[first]
    brought(page, "#form-place")
    screenshot(page, "03-reinforce")
    click_on_map(page, strong[first])
    owed = int(page.locator("#form-place").get_attribute("data-count"))
    page.fill(f"#place-{strong[first]}", str(owed))
    page.locator("#form-place").get_by_role("button", name="Place").click()
    page.wait_for_selector("#form-place", state="detached", timeout=WAIT)
    assert load_state(game).armies[strong[first]] == state.armies[strong[first]] + owed

    # the other player places the neutral's share of those reinforcements
    other = 1 - first
    state = load_state(game)
    assert state.phase == "neutral_place"
    neutral_page = pages[other]
    brought(neutral_page, "#form-place_neutral")
    share = int(neutral_page.locator("#form-place_neutral").get_attribute("data-count"))
    neutral_spot = next(t for t in TERRITORIES if state.owner[t] == NEUTRAL)
    press_on_map(neutral_page, neutral_spot)
    neutral_page.fill(f"#place-{neutral_spot}", str(share))
    neutral_page.get_by_role("button", name="Place for the neutral").click()
    neutral_page.wait_for_selector("#form-place_neutral", state="detached", timeout=WAIT)

    # attack from the strong territory, repeating until the target falls
    state = load_state(game)
    assert state.phase == "attack"
    source = strong[first]
    target = min((n for n in NEIGHBOURS[source] if state.owner[n] != first),
                 key=lambda n: state.armies[n])
    brought(page, "#form-attack")
    click_on_map(page, source)
    assert page.input_value("#attack-from") == source
    assert "target" in territory(page, target).get_attribute("class")
    press_on_map(page, target)
    assert page.input_value("#attack-to") == target
    page.check("#attack-repeat")
    screenshot(page, "04-attack-selected")
    page.get_by_role("button", name="Roll the dice").click()
    page.wait_for_selector("#form-occupy, #game [role=alert]", timeout=WAIT)
    alert = page.locator("#game [role=alert]")
    if alert.count() and not page.locator("#form-occupy").count():
        # The live poll can redraw the game area (the opponent's move landing) between the
        # choice and the roll; the page says why, and the player chooses again.
        print("the roll was sent back:", alert.first.inner_text())
        click_on_map(page, source)
        press_on_map(page, target)
        page.check("#attack-repeat")
        page.get_by_role("button", name="Roll the dice").click()
        page.wait_for_selector("#form-occupy", timeout=WAIT)
    assert "conquered!" in page.locator("#game .notes").inner_text()
    state = load_state(game)
    assert state.phase == "occupy" and state.owner[target] == first

    # occupy: type how many move in
    occupation = state.occupation
    move_in = occupation.minimum + 2
    page.fill("#occupy-armies", str(move_in))
    screenshot(page, "05-occupy")
    page.get_by_role("button", name="Move in", exact=True).click()
    page.wait_for_selector("#form-occupy", state="detached", timeout=WAIT)
    state = load_state(game)
    assert state.phase == "attack" and state.armies[target] == move_in

    # fortify with the form's selects: from the source into the conquered territory
    page.select_option("#fortify-from", source)
    page.select_option("#fortify-to", target)
    page.fill("#fortify-armies", "3")
    page.get_by_role("button", name="Fortify and end the turn").click()
    page.wait_for_selector("#form-fortify", state="detached", timeout=WAIT)
    after = load_state(game)
    assert after.armies[target] == move_in + 3
    assert after.turn_seat == other and after.phase == "reinforce"
    screenshot(page, "06-after-fortify")

    # the other player's turn: reinforce, the neutral's share, then end the turn
    page = pages[other]
    brought(page, "#form-place")
    owed = int(page.locator("#form-place").get_attribute("data-count"))
    page.fill(f"#place-{strong[other]}", str(owed))
    page.locator("#form-place").get_by_role("button", name="Place").click()
    page.wait_for_selector("#form-place", state="detached", timeout=WAIT)
    helper = pages[first]
    brought(helper, "#form-place_neutral")
    share = int(helper.locator("#form-place_neutral").get_attribute("data-count"))
    state = load_state(game)
    neutral_spot = next(t for t in TERRITORIES if state.owner[t] == NEUTRAL)
    helper.fill(f"#place-{neutral_spot}", str(share))
    helper.get_by_role("button", name="Place for the neutral").click()
    helper.wait_for_selector("#form-place_neutral", state="detached", timeout=WAIT)
    brought(page, "#form-attack")
    page.get_by_role("button", name="Stop attacking").click()
    page.wait_for_selector("#form-attack", state="detached", timeout=WAIT)
    page.get_by_role("button", name="End the turn without fortifying").click()
    page.wait_for_selector("#form-end_turn", state="detached", timeout=WAIT)
    state = load_state(game)
    assert state.turn == 3 and state.turn_seat == first
    screenshot(page, "07-end-of-turn")

    # the log tells it in words, and the history slider redraws an earlier board
    log = page.locator("#log").inner_text()
    assert "attacked" in log and "conquered!" in log and "ended the turn" in log
    page.goto(f"{base}/games/{game.pk}/?at=5")
    assert "after move 5 of" in page.locator(".history-note").inner_text()

    # and the pages speak Czech after the language switch
    page.goto(f"{base}/games/{game.pk}/")
    page.select_option("#language-choice", "cs")
    page.wait_for_selector("html[lang=cs]", timeout=WAIT)
    assert "Co se stalo" in page.locator("#log h2").inner_text()
    screenshot(page, "08-czech")
    assert alice.problems + bob.problems == []
