"""No template shows its own comments: Django's `{# … #}` holds on one line only, so a
comment spread over several lines is printed on the page as text (the lobby's create form
once showed "{# The create form's fields …" in every language). Longer notes go in
`{% comment %}`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db


def templates() -> list[Path]:
    folders = [Path(folder) for entry in settings.TEMPLATES for folder in entry["DIRS"]]
    return sorted(path for folder in folders for path in folder.rglob("*") if path.is_file())


def test_it_finds_the_templates():
    names = {path.name for path in templates()}
    assert {"base.html", "lobby.html", "_create_fields.html"} <= names


@pytest.mark.parametrize("path", templates(), ids=lambda path: path.name)
def test_no_comment_runs_over_a_line(path):
    for number, line in enumerate(path.read_text().splitlines(), 1):
        for opened in re.finditer(r"\{#", line):
            assert "#}" in line[opened.end():], f"{path}:{number}: a {{# #}} comment must end " \
                "on its own line (use {% comment %} for more)"


@pytest.mark.parametrize("language", ["en", "cs", "pl"])
def test_the_lobby_shows_no_template_text(as_alice, language):
    as_alice.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = as_alice.get("/games/").content.decode()
    assert 'id="create-game"' in page
    assert f'lang="{language}"' in page
    for mark in ("{#", "#}", "{%", "%}", "{{", "}}"):
        assert mark not in _text(page), mark


def _text(html: str) -> str:
    """What the page shows: its markup and scripts left out."""
    html = re.sub(r"<script.*?</script>", "", html, flags=re.S)
    return re.sub(r"<[^>]+>", "", html)
