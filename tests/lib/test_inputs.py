"""Client input read strictly: lib.inputs' whole numbers and moments, and rules whose
preset is not a name. Python's own parsers take too much ("²".isdigit() is true, int("١")
is 1, a date may be well formed yet impossible or beyond what a datetime holds in UTC);
every such value is a clear 400, never a 500, and creates nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model

from engine.errors import BadRules
from engine.options import validate_rules
from games.models import Game
from lib.inputs import moment, whole_number
from tests.games.api_support import assert_error

NOT_NAMES = [[], ["czech"], {}, {"czech": True}, 1.5, True]


@pytest.mark.parametrize("raw, expected", [
    ("12", 12), (" 7 ", 7), ("0", 0), ("²", None), ("١", None), ("٣", None), ("-1", None),
    ("1_000", None), ("1e3", None), ("", None), ("9" * 19, None), ("9" * 5000, None),
    (12, None), (None, None), (["1"], None),
])
def test_whole_number_reads_ascii_digits_only(raw, expected):
    assert whole_number(raw) == expected


def test_whole_number_keeps_to_its_bounds():
    assert whole_number("6", 2, 6) == 6
    assert whole_number("7", 2, 6) is None and whole_number("1", 2, 6) is None


@pytest.mark.parametrize("raw, expected", [
    ("2030-01-02T03:04:05Z", datetime(2030, 1, 2, 3, 4, 5, tzinfo=UTC)),
    ("2030-01-02T03:04:05.25+01:00", datetime(2030, 1, 2, 2, 4, 5, 250000, tzinfo=UTC)),
    ("2030-01-02 03:04-0530", datetime(2030, 1, 2, 8, 34, tzinfo=UTC)),
])
def test_moment_reads_an_iso_time_with_a_zone_into_utc(raw, expected):
    found = moment(raw)
    assert found == expected and found.utcoffset() == timedelta(0)


@pytest.mark.parametrize("raw", [
    "2030-01-02T03:04:05",  # no zone
    "2030-02-30T00:00:00Z", "2030-13-01T00:00:00Z", "2030-01-01T24:30:00Z",  # impossible
    "2030-01-01T00:00:00+24:00", "2030-01-01T00:00:00+99:00",  # no such offset
    "9999-12-31T23:59:59-05:00", "0001-01-01T00:00:00+01:00",  # beyond a datetime in UTC
    "２０３０-01-01T00:00:00Z", "2030-01-01T00:00:00Z\n", "20300101T000000Z", "2030-W01-1",
    "yesterday", "", "2030-01-01T00:00:00.1234567Z", 20300101, None, ["2030-01-01T00:00Z"],
])
def test_moment_refuses_anything_else(raw):
    assert moment(raw) is None


def test_moment_keeps_to_its_bounds():
    now = datetime(2030, 6, 1, tzinfo=UTC)
    assert moment("2030-06-02T00:00:00Z", now, now + timedelta(days=1)) is not None
    assert moment("2030-06-02T00:00:01Z", now, now + timedelta(days=1)) is None
    assert moment("2030-05-31T23:59:59Z", now, now + timedelta(days=1)) is None


@pytest.mark.parametrize("preset", NOT_NAMES, ids=str)
def test_validate_rules_refuses_a_preset_that_is_not_a_name(preset):
    with pytest.raises(BadRules, match="rules.preset must be one of"):
        validate_rules({"preset": preset}, 3)


@pytest.mark.parametrize("preset", NOT_NAMES, ids=str)
def test_the_api_refuses_a_preset_that_is_not_a_name(alice, preset):
    answer = alice.post("/api/v1/games/", {"name": "Presets", "players": 3,
                                           "rules": {"preset": preset}}, format="json")

    assert "rules.preset" in assert_error(answer, 400, "bad_rules")["detail"]
    assert not Game.objects.exists()


@pytest.mark.parametrize("preset", NOT_NAMES[:4], ids=str)
def test_the_tournaments_api_refuses_a_preset_that_is_not_a_name(alice, preset):
    answer = alice.post("/api/v1/tournaments/", {
        "name": "Cup", "rules": {"preset": preset},
        "signup_closes": (datetime.now(UTC) + timedelta(days=1)).isoformat()}, format="json")

    assert "rules.preset" in assert_error(answer, 400, "bad_rules")["detail"]


@pytest.mark.parametrize("wanted", ["%C2%B2", "%D9%A3", "9" * 40, "-1", "x"])
def test_the_admin_game_filter_shows_nothing_for_an_id_it_cannot_read(db, client, wanted):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "x")
    client.force_login(admin)

    answer = client.get(f"/admin/games/event/?game={wanted}")

    assert answer.status_code == 200
    assert answer.context["cl"].result_count == 0
