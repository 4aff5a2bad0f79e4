"""Players in a real browser: a browser context they are signed in to (their accounts:
tests/people.py)."""

from __future__ import annotations

import time

from django.conf import settings
from django.test import Client

from accounts import tokens
from tests.people import PASSWORD, places_the_neutral_by_hand, with_password
from tests.play import play_until
from tests.web.support import started_game

# The screen sizes the browser tests are drawn at, width by height.
SIZES = {"laptop": (1366, 900), "phone": (390, 844)}
# ms: the longest of the pages' polls (the game page's live poll comes every 4 s, an open
# conversation's every 8 s).
POLL = 8_000


def sign_in(context, base: str, user) -> Client:
    """Hand the browser context `user`'s session as its cookie (the test client that made
    it is returned: its logout() ends the session). The session is made as
    signing in makes one (Django's login() and its signals, through the test client):
    a new context costs chromium a login page, a form's post and a lobby less (about 0.5 s
    of CPU each). `signed_in(form=True)` signs in through the login form itself."""
    client = Client()
    client.force_login(user)
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "url": base}])
    return client


def signed_in(browser, base: str, name: str, contexts: list,
              size: tuple[int, int] | None = None, javascript: bool = True,
              at: str = "/games/", form: bool = False, clock: bool = False):
    """A page of a new browser context (closed by `contexts`) where `name` is signed in,
    open at `at` (the lobby unless told); `size` is the viewport, width by height.
    `form=True` signs in with the login form, as a player with a password would, and lands
    on the lobby. `clock=True` gives the pages Playwright's clock, which runs as time does
    until `after_polls` skips it ahead."""
    user = with_password(name)
    options = {"java_script_enabled": javascript}
    if size is not None:
        options["viewport"] = {"width": size[0], "height": size[1]}
    context = browser.new_context(**options)
    contexts.append(context)
    if clock:
        context.clock.install()
    page = context.new_page()
    if form:
        page.goto(f"{base}/accounts/login/?next=/games/")
        page.fill("#id_username", name)
        page.fill("#id_password", PASSWORD)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(f"{base}/games/")
        return page
    sign_in(context, base, user)
    page.goto(f"{base}{at}")
    return page


def at_the_neutral_placement(browser, base: str, contexts: list, size: tuple[int, int],
                             program: bool = False):
    """A two-player game with the neutral played on to its neutral placement, opened in the
    browser for the player who places it: (page, game, placer). The players chose to place
    the neutral's armies by hand; `program`: they never chose, but hold API tokens (to whom
    the half falls by hand until they choose, and who are asked once)."""
    alice, bob = with_password("alice"), with_password("bob")
    for someone in (alice, bob):
        if program:
            tokens.issue(someone)
        else:
            places_the_neutral_by_hand(someone.pk)
    game = started_game([alice, bob], setup="random", neutral=True)
    state = play_until(game, [alice, bob], lambda s: s.phase == "neutral_place")
    placer = [alice, bob][state.current]
    page = signed_in(browser, base, placer.username, contexts, size, at=f"/games/{game.pk}/")
    return page, game, placer



def after_polls(page, check, seconds: float = 15) -> bool:
    """Whether `check()` comes true within `seconds` of what `page`'s own polls bring: its
    clock (`signed_in(clock=True)`, or a context's `clock.install()`) skips ahead to the
    next poll's time every second instead of waiting up to 4 s (8 s) for it. The page's
    timers, its polls' requests and what they swap in are its own."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            return False
        page.clock.fast_forward(POLL)
        for _ in range(20):
            page.wait_for_timeout(50)
            if check():
                return True
    return True


def timers_run(page) -> None:
    """Waits until what the page's scripts left for "soon" (a `setTimeout(..., 0)`, as the
    odds' and borders' texts are written after a click or a key) has run, and the live
    region has heard it: a timer queued now fires after those, and the region's observer
    runs as each of them ends. Under load the browser may otherwise answer the next command
    first, and a text the page writes later lands after what the test reads."""
    page.evaluate("() => new Promise(done => setTimeout(() => setTimeout(done, 0), 0))")
