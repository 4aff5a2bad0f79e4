"""The one-time question about the neutral's armies in a real browser on a laptop
(1366×900) and a phone (390×844): the placer sees it above the placement, answers
"automatically from now on" with one click, and the waiting half is placed."""

from __future__ import annotations

import pytest

from accounts.models import Preferences
from games.store.states import load_state
from tests.web.e2e.support import SIZES, at_the_neutral_placement

pytestmark = pytest.mark.django_db(transaction=True)

@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_placer_answers_the_question_with_one_click(browser, live_server, contexts,
                                                        screenshot, size):
    page, game, placer = at_the_neutral_placement(browser, live_server.url, contexts, size,
                                                  program=True)
    question = page.locator("#neutral-question")
    assert "automatically from now on?" in question.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    screenshot(page, f"neutral-question-{size[0]}")

    question.get_by_role("button", name="Automatically from now on").click()
    page.wait_for_url(f"{live_server.url}/games/{game.pk}/")
    page.wait_for_load_state()

    assert Preferences.objects.get(user=placer).neutral_placement == "borders"
    assert load_state(game).phase != "neutral_place"
    assert page.locator("#neutral-question").count() == 0
