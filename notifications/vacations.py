"""Declaring vacations: up to CONQUEST_VACATION_DAYS_PER_YEAR days in a calendar year."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import lock_account
from games import vacation_clock
from games.models import Game, Seat
from notifications.models import Vacation

# A vacation is declared at most this far ahead (and so can never reach the end of the
# calendar, where date arithmetic overflows).
MAX_DAYS_AHEAD = 366


class VacationError(ValueError):
    pass


def days(value: float) -> str:
    """A number of days as people write it: 5, 2.5 (never 5.0)."""
    return f"{value:.1f}".removesuffix(".0")


def days_in_year(user, year: int, excluding=None) -> float:
    start = datetime(year, 1, 1, tzinfo=UTC)
    end = datetime(year + 1, 1, 1, tzinfo=UTC)
    total = 0.0
    for vacation in Vacation.objects.filter(user=user, ends__gt=start, starts__lt=end):
        if excluding is not None and vacation.pk == excluding:
            continue
        overlap = min(vacation.ends, end) - max(vacation.starts, start)
        total += max(overlap.total_seconds(), 0) / 86400
    return total


def declare(user, starts: datetime, ends: datetime) -> Vacation:
    """Record a vacation within the yearly allowance. Declarations of one user are
    serialised (the user's row is locked; SQLite serialises every writer), so racing
    requests can never add up past the allowance."""
    with transaction.atomic():
        lock_account(user)
        return _declare(user, starts, ends)


def _declare(user, starts: datetime, ends: datetime) -> Vacation:
    now = timezone.now()
    allowance = settings.CONQUEST_VACATION_DAYS_PER_YEAR
    if starts.tzinfo is None or ends.tzinfo is None:
        raise VacationError("give times with a time zone")
    if ends <= starts:
        raise VacationError("a vacation must end after it starts")
    if ends <= now:
        raise VacationError("a vacation cannot end in the past")
    if ends > now + timedelta(days=MAX_DAYS_AHEAD + 1):
        raise VacationError(f"a vacation must end within {MAX_DAYS_AHEAD} days from now")
    if starts < now - timedelta(minutes=5):
        starts = now  # a vacation cannot be declared backwards: it starts now
    for year in range(starts.year, ends.year + 1):
        year_start = datetime(year, 1, 1, tzinfo=UTC)
        year_end = datetime(year + 1, 1, 1, tzinfo=UTC)
        wanted = max((min(ends, year_end) - max(starts, year_start)).total_seconds(), 0) / 86400
        used = days_in_year(user, year)
        if used + wanted > allowance + 1e-9:
            raise VacationError(
                f"that would make {days(used + wanted)} days of vacation in {year}; "
                f"the allowance is {allowance} days a year ({days(used)} used)"
            )
    return Vacation.objects.create(user=user, starts=starts, ends=ends)


def cancel(vacation: Vacation) -> None:
    """Call off a vacation: one still to come is forgotten (its days come back); one under
    way ends now, so the days already taken stay counted, and every deadline it stretched
    is pulled back to a normal one from now."""
    now = timezone.now()
    with transaction.atomic():
        if vacation.starts >= now:
            vacation.delete()
        elif vacation.ends > now:
            vacation.ends = now
            vacation.save(update_fields=["ends"])
            pull_back_deadlines(vacation.user_id, now)


def pull_back_deadlines(user_id: int, now: datetime) -> int:
    """A deadline later than a full one counted from now was stretched by a vacation; the
    player is back, so it becomes that full one, an event in each game's log
    (games.vacation_clock.pull_back)."""
    pulled = 0
    seats = Seat.objects.filter(user_id=user_id, game__status=Game.ACTIVE,
                                game__deadline__gt=now).select_related("game")
    for seat in seats:
        pulled += vacation_clock.pull_back(seat.game, seat.seat, now) is not None
    return pulled


def current_and_coming(user):
    return Vacation.objects.filter(user=user, ends__gt=timezone.now()).order_by("starts")


def on_vacation(user_ids, now) -> dict[int, object]:
    """{user id: the latest end of a vacation covering `now`} for those of `user_ids` on
    vacation, in one query (the wiring's ON_VACATION: the deadline sweep asks it)."""
    ends: dict[int, object] = {}
    for user_id, until in Vacation.objects.filter(
            user_id__in=set(user_ids), starts__lte=now, ends__gt=now).values_list(
            "user_id", "ends"):
        ends[user_id] = max(until, ends.get(user_id, until))
    return ends
