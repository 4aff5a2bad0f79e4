"""A form handed in after the game moved on, in a real browser at a laptop's and a phone's
size: the page says the game moved on and the numbers the player typed are still in the
fields (the same decision is still due). Screenshots go to /tmp/shots/."""

from __future__ import annotations

import pytest

from games import service
from games.store.states import load_state
from tests.people import places_the_neutral_by_hand, with_password
from tests.play import play_until
from tests.web.e2e.test_board import SIZES, shoot, signed_in_page
from tests.web.support import started_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", SIZES)
def test_a_stale_placement_keeps_the_typed_numbers(browser, live_server, contexts, size):
    two = [with_password("alice"), with_password("bob")]
    for someone in two:  # the rulebooks' way: the placement this test plays is the mover's
        places_the_neutral_by_hand(someone.pk)
    game = started_game(two, setup="random")
    state = play_until(game, two, lambda s: s.phase == "reinforce" and s.reinforcements >= 3
                       and not s.trade_owed(s.current))
    player = two[state.current]
    own = sorted(t for t, o in state.owner.items() if o == state.current)
    page = signed_in_page(browser, live_server, player, size, contexts)
    page.goto(f"{live_server.url}/games/{game.pk}/")
    page.fill(f"#place-{own[1]}", "2")
    page.fill(f"#place-{own[2]}", "1")
    # Meanwhile the same player placed one army from another tab.
    service.submit(service.player(player), game, {"type": "place", "placements": {own[0]: 1}},
                 state.version)

    page.click("#form-place button[type=submit]")

    page.wait_for_selector(".message.conflict", timeout=15_000)
    assert "What you filled in is kept." in page.inner_text(".message.conflict")
    assert page.input_value(f"#place-{own[1]}") == "2"
    assert page.input_value(f"#place-{own[2]}") == "1"
    assert page.input_value(f"#place-{own[0]}") == ""
    shoot(page, f"stale-form-{size}")
    # Handing it in again now places what was typed.
    page.click("#form-place button[type=submit]")
    page.wait_for_function(f"() => document.querySelector('#game').getAttribute('data-version') == '{state.version + 2}'",
                           timeout=15_000)
    after = load_state(game)
    assert after.armies[own[1]] == state.armies[own[1]] + 2
    assert page.problems == []
