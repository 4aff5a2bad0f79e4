"""Small SVG charts drawn on the server, like the board: coordinates only, no script."""

from __future__ import annotations

WIDTH, HEIGHT, PAD = 320, 90, 6
# The bar chart's labels (its reach above and below the line) stand in a margin of their
# own on the left, never over a bar: room for "+123.4" in a 10 px font.
LABELS = 44


def line(values: list[float], width: int = WIDTH, height: int = HEIGHT) -> dict | None:
    """A polyline through `values` (oldest first), scaled to the box; None with none."""
    if not values:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (width - 2 * PAD) / max(len(values) - 1, 1)

    def y(value):
        return round(height - PAD - (value - low) / span * (height - 2 * PAD), 1)

    points = [(round(PAD + i * step, 1), y(v)) for i, v in enumerate(values)]
    return {
        "width": width, "height": height,
        "points": " ".join(f"{x},{py}" for x, py in points),
        "last": points[-1], "low": round(low), "high": round(high),
    }


def bars(values: list[float], width: int = WIDTH, height: int = HEIGHT) -> dict | None:
    """One bar per value about a zero line: above it positive, below negative, right of
    the labels' margin."""
    if not values:
        return None
    reach = max(abs(v) for v in values) or 1
    middle = height / 2
    slot = (width - LABELS - PAD) / len(values)
    drawn = []
    for i, value in enumerate(values):
        size = abs(value) / reach * (middle - PAD)
        drawn.append({
            "x": round(LABELS + i * slot, 1), "width": round(max(slot - 1, 1), 1),
            "y": round(middle - size if value >= 0 else middle, 1),
            "height": round(max(size, 0.5), 1), "positive": value >= 0,
            "value": round(value, 1),
        })
    return {"width": width, "height": height, "middle": middle, "bars": drawn,
            "reach": round(reach, 1), "floor": -round(reach, 1)}


def lines(series: list[list[float | None]], width: int = 320, height: int = 120,
          low: float | None = 0, high: float | None = None, left: int = 34) -> dict | None:
    """One polyline per series on a shared scale (a game's seats over its turns: None where a
    seat has no value yet), right of a margin of `left` for the scale's labels; x is the
    point's index. Each line's points list is empty when it has no value."""
    values = [v for row in series for v in row if v is not None]
    if not values:
        return None
    low = min(values) if low is None else low
    high = max(values) if high is None else high
    span = (high - low) or 1
    count = max((len(row) for row in series), default=1)
    step = (width - left - PAD) / max(count - 1, 1)

    def x(index):
        return round(left + index * step, 1)

    def y(value):
        return round(height - PAD - (value - low) / span * (height - 2 * PAD), 1)

    drawn = [" ".join(f"{x(i)},{y(v)}" for i, v in enumerate(row) if v is not None)
             for row in series]
    return {"width": width, "height": height, "left": left, "lines": drawn,
            "frame_width": width - left,
            "low": round(low), "high": round(high), "top": PAD, "bottom": height - PAD,
            "x": x, "y": y}
