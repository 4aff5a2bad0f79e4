"""A form posted after the game moved on (409): what the player typed stays in the fields
while the same decision is still due, and is dropped once it is not."""

from __future__ import annotations

import re

from games import service
from games.store.states import load_state
from tests.people import client_for
from tests.play import play_until
from tests.web.support import post_play, started_game


def reinforcing(users):
    game = started_game(users, setup="random")
    state = play_until(game, users, lambda s: s.phase == "reinforce" and s.reinforcements >= 3
                       and not s.trade_owed(s.current))
    return game, state


def field_value(page: str, name: str) -> str:
    tag = re.search(rf'<input [^>]*name="{name}"[^>]*>', page).group(0)
    return re.search(r'value="([^"]*)"', tag).group(1)


def test_a_stale_placement_keeps_what_the_player_typed(alice, bob):
    game, state = reinforcing([alice, bob])
    seat = state.current
    player = [alice, bob][seat]
    own = sorted(t for t, o in state.owner.items() if o == seat)
    seen = state.version
    # The same player placed one army from another tab meanwhile: their turn goes on.
    service.submit(service.player(player), game, {"type": "place", "placements": {own[0]: 1}}, seen)

    answer = post_play(client_for(player), game, {"type": "place", f"place-{own[1]}": "2",
                                                  f"place-{own[2]}": "1"}, version=seen)

    page = answer.content.decode()
    assert answer.status_code == 409
    assert "The game moved on while you were deciding" in page
    assert "What you filled in is kept." in page
    assert field_value(page, f"place-{own[1]}") == "2"
    assert field_value(page, f"place-{own[2]}") == "1"
    assert field_value(page, f"place-{own[0]}") == ""
    assert load_state(game).version == seen + 1  # nothing else was placed


def test_a_form_for_a_decision_no_longer_due_is_not_kept(alice, bob):
    game, state = reinforcing([alice, bob])
    seat = state.current
    player = [alice, bob][seat]
    own = sorted(t for t, o in state.owner.items() if o == seat)
    seen = state.version
    later = play_until(game, [alice, bob], lambda s: s.turn > state.turn + 1
                       and s.phase == "reinforce" and s.current == seat
                       and not s.trade_owed(seat))
    still_own = sorted(t for t, o in later.owner.items() if o == seat)

    answer = post_play(client_for(player), game, {"type": "place", f"place-{still_own[0]}": "3"},
                       version=seen)

    page = answer.content.decode()
    assert answer.status_code == 409
    assert "What you filled in is kept." not in page
    assert field_value(page, f"place-{still_own[0]}") == ""
    assert own  # the first form had territories to fill in
