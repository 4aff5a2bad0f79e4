"""The game page's live updates heard and its focus kept, in a real browser at a laptop's and
a phone's size: the live regions stay in place outside the game area the poll replaces whole
(#game-news, a status region in the accessibility tree), an opponent's move and "your move"
are told there, so is the answer to the player's own move, and the focus survives every
update on an element with an id, the same one (never <body>)."""

from __future__ import annotations

import pytest

from engine.moves import seats_to_act
from games.models import Seat
from tests.people import with_password
from tests.play import play_until
from tests.web.e2e.support import after_polls, signed_in
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {"laptop": (1366, 768), "phone": (390, 844)}
LIVE_INSIDE = ("#game [aria-live], #game [role=status], #game [role=log], "
               "#game [role=marquee], #game [role=timer]")


def until(page, script: str, *args) -> None:
    """Waits for the page's `script` (a function) to come true (the pages' CSP allows no
    eval, which wait_for_function's string needs)."""
    for _ in range(200):
        if page.evaluate(script, *args):
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"never true: {script}")


def news(page) -> str:
    return page.locator("#game-news").text_content()


def focused(page) -> dict:
    return page.evaluate("""() => { const e = document.activeElement;
        return {tag: e.tagName.toLowerCase(), id: e.id, inGame: !!e.closest('#game')}; }""")


def update(page, game_id: int) -> None:
    """The live poll's request, answered with the game area (no `v`: drawn whatever stands)."""
    page.evaluate("""id => { window.__swapped = false;
        document.body.addEventListener('htmx:afterSettle', () => { window.__swapped = true; },
                                       { once: true });
        htmx.ajax('GET', `/games/${id}/live/`, { source: document.getElementById('live-poll'),
                                                  target: '#game', swap: 'outerHTML' }); }""",
                  game_id)
    until(page, "() => window.__swapped === true")


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_moves_are_told_and_the_focus_kept_across_updates(browser, live_server, contexts, size):
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob])
    mine = Seat.objects.get(game=game, user=alice).seat
    play_until(game, None, lambda s: seats_to_act(s) == [1 - mine])
    page = signed_in(browser, live_server.url, "alice", contexts, size,
                     at=f"/games/{game.pk}/", clock=True)
    assert page.locator(LIVE_INSIDE).count() == 0, "a live region inside the swapped area"
    assert page.locator("#game-news").get_attribute("aria-live") == "polite"
    page.evaluate("window.__news = document.getElementById('game-news')")

    # Her own move (a standing order): its answer is told, and takes the focus.
    page.locator("#play details.more summary").click()
    page.locator("#form-set_defense input[value=one]").check()
    page.locator("#form-set_defense button[type=submit]").click()
    until(page, "() => !!(document.activeElement.closest && "
          "document.activeElement.closest('#game .notes, #game [role=alert]'))")
    answer = page.locator("#game-notes").inner_text().strip()
    assert answer and answer in news(page)
    after = focused(page)
    assert after["inGame"] and after["id"], after

    # Another update: the focus stays where it was.
    update(page, game.pk)
    assert focused(page) == after

    # A link of the game area has the focus; bob moves and hands her the turn.
    link = page.locator("#game .board-list-link a")
    link.focus()
    held = focused(page)
    assert held["id"] and held["tag"] == "a"
    newest = page.evaluate("+document.getElementById('game').getAttribute('data-version')")
    play_until(game, None, lambda s: seats_to_act(s) == [mine])
    assert after_polls(page, lambda: "your move" in news(page)), news(page)
    told = page.evaluate("""v => Array.from(document.querySelectorAll('#log li.event'))
        .filter(li => +li.getAttribute('value') > v)
        .map(li => li.querySelector('.text').innerText.trim())""", newest)
    assert told and told[0] in news(page), (told, news(page))  # bob's newest move
    assert page.evaluate("window.__news === document.getElementById('game-news')"), \
        "the live region was replaced"
    assert focused(page) == held, "the focus did not come back to the link"
    assert "your move" in page.locator("#game-news").aria_snapshot()
    assert page.locator(LIVE_INSIDE).count() == 0


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_what_the_map_says_is_told_outside_the_game_area(browser, live_server, contexts, size):
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob])
    mine = Seat.objects.get(game=game, user=alice).seat
    state = play_until(game, None, lambda s: s.phase == "attack" and s.current == mine)
    page = signed_in(browser, live_server.url, "alice", contexts, size, at=f"/games/{game.pk}/")
    page.wait_for_selector(".zoom:not([hidden])")
    target = next(t for t, owner in state.owner.items() if owner == mine)
    page.focus(f'svg.board [data-territory="{target}"]')
    update(page, game.pk)
    assert focused(page)["id"] == f"t-{target}", "the territory lost the focus"
    page.keyboard.press("Enter")  # (a choice made: the poll leaves the forms alone now)
    name = page.locator(f'svg.board [data-territory="{target}"]').get_attribute("data-name")
    until(page, "() => document.getElementById('game-news').textContent.length > 0")
    assert name in news(page)
    assert focused(page)["id"] == f"t-{target}"


def poll_from_before(page, game_id: int) -> str:
    """A live poll asked with a stamp from before what the page shows (a second poll sent
    before the first one's answer was drawn): the mark set on the game area first, if the
    answer left it there."""
    page.evaluate("""id => new Promise(done => {
        document.getElementById('game').dataset.mark = 'drawn before';
        document.body.addEventListener('htmx:afterOnLoad', () => setTimeout(done, 100),
                                       { once: true });
        htmx.ajax('GET', `/games/${id}/live/?v=from-before`,
                  { source: document.getElementById('live-poll'), target: '#game',
                    swap: 'outerHTML' }); })""", game_id)
    return page.evaluate("() => document.getElementById('game').dataset.mark || ''")


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_a_poll_answered_with_what_the_page_shows_draws_nothing_again(
        browser, live_server, contexts, size):
    """Drawing the same game area again would wipe what the player chose on the board since
    (a source, a target: a selection that is not yet a touched form)."""
    alice, bob = with_password("alice"), with_password("bob")
    game = started_game([alice, bob])
    mine = Seat.objects.get(game=game, user=alice).seat
    play_until(game, None, lambda s: seats_to_act(s) == [1 - mine])
    page = signed_in(browser, live_server.url, "alice", contexts, size, at=f"/games/{game.pk}/")

    assert poll_from_before(page, game.pk) == "drawn before"

    play_until(game, None, lambda s: seats_to_act(s) != [1 - mine])  # bob moved
    assert poll_from_before(page, game.pk) == ""  # the new position is drawn
