"""A newcomer's words on the lobby, an open game's page and a finished game's page, in a
real browser at a laptop's and a phone's size, in English, Czech and Polish: what shows
says it in players' words (no "entropy", "seat", "SHA-256", "HMAC", "±… at 95 %"); the
fair-dice details are folded (`<details>`), there all the same, and the precise words are
one click away in the documentation's glossary. `inner_text` reads what is drawn: the
inside of a closed `<details>` is not."""

from __future__ import annotations

import re

import pytest

from accounts.models import Preferences
from bots import outlook
from ratings import analysis
from tests.games_in_states import open_game
from tests.people import with_password
from tests.ratings.support import finished_game
from tests.web.e2e.support import SIZES, signed_in

pytestmark = pytest.mark.django_db(transaction=True)

# What a newcomer would have to look up, as each language says it. A margin ("±14.4") is
# jargon; a signed zero ("±0" rating change, "±0.0" armies of dice luck: lib.numbers.signed)
# is how the page writes nothing gained or lost, and shows whenever the dice came out even.
MARGIN = r"±(?!0(?:[.,]0+)?(?![.,]?\d))"
JARGON = {
    "en": re.compile(rf"(?i)entropy|\bseat(s|ed)?\b|SHA-256|HMAC|{MARGIN}|95\s?%|share of the dice"),
    "cs": re.compile(rf"(?i)entropi|SHA-256|HMAC|{MARGIN}|95\s?%|podíl na kostkách"),
    "pl": re.compile(rf"(?i)entropi|SHA-256|HMAC|{MARGIN}|95\s?%|udział w kostkach"),
}
GLOSSARY = re.compile(r"^/docs/glossary/(#[\w-]+)?$")


def speak(user, language: str) -> None:
    Preferences.objects.update_or_create(user=user, defaults={"language": language})


def shown(page) -> str:
    return page.locator("main").inner_text()


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_lobby_and_joining_say_it_in_players_words(browser, live_server, contexts, size):
    alice, bob = with_password("alice"), with_password("bob")
    game = open_game(bob, 3, "Bob's table")
    for language in JARGON:
        speak(alice, language)
        page = signed_in(browser, live_server.url, "alice", contexts, size)
        assert page.locator("html").get_attribute("lang") == language
        words = shown(page)
        assert not JARGON[language].search(words), (language, JARGON[language].search(words))
        assert "{#" not in words and "#}" not in words
        fair = page.locator("#create-fair-dice")
        field = fair.locator("input[name=entropy]")
        assert not field.is_visible()
        assert re.fullmatch(r"[0-9a-f]{32}", field.input_value())  # filled in all the same
        fair.locator("summary").click()
        assert field.is_visible()
        assert "SHA-256" in fair.inner_text()  # the precise words, unfolded
        assert GLOSSARY.match(fair.locator("a.glossary-link").get_attribute("href"))

        page.goto(f"{live_server.url}/games/{game.pk}/")
        words = shown(page)
        assert not JARGON[language].search(words), (language, JARGON[language].search(words))
        join = page.locator(f'form[action="/games/{game.pk}/join/"]')
        join.locator("details.entropy summary").click()
        assert GLOSSARY.match(join.locator("a.glossary-link").get_attribute("href"))


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_the_finished_page_folds_the_proof_and_says_the_margin_plainly(
        browser, live_server, contexts, settings, monkeypatch, size):
    settings.CONQUEST_ANALYSIS_PLAYOUTS = 8
    monkeypatch.setattr(outlook, "PLAYOUT_DECISIONS", 300)
    players = [with_password(name) for name in ("alice", "bob", "dave")]
    game = finished_game(players, leave=[players[2], players[1]], turns=5)
    while analysis.do_analyse(game.pk):
        pass
    for language in JARGON:
        speak(players[0], language)
        page = signed_in(browser, live_server.url, "alice", contexts, size,
                         at=f"/games/{game.pk}/")
        assert page.locator("#story .story-method").count() == 1
        words = shown(page)
        assert not JARGON[language].search(words), (language, JARGON[language].search(words))
        assert page.locator(".proof .verified").is_visible()
        proof = page.locator("#proof-details")
        proof.locator("summary").click()
        assert "SHA-256" in proof.inner_text()  # the precise proof, unfolded
        for link in page.locator("a.glossary-link").all():
            assert GLOSSARY.match(link.get_attribute("href"))
        assert page.locator("#story a.glossary-link").count() == 1
