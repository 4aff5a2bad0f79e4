"""The pages that answer questions: the glossary keeps the addresses the site links to, and
the FAQs answer the questions they promise."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
TEMPLATES = Path(__file__).resolve().parent.parent / "templates"

# Addresses the site's pages link to (templates, other docs): they must never change.
LINKED = {"entropy", "seat", "dice-share", "hmac", "confidence-interval", "seed", "win-chance",
          "neutral", "standing-order", "bot-account", "provisional-rating", "fog", "capital",
          "mission"}


def anchors(page: Path) -> set[str]:
    return set(re.findall(r"\{ #([a-z0-9-]+) \}", page.read_text()))


def test_the_glossary_has_a_stable_anchor_per_term():
    glossary = anchors(DOCS / "glossary.md")
    assert LINKED <= glossary, LINKED - glossary
    # Every term heading carries its anchor written out, so a reworded heading keeps it.
    headings = re.findall(r"^## (.+)$", (DOCS / "glossary.md").read_text(), re.M)
    assert all("{ #" in h for h in headings), [h for h in headings if "{ #" not in h]


def test_every_glossary_term_the_templates_link_to_exists():
    linked = set()
    for template in TEMPLATES.rglob("*.html"):
        linked |= set(re.findall(r'_glossary_link\.html" with term="([a-z0-9-]+)"',
                                 template.read_text()))
    assert linked <= anchors(DOCS / "glossary.md"), linked - anchors(DOCS / "glossary.md")


def test_each_faq_answers_its_questions():
    players = (DOCS / "players/faq.md").read_text()
    for question in ("Why did my game not count?", "Why is my opponent's move waiting?",
                     "Why did I get no mail?"):
        assert f"## {question}" in players, question
    operators = (DOCS / "operators/faq.md").read_text()
    for question in ("The site answers 301", "Streams answer 503", "Mail is not sent"):
        assert f"## {question}" in operators, question


# What players' pages must not name: Python modules and scripts, the server's settings, its
# workers and scheduler. Those live in the operators' pages (operators/internals.md).
INTERNALS = re.compile(
    r"[\w/.-]+\.(py|js)\b"
    r"|\b(accounts|games|lobby|live|engine|ratings|notifications|tournaments|web|ops|lib|bots"
    r"|conversations|moderation|config|words)\.(?!md\b)[a-z_]+"
    r"|`(accounts|games|lobby|live|engine|ratings|notifications|tournaments|web|ops|lib|bots"
    r"|conversations|moderation|config|words|static|scripts|tests)/"
    r"|CONQUEST_[A-Z_]+|[Cc]elery|\bworkers?\b|\b[Bb]eat\b")


def test_the_players_pages_speak_players_words():
    found = [f"{page.name}:{n}: {match[0]}"
             for page in sorted((DOCS / "players").glob("*.md"))
             for n, line in enumerate(page.read_text().splitlines(), 1)
             if (match := INTERNALS.search(line))]
    assert not found, "\n".join(found)


def test_the_pattern_catches_what_it_means_to():
    for internal in ("`ratings/placement.py`", "CONQUEST_ON_SITE_SECONDS", "a Celery task",
                     "the mail worker", "beat's sweep", "games.service.submit",
                     "`static/js/history.js`"):
        assert INTERNALS.search(internal), internal
    for plain in ("see [the rules](rules.md)", "the [games](games.md) page",
                  "`POST /api/v1/games/`", "the deadline sweeps nothing away"):
        assert not INTERNALS.search(plain), plain
