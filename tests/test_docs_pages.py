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
