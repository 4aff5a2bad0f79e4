"""Numbers and moments from client input, read strictly: every client value of either kind
is read here, so that no page or endpoint answers an odd one with a 500.

str.isdigit() also accepts "²" and "١", which int() then refuses or reads differently, and
int() of a 5,000-digit string is slow and overflows every column. A date may be well formed
and still impossible (30 February, an offset of 25 hours), or beyond what a datetime holds
once in UTC (9999-12-31T23:59-05:00), which raises later, wherever it is compared or saved.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

WHOLE_NUMBER = re.compile(r"[0-9]{1,18}")
# ISO 8601 with a zone, in ASCII digits: 2026-12-01T18:00:00Z, …T18:00+01:00, …T18:00:00.5-0530.
MOMENT = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}[T ][0-9]{2}:[0-9]{2}"
                    r"(?::[0-9]{2}(?:\.[0-9]{1,6})?)?(?:Z|[+-][0-9]{2}(?::?[0-9]{2})?)")


def whole_number(raw, low: int | None = None, high: int | None = None) -> int | None:
    """The number `raw` spells within [low, high], or None for anything else."""
    if not isinstance(raw, str) or not WHOLE_NUMBER.fullmatch(raw.strip()):
        return None
    value = int(raw.strip())
    if (low is not None and value < low) or (high is not None and value > high):
        return None
    return value


def moment(raw, earliest: datetime | None = None,
           latest: datetime | None = None) -> datetime | None:
    """The instant `raw` spells (ISO 8601 with a zone), in UTC, within [earliest, latest];
    None for anything else."""
    if not isinstance(raw, str) or not MOMENT.fullmatch(raw):
        return None
    try:
        value = datetime.fromisoformat(raw).astimezone(UTC)
    except (ValueError, OverflowError):  # impossible, or past year 9999 (or before 1) in UTC
        return None
    if (earliest is not None and value < earliest) or (latest is not None and value > latest):
        return None
    return value
