"""A real browser (Debian's chromium, driven by Playwright, the `browser` and `contexts`
fixtures of tests/conftest.py) against pytest-django's live_server."""

from __future__ import annotations

from pathlib import Path

import pytest

SCREENSHOTS = Path(__file__).resolve().parents[3] / "var" / "screenshots"


@pytest.fixture
def screenshot():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def take(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path
    take.folder = SCREENSHOTS  # for a screenshot of the window only (page.screenshot)
    return take
