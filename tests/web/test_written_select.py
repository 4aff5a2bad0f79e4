"""A select written in Python for speed (the time zones, the lobby's filters) is the HTML
Django's own Select writes (the same elements, attributes and text: whitespace and the
attributes' order aside), in the reader's language, and grouped choices are left to
Django's templates."""

from __future__ import annotations

from django import forms
from django.test.html import parse_html

from web.forms.game_settings import WrittenSelect, time_zone_choices


def test_it_writes_what_django_s_select_writes():
    for value in ("Europe/Prague", "", "Not/AZone"):
        attrs = {"id": "id_tz", "required": True, "aria-describedby": "tz_help"}
        ours = WrittenSelect(choices=time_zone_choices()).render("tz", value, attrs)
        django = forms.Select(choices=time_zone_choices()).render("tz", value, attrs)
        assert parse_html(ours) == parse_html(django)
    assert 'value="Europe/Prague" selected' in WrittenSelect(
        choices=time_zone_choices()).render("tz", "Europe/Prague")


def test_grouped_choices_keep_their_groups():
    choices = [("Europe", [("Europe/Prague", "Prague"), ("Europe/Warsaw", "Warsaw")])]
    html = WrittenSelect(choices=choices).render("tz", "Europe/Warsaw")
    assert '<optgroup label="Europe">' in html
    assert parse_html(html) == parse_html(forms.Select(choices=choices).render("tz", "Europe/Warsaw"))


def test_labels_in_the_reader_s_language_are_written_in_it():
    from django.utils import translation

    from web.forms.game_lists import GameFilterForm

    for language, word in (("en", "any"), ("cs", "jakékoli"), ("en", "any")):
        with translation.override(language):
            field = GameFilterForm()["fog"]
            ours = field.as_widget()
            django = forms.Select(choices=field.field.choices).render(
                field.html_name, None, {"id": field.auto_id})
            assert parse_html(ours) == parse_html(django)
            assert f">{word}</option>" in ours
