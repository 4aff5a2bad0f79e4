"""Dice luck's numbers read one way wherever they are shown: a signed value with a true
minus sign and the reader's decimal mark (lib.numbers.signed), counts with their plural,
and the chart's labels beside its bars, never under them."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

from lib.numbers import signed
from ratings.models import PlayerResult
from ratings.tasks import record_results
from tests.ratings.support import finished_game, players

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language, value, digits, shown", [
    ("en", -1.4, 1, "\u22121.4"), ("cs", -1.35, 1, "\u22121,4"), ("pl", 2.26, 1, "+2,3"),
    ("en", 23, 0, "+23"), ("cs", -18, 0, "\u221218"), ("en", 0, 0, "\u00b10"),
    ("cs", -0.04, 1, "\u00b10,0"), ("en", 1234.5, 1, "+1234.5"),
])
def test_a_signed_value_reads_the_same_everywhere(language, value, digits, shown):
    with translation.override(language):
        assert signed(value, digits) == shown


def luck_section(username: str, language: str) -> str:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(f"/players/{username}/").content.decode()
    return page.split('id="luck-title"', 1)[1].split("</section>", 1)[0]


@pytest.fixture
def unlucky():
    """alice, after one finished game of one battle that cost her 1.4 armies of luck."""
    alice, bob = players("alice", "bob")
    finished_game([alice, bob])
    record_results()
    PlayerResult.objects.filter(user=alice).update(
        battles=1, lost=3, expected_lost=1.6, taken=0, expected_taken=0)
    return alice


@pytest.mark.parametrize("language, minus_one_four, one_battle", [
    ("en", "\u22121.4", "In 1 battle:"),
    ("cs", "\u22121,4", "V 1 bitvě:"),
    ("pl", "\u22121,4", "W 1 bitwie:"),
])
def test_the_player_page_shows_luck_in_one_format_and_counts_in_the_plural_they_need(
        unlucky, language, minus_one_four, one_battle):
    section = luck_section("alice", language)

    assert one_battle in section
    # The net luck, the bar's own title and the chart's lower label: the same number.
    assert section.count(minus_one_four) >= 3, section
    words = re.sub(r"<[^>]+>", " ", section)  # what a reader sees, without the drawing's
    assert not re.search(r"-\d", words), words
    title = re.search(r"<title>([^<]*)</title>", section).group(1)
    assert title == minus_one_four


def test_the_charts_labels_stand_beside_its_bars_not_under_them(unlucky):
    section = luck_section("alice", "en")

    labels = [int(x) + 6 * len(text)  # a 10 px font's characters are at most 6 px wide
              for x, text in re.findall(r'<text x="(\d+)"[^>]*>([^<]*)</text>', section)]
    bars = [float(x) for x in re.findall(r'<rect x="([\d.]+)"[^>]*><title>', section)]
    assert labels and bars
    assert min(bars) > max(labels), (labels, bars)


def test_the_player_page_rounds_the_net_luck_once_as_the_game_page_does():
    """−1.9 on the game page and −1.8 on the profile (issue 58): the profile rounded the
    expectations, then their sum. 1.14 − 3 + 0 − 0.06 = −1.92 reads −1.9 on both."""
    alice, bob = players("alice", "bob")
    finished_game([alice, bob])
    record_results()
    PlayerResult.objects.filter(user=alice).update(
        battles=2, lost=3, expected_lost=1.14, taken=0, expected_taken=0.06)

    section = luck_section("alice", "en")

    assert "Luck in armies: \u22121.9" in section, section
    assert "\u22122.0" not in section
