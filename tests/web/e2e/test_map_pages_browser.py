"""The maps' pages in a real browser at a laptop's and a phone's size: every shipped map
drawn by continent with names legible (the world's 175 as well as the classic 42), the
drawing scrolled in its own box when it is wider than the screen, never the page.
Screenshots go to var/screenshots/ (map-<id>-*)."""

from __future__ import annotations

import pytest

from tests.web.e2e.test_phone_pages import SIZES, page_for, sideways

pytestmark = pytest.mark.django_db(transaction=True)

SHIPPED = {"classic": 42, "europe": 48, "usa": 50, "world": 175, "islands": 12}
NAME_HEIGHTS = """() => Array.from(document.querySelectorAll('svg.map-drawing .name'))
    .map(t => t.getBoundingClientRect().height)"""


@pytest.mark.parametrize("size", SIZES)
def test_the_classic_map_page(browser, live_server, contexts, screenshot, size):
    page = page_for(browser, live_server, None, size, contexts)
    page.goto(f"{live_server.url}/maps/classic/")
    assert page.locator("svg.map-drawing [data-territory]").count() == 42
    heights = page.evaluate(NAME_HEIGHTS)
    assert min(heights) >= 8, min(heights)
    assert sideways(page) <= 1
    screenshot(page, f"map-classic-{SIZES[size][0]}")
    assert page.problems == []


@pytest.mark.parametrize("size", SIZES)
def test_every_shipped_map_page_has_names_a_player_can_read(browser, live_server, contexts,
                                                           screenshot, size):
    """The world's names were 4 to 5 px at either size (its drawing squeezed to the
    screen's width, with no zoom on this page): each map's drawing is now at least as wide
    as its names need, scrolled in its box, which fits the window both ways."""
    page = page_for(browser, live_server, None, size, contexts)
    width, height = SIZES[size]
    for map_id, territories in SHIPPED.items():
        page.goto(f"{live_server.url}/maps/{map_id}/")
        assert page.locator("svg.map-drawing [data-territory]").count() == territories
        heights = page.evaluate(NAME_HEIGHTS)
        assert min(heights) >= 8, (map_id, min(heights))
        assert sideways(page) <= 1, map_id
        box = page.locator(".map-board").bounding_box()
        assert box["width"] <= width and box["height"] <= height, (map_id, box)
        # the drawing keeps its proportions, and all of it can be scrolled to
        drawn = page.locator("svg.map-drawing").bounding_box()
        ratio = page.evaluate("""() => { const v = document.querySelector('svg.map-drawing')
            .viewBox.baseVal; return v.width / v.height; }""")
        assert abs(drawn["width"] / drawn["height"] - ratio) < 0.02, (map_id, drawn)
        reach = page.evaluate("""() => { const b = document.querySelector('.map-board');
            b.scrollTo(b.scrollWidth, b.scrollHeight);
            const d = document.querySelector('svg.map-drawing').getBoundingClientRect();
            const r = b.getBoundingClientRect();
            return [d.right - r.right, d.bottom - r.bottom]; }""")
        assert max(reach) <= 20, (map_id, reach)  # the scroll bars' room at most
        screenshot(page, f"map-{map_id}-{width}")
    assert page.problems == []
