"""The checks of a map's drawing (key `drawing`): a board the pages can draw, one fault each.

Either inline SVG data: `width`, `height`, `shapes` (territory -> path data), `labels`
(territory -> [x, y]), optional `land_borders` ([a, b, path]), `sea_lanes`
([a, b, [path, ...]]) and `continent_outlines` (continent -> path); or `{"layout": "<name>"}`,
the same data kept in `layouts/<name>.json` beside the maps. Only the classic map names a
layout: its file is the version games were played on since before maps carried their
drawing, and a drawing written into it would be a new version (a new content hash) of a
board whose rules did not change.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

LAYOUTS = Path(__file__).resolve().parent / "layouts"
# SVG path data: commands, numbers, separators; it starts with a move.
PATH = re.compile(r"\s*[Mm][\sMmLlHhVvCcSsQqTtAaZz0-9eE.,+-]*")


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _path(value) -> bool:
    return isinstance(value, str) and bool(value.strip()) and PATH.fullmatch(value) is not None


def _check_pairs(drawing, key, territories, borders, faults) -> set:
    drawn = set()
    items = drawing.get(key, [])
    if not isinstance(items, list):
        faults.append(f"drawing {key} must be a list of [territory, territory, path]")
        return drawn
    for item in items:
        if not isinstance(item, list) or len(item) != 3:
            faults.append(f"drawing {key}: {str(item)[:60]!r} is not [territory, territory, "
                          f"path]")
            continue
        a, b, paths = item
        if not isinstance(a, str) or not isinstance(b, str):
            faults.append(f"drawing {key}: {str(item)[:60]!r} does not name two territories")
            continue
        if frozenset((a, b)) not in borders:
            faults.append(f"drawing {key}: {a!r}-{b!r} is not one of the map's borders")
            continue
        if frozenset((a, b)) in drawn:
            faults.append(f"drawing: the border {a!r}-{b!r} is drawn twice")
        drawn.add(frozenset((a, b)))
        if key == "land_borders" and not _path(paths):
            faults.append(f"drawing land_borders: {a!r}-{b!r} has no SVG path data")
        if key == "sea_lanes" and not (isinstance(paths, list) and all(map(_path, paths))):
            faults.append(f"drawing sea_lanes: {a!r}-{b!r} needs a list of SVG path data")
    return drawn


@cache
def layout_names() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in LAYOUTS.glob("*.json")))


@cache
def layout(name: str) -> dict:
    """The drawing kept as `layouts/<name>.json` (read-only by convention: it is shared)."""
    if name not in layout_names():
        raise LookupError(f"no drawing layout {name!r}")
    return json.loads((LAYOUTS / f"{name}.json").read_text(encoding="utf-8"))


def drawing_data(data: dict) -> dict:
    """A valid map's drawing as inline data, a named layout's read from its file; {} if the
    map has none."""
    drawing = data.get("drawing") or {}
    return layout(drawing["layout"]) if "layout" in drawing else drawing


def check_drawing(data: dict, territories: list, continents: list, faults: list) -> None:
    drawing = data.get("drawing")
    if drawing is None:
        return
    if not isinstance(drawing, dict):
        faults.append("the drawing must be an object")
        return
    if "layout" in drawing:
        if drawing["layout"] not in layout_names():
            faults.append(f"drawing layout {drawing['layout']!r} is not known "
                          f"({', '.join(layout_names())})")
            return
        # The layout must draw this map as an inline drawing would.
        drawing = layout(drawing["layout"])
    size = (drawing.get("width"), drawing.get("height"))
    for key, value in zip(("width", "height"), size, strict=True):
        if not _number(value) or value <= 0:
            faults.append(f"drawing {key} must be a number above 0")
            size = None
    shapes, labels = drawing.get("shapes"), drawing.get("labels")
    if not isinstance(shapes, dict):
        faults.append("the drawing has no shapes (territory -> SVG path data)")
        shapes = {}
    if not isinstance(labels, dict):
        faults.append("the drawing has no labels (territory -> [x, y])")
        labels = {}
    known = set(territories)
    for t in territories:
        if t not in shapes:
            faults.append(f"territory {t!r} has no shape in the drawing")
        elif not _path(shapes[t]):
            faults.append(f"the shape of {t!r} is not SVG path data")
        point = labels.get(t)
        if point is None:
            faults.append(f"territory {t!r} has no label point in the drawing")
        elif not (isinstance(point, list) and len(point) == 2 and all(map(_number, point))):
            faults.append(f"the label point of {t!r} is not two numbers [x, y]")
        elif size and not (0 <= point[0] <= size[0] and 0 <= point[1] <= size[1]):
            faults.append(f"the label point of {t!r} lies outside the drawing")
    for key, items in (("shape", shapes), ("label point", labels)):
        for t in items:
            if t not in known:
                faults.append(f"the drawing has a {key} for unknown territory {t!r}")
    borders = {frozenset(p) for p in data.get("borders") or [] if isinstance(p, list)}
    land = _check_pairs(drawing, "land_borders", territories, borders, faults)
    sea = _check_pairs(drawing, "sea_lanes", territories, borders, faults)
    for pair in land & sea:
        faults.append(f"drawing: the border {'-'.join(map(repr, sorted(pair)))} is both a land "
                      f"border and a sea lane")
    outlines = drawing.get("continent_outlines", {})
    if not isinstance(outlines, dict):
        faults.append("drawing continent_outlines must map continents to SVG path data")
        return
    for c, d in outlines.items():
        if c not in continents:
            faults.append(f"the drawing outlines unknown continent {c!r}")
        elif not _path(d):
            faults.append(f"the outline of continent {c!r} is not SVG path data")
