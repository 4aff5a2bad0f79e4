"""The API's JSON renderer writes the bytes DRF's own would, faster."""

from __future__ import annotations

import datetime
import decimal
import uuid

from django.utils.translation import gettext_lazy
from rest_framework.renderers import JSONRenderer

from lib.api.renderers import FastJSONRenderer


def both(data) -> tuple[bytes, bytes]:
    return (FastJSONRenderer().render(data, "application/json"),
            JSONRenderer().render(data, "application/json"))


def test_it_writes_what_drf_writes():
    when = datetime.datetime(2026, 11, 25, 12, 30, 5, 123456, tzinfo=datetime.UTC)
    data = {
        "version": 12, "events": [{"seq": 1, "data": {"alaska": 3}, "actor": None}],
        "game": {"name": "Žluťoučký kůň — 馬", "fog": False, "luck": 0.25, "cards": [],
                 "deadline": when, "noon": datetime.time(12, 0), "day": when.date(),
                 "naive": when.replace(tzinfo=None), "price": decimal.Decimal("1.50"),
                 "id": uuid.UUID(int=7), "label": gettext_lazy("Resign"),
                 "seats": {0: "alice", 1: "bob"}, "set": (1, 2)},
        "line": "a\u2028b\u2029c",
    }
    fast, drf = both(data)
    assert fast == drf
    assert b'"2026-11-25T12:30:05.123456Z"' in fast and b"\\u2028" in fast


def test_it_leaves_what_orjson_refuses_to_drf():
    fast, drf = both({"big": 2**70, "nothing": None})
    assert fast == drf == b'{"big":1180591620717411303424,"nothing":null}'
    assert FastJSONRenderer().render(None) == b""


def test_the_api_answers_with_it(client, db):
    answer = client.get("/api/v1/maps/classic/", HTTP_ACCEPT="text/html")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/json"
    assert answer.content == JSONRenderer().render(answer.json())
