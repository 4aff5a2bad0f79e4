"""The classic map's page in a real browser at a laptop's and a phone's size: its 42
territories drawn by continent with legible names, nothing wider than the screen.
Screenshots go to var/screenshots/ (map-classic-*)."""

from __future__ import annotations

import pytest

from tests.web.e2e.test_phone_pages import SIZES, page_for, sideways

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("size", SIZES)
def test_the_classic_map_page(browser, live_server, contexts, screenshot, size):
    page = page_for(browser, live_server, None, size, contexts)
    page.goto(f"{live_server.url}/maps/classic/")
    assert page.locator("svg.map-drawing [data-territory]").count() == 42
    heights = page.evaluate("""() => Array.from(document.querySelectorAll('svg.map-drawing .name'))
        .map(t => t.getBoundingClientRect().height)""")
    assert min(heights) >= 8, min(heights)
    assert sideways(page) <= 1
    screenshot(page, f"map-classic-{SIZES[size][0]}")
    assert page.problems == []
