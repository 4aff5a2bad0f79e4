"""Numbers from client input: ASCII digits only, few enough for any database integer.

str.isdigit() also accepts "²" and "١", which int() then refuses or reads differently, and
int() of a 5,000-digit string is slow and overflows every column: read numbers here.
"""

from __future__ import annotations

import re

WHOLE_NUMBER = re.compile(r"[0-9]{1,18}")


def whole_number(raw, low: int | None = None, high: int | None = None) -> int | None:
    """The number `raw` spells within [low, high], or None for anything else."""
    if not isinstance(raw, str) or not WHOLE_NUMBER.fullmatch(raw.strip()):
        return None
    value = int(raw.strip())
    if (low is not None and value < low) or (high is not None and value > high):
        return None
    return value
