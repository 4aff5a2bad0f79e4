"""Teams on the pages: a team mark on every territory a team holds (none where fog hides the
owner) and the teams in the legend; choosing a team on the lobby's and the game page's join
forms; the creator's seating form on a waiting game's page."""

from __future__ import annotations

import re

import pytest
from django.conf.locale import LANG_INFO
from django.utils.translation import trans_real

from games.models import Game
from lobby import open_games
from tests.games_in_states import open_game
from tests.people import client_for, with_password
from tests.web.support import started_game


def board_teams(page: str) -> dict[str, str | None]:
    """Each territory's team mark on the board (the number in its diamond), or None."""
    marks = {}
    for territory, body in re.findall(r'<g class="count[^"]*" data-for="(\w+)"[^>]*>(.*?)</g>\s*'
                                      r'<text class="name"', page, re.S):
        mark = re.search(r'class="team-mark"[^>]*>.*?<text y="2.2">(\d)</text>', body, re.S)
        marks[territory] = mark.group(1) if mark else None
    return marks


def owners(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-territory="(\w+)" data-owner="([^"]*)"', page))


def test_the_map_and_legend_show_each_territorys_team(db):
    four = [with_password("alice"), with_password("bob"), with_password("carol"), with_password("dave")]
    game = started_game(four, setup="random", team_size=2)
    page = client_for(four[0]).get(f"/games/{game.pk}/").content.decode()
    marks, held = board_teams(page), owners(page)
    assert len(marks) == 42
    for territory, owner in held.items():  # seat s plays in team s % 2
        assert marks[territory] == str(int(owner) % 2 + 1), territory
    legend = page[page.index('class="legend"'):page.index('class="continents"')]
    assert re.search(r'data-team="1">.*Team 1: Red \(alice\), Green \(carol\)', legend)
    assert re.search(r'data-team="2">.*Team 2: Blue \(bob\), Yellow \(dave\)', legend)


def test_a_game_without_teams_has_no_team_marks(db):
    game = started_game([with_password("alice"), with_password("bob"), with_password("carol")], setup="random")
    page = client_for(with_password("alice")).get(f"/games/{game.pk}/").content.decode()
    assert "team-mark" not in page and 'class="teams"' not in page


def test_fog_hides_the_team_of_what_is_out_of_sight(db):
    four = [with_password("alice"), with_password("bob"), with_password("carol"), with_password("dave")]
    # A deal may put alice's team beside every territory (about 1 in 500): a new game is
    # dealt until some territory is out of its sight.
    for _attempt in range(10):
        game = started_game(four, setup="random", team_size=2, fog=True)
        page = client_for(four[0]).get(f"/games/{game.pk}/").content.decode()
        marks, held = board_teams(page), owners(page)
        fogged = [t for t, owner in held.items() if owner == ""]
        if fogged:
            break
    assert fogged, "the test needs a territory out of sight"
    assert all(marks[t] is None for t in fogged)
    assert all(marks[t] == str(int(o) % 2 + 1) for t, o in held.items() if o != "")
    watching = client_for(with_password("eve")).get(f"/games/{game.pk}/").content.decode()
    assert "team-mark" not in watching.split('class="counts"')[1].split("</svg>")[0]


def test_the_lobby_and_the_game_page_offer_the_teams_to_join(db):
    alice, bob = with_password("alice"), with_password("bob")
    game = open_game(alice, 4, "Two by two", rules={"team_size": 2})
    open_games.join_game(game, with_password("carol"))  # seat 1: team 2
    for url in ("/games/", f"/games/{game.pk}/"):
        page = client_for(bob).get(url).content.decode()
        assert '<option value="0">Team 1: alice</option>' in page, url
        assert '<option value="1">Team 2: carol</option>' in page, url
    answer = client_for(bob).post(f"/games/{game.pk}/join/", {"team": "0", "entropy": ""})
    assert answer.status_code == 302
    seats = dict(game.seats.values_list("user__username", "seat"))
    assert seats["bob"] == 2  # team 1 with alice
    page = client_for(with_password("dave")).get("/games/").content.decode()
    assert '<option value="0" disabled>Team 1: alice, bob (full)</option>' in page


def test_a_full_team_is_refused_on_the_page_with_a_message(db):
    game = open_game(with_password("alice"), 4, "Two by two", rules={"team_size": 2})
    open_games.join_game(game, with_password("carol"), team=0)
    client = client_for(with_password("bob"))
    answer = client.post(f"/games/{game.pk}/join/", {"team": "0"}, follow=True)
    assert "Every seat of that team is taken." in answer.content.decode()
    assert game.seats.count() == 2


def test_the_creator_arranges_the_seats_on_the_waiting_page(db):
    alice = with_password("alice")
    game = open_game(alice, 4, "Two by two", rules={"team_size": 2})
    for name in ("bob", "carol"):
        open_games.join_game(game, with_password(name))
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'name="seat-bob"' in page and 'name="seat-carol"' in page
    assert "Seat 3, Green, team 1" in page
    assert 'name="seat-' not in client_for(with_password("bob")).get(f"/games/{game.pk}/").content.decode()
    answer = client_for(alice).post(f"/games/{game.pk}/seats/",
                                    {"seat-bob": "2", "seat-carol": "1"}, follow=True)
    assert "The seats are arranged." in answer.content.decode()
    assert dict(game.seats.values_list("user__username", "seat")) == {
        "alice": 0, "bob": 2, "carol": 1}
    answer = client_for(alice).post(f"/games/{game.pk}/seats/",
                                    {"seat-bob": "1", "seat-carol": "1"}, follow=True)
    assert "The seats cannot be arranged so." in answer.content.decode()
    assert dict(game.seats.values_list("user__username", "seat"))["bob"] == 2
    open_games.join_game(game, with_password("dave"))
    assert Game.objects.get(pk=game.pk).status == Game.ACTIVE


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_the_new_parts_speak_czech_and_polish(db, monkeypatch, language):
    """The team marks and legend, the join and seating forms, the skip links and the board
    as a list: no msgid of theirs falls back to English."""
    missing: set[str] = set()
    gettext = trans_real.DjangoTranslation.gettext

    def recording(self, message):
        if self.language() == language and message and self._catalog.get(message) is None:
            missing.add(message)
        return gettext(self, message)

    monkeypatch.setattr(trans_real.DjangoTranslation, "gettext", recording)
    alice, bob = with_password("alice"), with_password("bob")
    waiting = open_game(alice, 4, "Two by two", rules={"team_size": 2})
    open_games.join_game(waiting, with_password("carol"))
    running = started_game([alice, bob, with_password("dave"), with_password("erin")], setup="random",
                           team_size=2, fog=True)
    for someone, path in ((alice, f"/games/{waiting.pk}/"), (bob, f"/games/{waiting.pk}/"),
                          (bob, "/games/"), (alice, f"/games/{running.pk}/"),
                          (alice, f"/games/{running.pk}/board/"),
                          (alice, f"/games/{running.pk}/board/?at=3")):
        client = client_for(someone)
        client.post("/i18n/setlang/", {"language": language, "next": "/"})
        assert client.get(path).status_code == 200, path
    names = {str(v) for info in LANG_INFO.values() if isinstance(info, dict)
             for key, v in info.items() if key.startswith("name")}
    assert sorted(missing - names) == []
