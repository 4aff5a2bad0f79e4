"""games/clock.py: deadlines that count only the hours a game's clock runs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from games.clock import deadline_after, game_deadline, zone
from games.models import Game

PRAGUE = ZoneInfo("Europe/Prague")
HOUR = 3600


def prague(*args) -> datetime:
    return datetime(*args, tzinfo=PRAGUE)


def utc(*args) -> datetime:
    return datetime(*args, tzinfo=UTC)


def test_it_adds_the_seconds_when_the_clock_never_rests():
    start = utc(2026, 6, 10, 10, 15, 30)

    assert deadline_after(start, 86400) == utc(2026, 6, 11, 10, 15, 30)
    assert deadline_after(start, 10) == start + timedelta(seconds=10)


def test_it_answers_in_utc_whatever_zone_it_was_given():
    deadline = deadline_after(prague(2026, 6, 10, 12), 2 * HOUR, "Europe/Prague")

    assert deadline.utcoffset() == timedelta(0)
    assert deadline == utc(2026, 6, 10, 12)


def test_it_rests_over_midnight_and_runs_on_in_the_morning():
    # 21:00, two hours to go, quiet 22 to 7: one hour tonight, one tomorrow from 7.
    deadline = deadline_after(prague(2026, 6, 10, 21), 2 * HOUR, "Europe/Prague", 22, 7)

    assert deadline == prague(2026, 6, 11, 8)


def test_it_starts_counting_when_the_night_is_over():
    assert deadline_after(prague(2026, 6, 10, 23, 30), HOUR, "Europe/Prague", 22, 7) == \
        prague(2026, 6, 11, 8)
    assert deadline_after(prague(2026, 6, 11, 3), HOUR, "Europe/Prague", 22, 7) == \
        prague(2026, 6, 11, 8)


def test_it_rests_through_several_nights_for_a_long_deadline():
    # Fifteen running hours a day (7 to 22): two days of clock need 30 h of running time.
    deadline = deadline_after(prague(2026, 6, 8, 7), 48 * HOUR, "Europe/Prague", 22, 7)

    assert deadline == prague(2026, 6, 11, 10)


def test_it_rests_within_a_day_when_quiet_hours_do_not_cross_midnight():
    deadline = deadline_after(prague(2026, 6, 10, 11), 2 * HOUR, "Europe/Prague", 12, 14)

    assert deadline == prague(2026, 6, 10, 15)


def test_it_ends_exactly_when_the_quiet_hours_begin():
    assert deadline_after(prague(2026, 6, 10, 21), HOUR, "Europe/Prague", 22, 7) == \
        prague(2026, 6, 10, 22)


def test_it_treats_equal_quiet_hours_as_no_quiet_hours():
    assert deadline_after(prague(2026, 6, 10, 21), 3 * HOUR, "Europe/Prague", 5, 5) == \
        prague(2026, 6, 11, 0)


def test_it_counts_quiet_hours_in_the_games_time_zone_not_in_utc():
    start = utc(2026, 6, 10, 19, 30)  # 21:30 in Prague, 15:30 in New York

    assert deadline_after(start, HOUR, "Europe/Prague", 22, 7) == prague(2026, 6, 11, 7, 30)
    assert deadline_after(start, HOUR, "America/New_York", 22, 7) == utc(2026, 6, 10, 20, 30)


def test_it_rests_over_the_weekend():
    # Friday 2026-06-12 23:00, two hours: one before Saturday, one on Monday.
    deadline = deadline_after(prague(2026, 6, 12, 23), 2 * HOUR, "Europe/Prague", weekends=True)

    assert deadline == prague(2026, 6, 15, 1)


def test_it_starts_on_monday_when_set_going_on_a_weekend():
    for day in (13, 14):  # Saturday, Sunday
        deadline = deadline_after(prague(2026, 6, day, 15), HOUR, "Europe/Prague", weekends=True)
        assert deadline == prague(2026, 6, 15, 1)


def test_it_rests_for_the_night_and_the_weekend_together():
    # Friday 21:00: one hour on Friday, then nothing until Monday 7:00.
    deadline = deadline_after(prague(2026, 6, 12, 21), 3 * HOUR, "Europe/Prague", 22, 7, True)

    assert deadline == prague(2026, 6, 15, 9)
    # Set going on Sunday night, inside both rests: from Monday 7:00.
    assert deadline_after(prague(2026, 6, 14, 23), HOUR, "Europe/Prague", 22, 7, True) == \
        prague(2026, 6, 15, 8)


def test_it_does_not_rest_on_weekdays_for_the_weekend_option():
    deadline = deadline_after(prague(2026, 6, 10, 12), 24 * HOUR, "Europe/Prague", weekends=True)

    assert deadline == prague(2026, 6, 11, 12)


@pytest.mark.parametrize("start", [
    utc(2026, 3, 28, 12),  # Prague springs forward on Sunday 2026-03-29 at 2:00
    utc(2026, 10, 24, 12),  # and falls back on Sunday 2026-10-25 at 3:00
])
def test_it_counts_real_hours_across_a_daylight_saving_change(start):
    assert deadline_after(start, 86400, "Europe/Prague") == start + timedelta(days=1)


def test_it_counts_real_running_hours_across_the_spring_forward_night():
    # From midnight (CET) the clock runs until the quiet hour at 4:00 CEST: that is three
    # real hours (2:00 CET is 3:00 CEST), so three hours of clock end exactly at 4:00.
    start = prague(2026, 3, 29, 0)

    assert deadline_after(start, 3 * HOUR, "Europe/Prague", 4, 5) == prague(2026, 3, 29, 4)
    assert deadline_after(start, 3 * HOUR, "Europe/Prague", 4, 5) == utc(2026, 3, 29, 2)


def test_it_counts_real_running_hours_across_the_fall_back_night():
    # From midnight (CEST) to the quiet hour at 4:00 CET the clock runs five real hours.
    start = prague(2026, 10, 25, 0)

    assert deadline_after(start, 5 * HOUR, "Europe/Prague", 4, 5) == utc(2026, 10, 25, 3)
    assert deadline_after(start, 6 * HOUR, "Europe/Prague", 4, 5) == prague(2026, 10, 25, 6)


def test_it_wakes_at_the_local_hour_after_a_night_with_a_daylight_saving_change():
    # Quiet 22 to 7 over the spring-forward night: the clock runs again at 7:00 CEST.
    deadline = deadline_after(prague(2026, 3, 28, 21), 2 * HOUR, "Europe/Prague", 22, 7)

    assert deadline == prague(2026, 3, 29, 8)
    assert deadline == utc(2026, 3, 29, 6)


def test_it_falls_back_to_utc_for_an_unknown_zone():
    assert zone("Mars/Olympus_Mons").key == "UTC"
    assert deadline_after(utc(2026, 6, 10, 22, 30), HOUR, "Mars/Olympus_Mons", 22, 7) == \
        utc(2026, 6, 11, 8)


def test_it_reads_a_games_clock_settings():
    game = Game(deadline_seconds=2 * HOUR, clock_time_zone="Europe/Prague", quiet_from=22,
                quiet_until=7, pause_weekends=True)

    assert game_deadline(game, prague(2026, 6, 12, 21)) == prague(2026, 6, 15, 8)


def test_it_wakes_at_once_when_the_waking_hour_is_skipped_by_the_spring_change():
    # Quiet 22 to 2 on the night 2:00 does not exist: the clock runs again at 3:00 CEST.
    deadline = deadline_after(prague(2026, 3, 28, 21), 2 * HOUR, "Europe/Prague", 22, 2)

    assert deadline == utc(2026, 3, 29, 2)


def test_it_wakes_at_the_first_of_two_waking_hours_when_the_clocks_fall_back():
    # 2:00 happens twice on 2026-10-25; the clock runs again at the first (0:00 UTC).
    deadline = deadline_after(prague(2026, 10, 24, 21), 2 * HOUR, "Europe/Prague", 22, 2)

    assert deadline == utc(2026, 10, 25, 1)
