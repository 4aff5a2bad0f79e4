"""The lobby's filters of open games: query parameters (a bookmarkable link, no script
needed), the same values as the API's; a bad value is said and filters nothing."""

from __future__ import annotations

from django.test import Client

from tests.games_in_states import open_game


def test_the_lobby_filters_its_open_games_by_query_parameters(alice):
    open_game(alice, 2, "Quick duel", rules={"fog": True}, deadline_seconds=600)
    open_game(alice, 4, "Mission table", rules={"objective": "missions"})
    open_game(alice, 4, "Friendly four", rated=False)
    open_game(alice, 4, "Secret four", private=True)

    def shown(query):
        page = Client().get(f"/games/?{query}")
        assert page.status_code == 200
        text = page.content.decode()
        return {n for n in ("Quick duel", "Mission table", "Friendly four", "Secret four")
                if n in text}

    assert shown("") == {"Quick duel", "Mission table", "Friendly four"}
    assert shown("seats=4") == {"Mission table", "Friendly four"}
    assert shown("seats=4&rated=yes") == {"Mission table"}
    assert shown("fog=yes&deadline=fast") == {"Quick duel"}
    assert shown("objective=missions") == {"Mission table"}
    assert shown("teams=yes") == set()
    page = Client().get("/games/?seats=4&rated=no").content.decode()
    # The form keeps the choice, and says when nothing matches
    assert '<option value="4" selected>' in page and '<option value="no" selected>' in page
    assert "Clear the filters" in page
    assert "No open game matches these filters." in Client().get("/games/?teams=yes") \
        .content.decode()


def test_a_bad_filter_value_is_said_and_filters_nothing(alice):
    open_game(alice, 2, "Quick duel")
    open_game(alice, 6, "Big table")
    page = Client().get("/games/?seats=9&fog=maybe")
    assert page.status_code == 400
    text = page.content.decode()
    assert "This filter has no such choice" in text
    assert "Quick duel" in text and "Big table" in text
