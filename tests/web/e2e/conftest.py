"""A real browser (Debian's chromium, driven by Playwright, the `browser` and `contexts`
fixtures of tests/conftest.py) against pytest-django's live_server."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parents[3] / "var" / "screenshots"


def screenshots_wanted() -> bool:
    """Screenshots are for a person to look at: CI, whose clone nobody opens afterwards,
    says CONQUEST_SCREENSHOTS=0 (each full page costs chromium a quarter of a second)."""
    return os.environ.get("CONQUEST_SCREENSHOTS", "1") != "0"


def save_screenshot(target, name: str, *, full_page: bool = True) -> Path:
    """`target` (a page, or a locator for one element) as var/screenshots/`name`.png; the
    whole page, or with `full_page=False` the window only."""
    path = SCREENSHOTS / f"{name}.png"
    if screenshots_wanted():
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        if hasattr(target, "viewport_size"):  # a page
            target.screenshot(path=str(path), full_page=full_page)
        else:
            target.screenshot(path=str(path))
    return path


@pytest.fixture
def screenshot():
    return save_screenshot
