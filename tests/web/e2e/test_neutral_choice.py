"""The neutral's armies in a real browser on a laptop (1366×900) and a phone (390×844): the
placer reads they are the neutral's, follows the link to the profile, chooses to have them
placed automatically and saves it; nothing needs sideways scrolling."""

from __future__ import annotations

import pytest

from accounts.models import Preferences
from tests.web.e2e.support import SIZES, at_the_neutral_placement

pytestmark = pytest.mark.django_db(transaction=True)

@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_placer_is_told_and_chooses_the_automatic_placement(browser, live_server, contexts,
                                                                screenshot, size):
    page, game, placer = at_the_neutral_placement(browser, live_server.url, contexts, size)
    note = page.locator("#neutral-not-yours")
    assert "These armies are not yours" in note.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    screenshot(page, f"neutral-placer-{size[0]}")

    note.locator("a").click()
    page.wait_for_url(f"{live_server.url}/accounts/profile/*")
    choice = page.locator("input[name=neutral_placement][value=borders]")
    assert choice.is_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
    choice.check()
    screenshot(page, f"neutral-profile-{size[0]}")
    page.locator("main form button.primary", has_text="Save").first.click()
    page.wait_for_load_state()
    assert Preferences.objects.get(user=placer).neutral_placement == "borders"
