"""Degenerate community map files imported by a moderator in the admin: each is stored or
refused with the line at fault, and the reading and drawing run before any transaction
begins, so that other players keep writing while a large file is drawn (on SQLite an open
transaction holds the database's one write lock).

The timeout marks bound a wait that never ends (a failure, not a hung suite); no test
measures speed."""

from __future__ import annotations

import threading
from io import BytesIO

import pytest
from django.db import connection

from engine.maps import community, formats
from games.models import ImportedMap, MapVersion
from tests.engine.test_community_limits import DRAWN, REFUSED, domination
from tests.moderation.support import started_game
from tests.people import client_for, moderator, token_client_for, user

pytestmark = pytest.mark.django_db
ADD = "/admin/games/importedmap/add/"


def upload(text: str, name: str = "degenerate.map") -> BytesIO:
    file = BytesIO(text.encode())
    file.name = name
    return file


@pytest.mark.timeout(120, method="thread")
@pytest.mark.parametrize("text", DRAWN.values(), ids=DRAWN.keys())
def test_a_degenerate_file_is_imported_in_the_admin(text):
    page = client_for(moderator("maud"))
    answer = page.post(ADD, {"file": upload(text), "map_id": "degenerate"})
    assert answer.status_code == 302, answer.content.decode()[-2000:]
    row = ImportedMap.objects.get(pk="degenerate")
    drawing = row.data["drawing"]
    assert set(drawing["labels"]) == set(drawing["shapes"]) == {
        t["id"] for t in row.data["territories"]}


@pytest.mark.timeout(120, method="thread")
@pytest.mark.parametrize(("kind", "text", "start", "words"), REFUSED,
                         ids=[case[0] for case in REFUSED])
def test_a_file_past_a_limit_is_refused_in_the_admin_with_its_line(kind, text, start, words):
    page = client_for(moderator("maud"))
    answer = page.post(ADD, {"file": upload(text), "map_id": "degenerate"})
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith(start))
    said = answer.content.decode().replace("&#x27;", "'")
    assert answer.status_code == 200 and f"line {line}: " in said and words in said
    assert not ImportedMap.objects.exists() and not MapVersion.objects.exists()


@pytest.mark.timeout(120, method="thread")
@pytest.mark.django_db(transaction=True)
def test_players_write_while_a_moderator_imports_a_large_file(monkeypatch):
    """The import is held in the middle of its drawing until a player has posted a chat
    line: had the admin opened its transaction first, the player would wait for its lock
    (20 s on SQLite) and be answered 503."""
    alice, bob = user("alice"), user("bob")
    game = started_game([alice, bob])
    drawing, written = threading.Event(), threading.Event()
    draw = community.draw

    def held_draw(*args, **kwargs):
        drawing.set()
        written.wait(60)
        return draw(*args, **kwargs)

    monkeypatch.setattr(community, "draw", held_draw)
    large = domination([(5, 5)] * formats.MAX_TERRITORIES, continents=6)
    page, player = client_for(moderator("maud")), token_client_for(alice)
    outcome = {}

    def admin_import():
        try:
            outcome["answer"] = page.post(ADD, {"file": upload(large), "map_id": "large"})
        finally:
            connection.close()

    importing = threading.Thread(target=admin_import)
    importing.start()
    try:
        assert drawing.wait(60)
        answer = player.post(f"/api/v1/games/{game.pk}/chat/", {"text": "still here"},
                                 format="json")
        assert answer.status_code == 201, answer.content
    finally:
        written.set()
        importing.join(60)
    assert not importing.is_alive()
    assert outcome["answer"].status_code == 302
    assert len(ImportedMap.objects.get(pk="large").data["territories"]) == \
        formats.MAX_TERRITORIES


def test_a_field_at_fault_stores_nothing():
    """An id too long is the form's fault: the file, read with the default id, is never
    stored under it."""
    page = client_for(moderator("maud"))
    answer = page.post(ADD, {"file": upload(DRAWN["collinear"]), "map_id": "x" * 49})
    assert answer.status_code == 200 and "at most 48 characters" in answer.content.decode()
    assert not ImportedMap.objects.exists()
