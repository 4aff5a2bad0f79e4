"""The lobby keeps its create form's fields rendered (web/views/lobby.py _create_form_key):
each viewer still sees their own time zone, chosen map, language and the maps offered now,
and a form sent back with its errors is rendered afresh."""

from __future__ import annotations

import re

import pytest
from django.core.cache import caches

from accounts.models import preferences_for
from tests import people
from tests.web.map_support import MAP_ID

pytestmark = pytest.mark.django_db


def chosen_zone(html: str) -> str:
    select = re.search(r'<select name="clock_time_zone".*?</select>', html, re.S)[0]
    return re.search(r'<option value="([^"]+)" selected>', select)[1]


def with_zone(user, zone: str):
    preferences = preferences_for(user)
    preferences.time_zone = zone
    preferences.save()
    return people.client_for(user)


def test_the_fields_are_kept_and_each_viewer_sees_their_own_time_zone(alice, bob):
    first = with_zone(alice, "Europe/Prague").get("/games/").content.decode()
    kept = len(caches["fragments"]._cache)
    again = people.client_for(alice).get("/games/").content.decode()
    other = with_zone(bob, "America/Chicago").get("/games/").content.decode()

    assert kept == 1 and len(caches["fragments"]._cache) == 2  # one more: Chicago's
    assert chosen_zone(first) == chosen_zone(again) == "Europe/Prague"
    assert chosen_zone(other) == "America/Chicago"


def test_a_map_chosen_in_the_query_is_the_one_checked(as_alice, islands):
    as_alice.get("/games/")
    html = as_alice.get(f"/games/?map={MAP_ID}").content.decode()

    assert re.search(rf'value="{MAP_ID}" id="id_map_\d+" checked', html)
    assert not re.search(r'value="classic" id="id_map_\d+" checked', html)


def test_a_map_offered_after_the_fields_were_kept_is_offered(as_alice, monkeypatch):
    from tests.web.map_support import install

    assert f'value="{MAP_ID}"' not in as_alice.get("/games/").content.decode()
    install(monkeypatch)

    assert f'value="{MAP_ID}"' in as_alice.get("/games/").content.decode()


def test_each_language_has_its_own_fields(as_alice):
    english = as_alice.get("/games/").content.decode()
    as_alice.post("/i18n/setlang/", {"language": "cs", "next": "/"})
    czech = as_alice.get("/games/").content.decode()

    assert "Name of the game" in english and "Name of the game" not in czech


def test_a_form_sent_back_shows_its_own_values_and_errors(as_alice):
    as_alice.get("/games/")
    answer = as_alice.post("/games/new/", {"name": "Mine", "players": "9", "preset": "classic",
                                           "deadline_seconds": "86400",
                                           "clock_time_zone": "Asia/Tokyo"})
    html = answer.content.decode()

    assert answer.status_code == 400
    assert 'value="Mine"' in html and chosen_zone(html) == "Asia/Tokyo"
    assert 'class="error"' in html


def test_nothing_of_the_viewer_s_own_is_kept(alice, bob):
    """The seed hash a creator is shown and the form's CSRF token stay outside the kept
    fields: each viewer still gets their own."""
    alices = people.client_for(alice).get("/games/").content.decode()
    bobs = people.client_for(bob).get("/games/").content.decode()

    def hash_shown(html):
        return re.search(r'<code class="next-seed-hash">([0-9a-f]+)</code>', html)[1]

    assert hash_shown(alices) != hash_shown(bobs)
    kept = next(iter(caches["fragments"]._cache.values()))
    assert b"csrfmiddlewaretoken" not in kept and hash_shown(alices).encode() not in kept
