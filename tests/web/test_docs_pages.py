"""GET /docs/…: the documentation site as `make docs` builds it (site/), so that the pages'
glossary links land on it; where it is not built, a 404."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(tmp_path, settings):
    (tmp_path / "glossary").mkdir()
    (tmp_path / "glossary" / "index.html").write_text("<h1 id='entropy'>Entropy</h1>")
    (tmp_path / "index.html").write_text("<h1>Conquest</h1>")
    settings.CONQUEST_DOCS_DIR = tmp_path
    return tmp_path


def test_it_serves_the_glossary_a_folder_at_a_time(built):
    answer = Client().get("/docs/glossary/")
    assert answer.status_code == 200
    assert b"Entropy" in b"".join(answer.streaming_content)
    assert Client().get("/docs/").status_code == 200


def test_it_answers_404_for_what_is_not_there(built):
    assert Client().get("/docs/no-such-page/").status_code == 404
    for outside in ("/docs/../pyproject.toml", "/docs/%2e%2e/pyproject.toml",
                    "/docs/glossary/../../pyproject.toml"):
        assert Client().get(outside).status_code in (400, 404), outside  # never served


def test_it_answers_404_where_the_site_is_not_built(settings, tmp_path):
    settings.CONQUEST_DOCS_DIR = tmp_path / "site"
    assert Client().get("/docs/glossary/").status_code == 404
