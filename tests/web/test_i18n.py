"""The Czech and Polish catalogues: complete, compiled, and used by the pages."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.utils import translation

from words.vocabulary import TERRITORY_NAMES

LOCALE = Path(__file__).resolve().parents[2] / "locale"


def entries(po: Path) -> list[dict]:
    found, current, key = [], None, None
    for line in po.read_text(encoding="utf-8").splitlines():
        if line.startswith("#,"):
            current = {"flags": line}
            found.append(current)
            continue
        match = re.match(r"^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) (\".*\")$", line)
        if match:
            if match.group(1) in ("msgctxt", "msgid") and (
                    current is None or "msgid" in current
                    or (match.group(1) == "msgctxt" and "msgctxt" in current)):
                current = {}
                found.append(current)
            key = match.group(1)
            current[key] = eval(match.group(2))  # noqa: S307 - a quoted .po string
        elif line.startswith('"') and current is not None and key:
            current[key] += eval(line)  # noqa: S307
        elif not line.strip():
            current, key = None, None
    return [e for e in found if e.get("msgid")]


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_it_translates_every_string(language):
    po = LOCALE / language / "LC_MESSAGES" / "django.po"

    catalogue = entries(po)

    assert len(catalogue) > 400
    for entry in catalogue:
        assert "fuzzy" not in entry.get("flags", ""), entry["msgid"]
        translations = [v for k, v in entry.items() if k.startswith("msgstr")]
        assert translations and all(translations), entry["msgid"]


@pytest.mark.parametrize("language", ["cs", "pl"])
def test_it_ships_compiled_catalogues_that_match_the_sources(language):
    folder = LOCALE / language / "LC_MESSAGES"
    compiled = gettext.GNUTranslations(open(folder / "django.mo", "rb"))

    for entry in entries(folder / "django.po"):
        if "msgid_plural" in entry:
            continue
        if "msgctxt" in entry:
            found = compiled.pgettext(entry["msgctxt"], entry["msgid"])
        else:
            found = compiled.gettext(entry["msgid"])
        assert found == entry["msgstr"], entry["msgid"]


def test_it_names_the_territories_in_each_language():
    with translation.override("cs"):
        assert str(TERRITORY_NAMES["kamchatka"]) == "Kamčatka"
    with translation.override("pl"):
        assert str(TERRITORY_NAMES["middle_east"]) == "Bliski Wschód"


def test_it_keeps_svg_numbers_unlocalised_in_czech(client, alice, bob):
    from tests.web.support import started_game

    game = started_game([alice, bob], setup="random")
    client.post("/i18n/setlang/", {"language": "cs", "next": "/"})

    html = client.get(f"/games/{game.pk}/").content.decode()

    assert 'lang="cs"' in html
    assert re.search(r'transform="translate\(\d+(\.\d+)? \d+(\.\d+)?\)"', html)
    assert not re.search(r'translate\(\d+,\d', html)
