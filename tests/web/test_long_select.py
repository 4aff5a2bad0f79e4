"""The time zones' select, written in Python for speed, is the HTML Django's own Select
writes (the same elements, attributes and text: whitespace and the attributes' order
aside), and grouped choices are left to Django's templates."""

from __future__ import annotations

from django import forms
from django.test.html import parse_html

from web.forms.game_settings import LongSelect, time_zone_choices


def test_it_writes_what_django_s_select_writes():
    for value in ("Europe/Prague", "", "Not/AZone"):
        attrs = {"id": "id_tz", "required": True, "aria-describedby": "tz_help"}
        ours = LongSelect(choices=time_zone_choices()).render("tz", value, attrs)
        django = forms.Select(choices=time_zone_choices()).render("tz", value, attrs)
        assert parse_html(ours) == parse_html(django)
    assert 'value="Europe/Prague" selected' in LongSelect(
        choices=time_zone_choices()).render("tz", "Europe/Prague")


def test_grouped_choices_keep_their_groups():
    choices = [("Europe", [("Europe/Prague", "Prague"), ("Europe/Warsaw", "Warsaw")])]
    html = LongSelect(choices=choices).render("tz", "Europe/Warsaw")
    assert '<optgroup label="Europe">' in html
    assert parse_html(html) == parse_html(forms.Select(choices=choices).render("tz", "Europe/Warsaw"))
