"""A finished game's charts and win chance in a real browser, on a laptop (1366×900) and a
phone (390×844), in English and Czech: drawn, inside the screen, numbered turning points
told in words, the numbers as a table. Screenshots: var/screenshots/story-*."""

from __future__ import annotations

import pytest

from accounts.models import Preferences
from bots import outlook
from ratings import analysis
from tests.people import with_password
from tests.ratings.support import finished_game
from tests.web.e2e.conftest import save_screenshot
from tests.web.e2e.support import signed_in
from tests.web.e2e.test_lobby_sizes import SIZES

pytestmark = pytest.mark.django_db(transaction=True)

OVERFLOW = "document.scrollingElement.scrollWidth - document.documentElement.clientWidth"
WORDS = {"en": ("The game in charts", "Win chance", "Turn "),
         "cs": ("Hra v grafech", "Šance na výhru", "Tah ")}


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_finished_games_charts_and_win_chance(browser, live_server, contexts, settings,
                                                   monkeypatch, size):
    """One finished game and its analysis (the costly part) serve both languages."""
    settings.CONQUEST_ANALYSIS_PLAYOUTS = 8
    monkeypatch.setattr(outlook, "PLAYOUT_DECISIONS", 300)
    players = [with_password(name) for name in ("alice", "bob", "dave")]
    game = finished_game(players, leave=[players[2], players[1]], turns=5)
    while analysis.do_analyse(game.pk):
        pass
    row = analysis.done(game.pk)

    for language in WORDS:
        Preferences.objects.update_or_create(user=players[0], defaults={"language": language})
        page = signed_in(browser, live_server.url, "alice", contexts, size,
                         at=f"/games/{game.pk}/#story")
        story = page.locator("#story")
        title, win, turn = WORDS[language]

        assert story.locator("h2").inner_text() == title, language
        assert story.locator("h3").first.inner_text() == win
        for chart in ("win-chart", "territories-chart", "armies-chart", "income-chart"):
            box = story.locator(f"svg.{chart}").bounding_box()
            assert box is not None and box["width"] > 250, chart
            assert box["x"] >= 0 and box["x"] + box["width"] <= size[0] + 1, chart
        assert story.locator("svg.win-chart .chart-mark").count() == len(row.turning_points)
        told = story.locator(".turning-points li").all_inner_texts()
        assert len(told) == len(row.turning_points)
        assert all(line.startswith(turn) and "→" in line for line in told)
        # The labels inside the charts are never localised; the method's margin is.
        labels = story.locator("svg .chart-label").all_text_contents()
        assert "100 %" in labels and all("," not in label for label in labels)
        margin = f"{outlook.margin(row.playouts):.1f}"
        assert (margin if language == "en" else margin.replace(".", ",")) in story.inner_text()
        story.locator(".story-table summary").first.click()
        assert story.locator(".story-table table").first.is_visible()
        assert page.evaluate(OVERFLOW) <= 1
        save_screenshot(story, f"story-{size[0]}-{language}")
        # On a phone the map stays at the top of the screen: the chart is read under it.
        page.evaluate(
            "document.querySelector('#story .win-chart').scrollIntoView({block: 'end'})")
        save_screenshot(page, f"story-screen-{size[0]}-{language}", full_page=False)
