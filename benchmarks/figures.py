"""The figures the benchmarks name (docs/operators/capacity.md): each
bench records its own as it measures them; `python -m benchmarks` prints them all at the
end as `figure NAME VALUE TARGET met|MISSED`.

Several benches run in processes of their own (each sets Django up for its own database),
so a figure is appended as one JSON line to the file CONQUEST_BENCH_FIGURES names, which
the parent sets for its children; a bench run alone prints its figures when it ends.
"""

from __future__ import annotations

import atexit
import json
import os

ENVIRONMENT = "CONQUEST_BENCH_FIGURES"
_unsaved: list[dict] = []


def record(name: str, value: float, target: float, most: bool = True) -> dict:
    """A figure `name` of `value` against `target`: met when the value is at most the
    target (`most`), or at least it (`most=False`, a rate or a share)."""
    met = value <= target if most else value >= target
    figure = {"name": name, "value": value, "target": target, "met": met}
    path = os.environ.get(ENVIRONMENT)
    if path:
        with open(path, "a", encoding="utf-8") as out:
            out.write(json.dumps(figure) + "\n")
    else:
        if not _unsaved:
            atexit.register(lambda: print_lines(_unsaved))
        _unsaved.append(figure)
    return figure


def line(figure: dict) -> str:
    return (f"figure {figure['name']} {_number(figure['value'])} {_number(figure['target'])} "
            f"{'met' if figure['met'] else 'MISSED'}")


def _number(value: float) -> str:
    """A plain number: whole ones without a point, others to three significant places."""
    if float(value).is_integer() and abs(value) < 1e15:
        return str(int(value))
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:.0f}"


def recorded(path: str) -> list[dict]:
    try:
        with open(path, encoding="utf-8") as found:
            return [json.loads(text) for text in found if text.strip()]
    except FileNotFoundError:
        return []


def print_lines(figures: list[dict]) -> None:
    for figure in figures:
        print(line(figure))
