"""The bot writers' pages (docs/bots/) against the schema and the code: the stream events and
close reasons they list are the schema's, the limits their table names are the settings' and
the 429's, the answers they say to retry are those the reference client retries, and each
section a reader links to is there."""

from __future__ import annotations

import re
import sys

import pytest

from config.settings import CONQUEST_THROTTLE_RATES
from tests.test_docs import DOCS, ROOT

sys.path.insert(0, str(ROOT / "clients" / "python"))
import conquest_client as cc  # noqa: E402

SECTIONS = ("account", "seating", "reading-the-view", "sending-commands",
            "streams-and-resuming", "limits", "errors-and-retries", "rating")


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        return APIClient().get("/api/v1/schema/?format=json").json()


def text(name: str) -> str:
    return (DOCS / "bots" / name).read_text()


def table_rows(page: str, heading: str) -> list[list[str]]:
    """The cells of the first table under `## heading`."""
    section = page.split(f"## {heading}", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def test_each_section_a_reader_links_to_is_there():
    anchors = set(re.findall(r"^## .*\{#([a-z-]+)\}$", text("index.md"), re.M))

    assert set(SECTIONS) <= anchors


def test_the_stream_events_the_pages_name_are_the_schemas(schema):
    schemas = schema["components"]["schemas"]
    in_schema = set(schemas["StreamEvent"]["properties"]["event"]["enum"]) | set(
        schemas["StreamNotice"]["properties"]["event"]["enum"])
    named = set(re.findall(r"`event: ([a-z_]+)`", text("streams.md") + text("index.md")))

    assert named == in_schema


def test_the_close_reasons_the_pages_name_are_the_schemas(schema):
    reasons = set(schema["components"]["schemas"]["StreamClose"]["properties"]["reason"]["enum"])
    in_table = {row[0].strip("`") for row in table_rows(text("index.md"), "Streams and resuming")}
    in_streams_page = {reason for reason in reasons if f"`{reason}`" in text("streams.md")}

    assert "credentials_ended" in reasons
    assert in_table == reasons and in_streams_page == reasons
    close = schema["paths"]["/api/v1/stream/"]["get"]["description"]
    assert all(f"`{reason}`" in close for reason in reasons)


def test_the_limits_table_names_the_limits_a_429_can_name_with_their_rates(schema):
    rows = table_rows(text("index.md"), "Limits")
    named = {name for row in rows for name in re.findall(r"`([a-z_]+)`", row[1])}
    described = schema["components"]["schemas"]["RateLimited"]["properties"]["limit"][
        "description"]

    assert named <= set(CONQUEST_THROTTLE_RATES) | {"streams_per_user"}
    assert all(name in described for name in set(CONQUEST_THROTTLE_RATES) | {"streams_per_user"})
    words = {"minute": "a minute", "hour": "an hour"}
    for row in rows:
        for name in re.findall(r"`([a-z_]+)`", row[1]):
            if name in CONQUEST_THROTTLE_RATES:
                count, period = CONQUEST_THROTTLE_RATES[name].split("/")
                assert count in row[1] and words[period] in row[1], (name, row[1])


def test_the_answers_the_page_says_to_retry_are_those_the_reference_client_retries():
    rows = table_rows(text("index.md"), "Errors and retries")
    retried = {int(status) for row in rows if row[1] == "yes"
               for status in re.findall(r"\b(\d{3})\b", row[0])}

    assert retried == set(cc.RETRY_STATUSES)
    assert any("RemoteDisconnected" in row[0] and "expected_version" in row[1] for row in rows)


def test_no_page_says_what_the_code_does_not():
    pages = "".join(path.read_text() for path in (DOCS / "bots").glob("*.md"))

    assert "not part of the schema" not in pages
    assert "three kinds of game" not in pages
