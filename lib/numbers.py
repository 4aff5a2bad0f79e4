"""Numbers as players read them: a signed value (a rating change, dice luck) in one format
wherever it is shown, in the reader's language."""

from __future__ import annotations

from django.utils.formats import number_format

MINUS, PLUS_MINUS = "\u2212", "\u00b1"


def signed(value, digits: int = 0) -> str:
    """`value` with `digits` decimals in the active language's decimal mark and its sign
    always written: +23, −1,4 (a true minus sign, never a hyphen), ±0 for what rounds to
    nothing."""
    rounded = round(float(value), digits)
    number = number_format(abs(rounded), decimal_pos=digits, use_l10n=True,
                           force_grouping=False)
    if rounded > 0:
        return f"+{number}"
    return f"{MINUS}{number}" if rounded < 0 else f"{PLUS_MINUS}{number}"
