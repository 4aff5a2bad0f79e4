"""Every page and every mail in Czech and Polish: no SVG number written with a decimal comma
(SVG numbers are never localised), and no string shown that the catalogue lacks.

The pages and mails are those of a season: an active game, a finished rated game (the player
page's rating and luck charts), a tournament with its first round drawn, the notification
list, the profile, sign-in and sign-up; and a mail of every kind the season wrote.
"""

from __future__ import annotations

import re

import pytest
from django.conf.locale import LANG_INFO
from django.test import Client
from django.utils.translation import trans_real

from accounts.models import Preferences
from conversations.messaging import send_message
from moderation.chat import post_message
from notifications import mail as mails
from notifications.models import Notification
from ratings.tasks import record_results
from tests.people import api_client_for
from tests.ratings.support import finished_game, players, started_game
from tests.tournaments.support import close_signup, create, tables
from tournaments.models import Tournament

LANGUAGES = ["cs", "pl"]

# Msgids new since the catalogues were last made, while they wait for `make messages` and a
# translator (empty: every msgid is translated; an entry translated by then fails the test
# below, so the list never goes stale).
PENDING_FOR_LOCALE: set[str] = set()

LANGUAGE_NAMES = {str(value) for info in LANG_INFO.values() if isinstance(info, dict)
                  for key, value in info.items() if key.startswith("name")}

# Attributes that hold one number, and those that hold pairs "x,y" separated by spaces.
_ONE_NUMBER = ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "rx", "ry", "width",
               "height", "stroke-width", "font-size")
_NUMBER = r"-?\d+(?:\.\d+)?"


def svg_number_problems(html: str) -> list[str]:
    """Each SVG attribute whose numbers are written the way no SVG reader takes them."""
    problems = []
    for svg in re.findall(r"<svg\b.*?</svg>", html, re.S):
        for name, value in re.findall(r'\s([a-zA-Z-]+)="([^"]*)"', svg):
            if name in _ONE_NUMBER and not re.fullmatch(rf"{_NUMBER}(?:%|px)?", value):
                problems.append(f'{name}="{value}"')
            elif name == "points" and not all(re.fullmatch(rf"{_NUMBER},{_NUMBER}", pair)
                                              for pair in value.split()):
                problems.append(f'{name}="{value[:60]}"')
            elif name in ("viewBox", "transform") and re.search(r"\d,\d", value):
                problems.append(f'{name}="{value}"')
    return problems


@pytest.fixture
def untranslated(monkeypatch):
    """The msgids looked up in Czech or Polish and missing from the catalogue (a missing
    one falls back to English on the page)."""
    missing: set[str] = set()
    gettext, ngettext = trans_real.DjangoTranslation.gettext, trans_real.DjangoTranslation.ngettext

    def recording_gettext(self, message):
        if self.language() in LANGUAGES and message and self._catalog.get(message) is None:
            missing.add(message)
        return gettext(self, message)

    def recording_ngettext(self, singular, plural, n):
        if self.language() in LANGUAGES:
            try:
                self._catalog.plural(singular, n)
            except KeyError:
                missing.add(singular)
        return ngettext(self, singular, plural, n)

    monkeypatch.setattr(trans_real.DjangoTranslation, "gettext", recording_gettext)
    monkeypatch.setattr(trans_real.DjangoTranslation, "ngettext", recording_ngettext)
    return missing


@pytest.fixture
def season(db):
    """alice and bob's finished rated games, a game under way with a mention, a private
    message from bob to alice, and a four-player tournament with its first round drawn."""
    alice, bob, dave, erin = players("alice", "bob", "dave", "erin")
    for user in (alice, bob, dave, erin):  # mail goes to an address
        user.email = f"{user.username}@example.com"
        user.save(update_fields=["email"])
    finished = finished_game([alice, bob])
    finished_game([bob, alice], leave=[bob])
    record_results()
    active = started_game([alice, bob])
    post_message(active, bob, "@alice good luck")
    send_message(bob, alice, "Rematch?")  # a private message, and its mail
    tournament = create(alice, name="Spring cup", seats=2, advance=1, max_players=4)
    for user in (alice, bob, dave, erin):
        assert api_client_for(user).post(f"/api/v1/tournaments/{tournament['id']}/join/",
                                     format="json").status_code in (200, 201)
    close_signup(tournament["id"])
    assert Tournament.objects.get(pk=tournament["id"]).round == 1
    table_game = tables(tournament["id"], 1)[0].game
    return {"alice": alice, "finished": finished, "active": active,
            "tournament": tournament["id"], "table_game": table_game}


def pages(season) -> list[str]:
    return ["/", "/games/", f"/games/{season['active'].pk}/",
            f"/games/{season['finished'].pk}/", f"/games/{season['table_game'].pk}/",
            "/players/alice/", "/leaderboard/", "/tournaments/",
            f"/tournaments/{season['tournament']}/", "/accounts/profile/", "/notifications/",
            "/messages/", "/messages/bob/"]


def rendered(season, language: str) -> dict[str, str]:
    """Every page (signed in as alice, and the sign-in pages signed out) and every mail of
    the season, in `language`."""
    found = {}
    client = Client()
    client.force_login(season["alice"])
    client.post("/i18n/setlang/", {"language": language, "next": "/"})
    for path in pages(season):
        answer = client.get(path)
        assert answer.status_code == 200, path
        found[path] = answer.content.decode()
    visitor = Client()
    visitor.post("/i18n/setlang/", {"language": language, "next": "/"})
    for path in ("/accounts/login/", "/accounts/signup/"):
        found[path] = visitor.get(path).content.decode()
    Preferences.objects.update(language=language)
    for row in Notification.objects.select_related("user", "game").order_by("pk"):
        message = mails.render(row)
        if message is not None:
            found[f"mail {row.kind} #{row.pk}"] = message.subject + "\n" + message.body + \
                "\n" + message.alternatives[0][0]
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_and_mail_writes_svg_numbers_unlocalised(season, language):
    found = rendered(season, language)

    assert f'lang="{language}"' in found["/players/alice/"]
    assert '<svg class="chart rating-chart"' in found["/players/alice/"]
    assert {path: problems for path, text in found.items()
            if (problems := svg_number_problems(text))} == {}
    assert any(key.startswith("mail turn") for key in found)


def test_the_check_finds_a_decimal_comma_in_an_svg_number():
    assert svg_number_problems('<svg><circle cx="314,0" cy="2"/></svg>') == ['cx="314,0"']
    assert svg_number_problems('<svg><polyline points="1,2 3,4,5 6"/></svg>')
    assert svg_number_problems('<svg><polyline points="1.5,2 3,4"/></svg>') == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_string_shown_in_czech_and_polish_is_translated(season, language, untranslated):
    rendered(season, language)

    # Each untranslated msgid is listed by the assertion's message. (Django looks up the
    # language switcher's names, some already translated, in every catalogue.)
    already = {str(v) for _, v in trans_real.translation(language)._catalog.items()}
    assert sorted(untranslated - PENDING_FOR_LOCALE - LANGUAGE_NAMES - already) == []
    assert sorted(PENDING_FOR_LOCALE & _translated(language)) == [], \
        "translated now: take these out of PENDING_FOR_LOCALE"


def _translated(language: str) -> set[str]:
    catalogue = trans_real.translation(language)._catalog
    found = set()
    for msgid in PENDING_FOR_LOCALE:
        if catalogue.get(msgid) is not None:
            found.add(msgid)
        else:
            try:
                catalogue.plural(msgid, 1)
                found.add(msgid)
            except KeyError:
                pass
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_profiles_mail_help_lines_are_translated(language, alice):
    """Three help lines kept their English on the Czech and Polish profile (issue 58): the
    model's help texts, which no catalogue knows."""
    client = Client()
    client.force_login(alice)
    client.cookies["django_language"] = language

    page = client.get("/accounts/profile/").content.decode()

    for english in ("Mail when a game starts", "sends a private message.",
                    "One-click unsubscribe", "Held while you are on the site"):
        assert english not in page
    assert {"cs": "Odhlášení jedním kliknutím", "pl": "Wypisanie jednym kliknięciem"}[
        language] in page
