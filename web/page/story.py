"""The game page's story in charts: each seat's territories, armies and income per turn,
read from the log, and once a finished game is analysed, each side's win chance with its
turning points. Under fog of war nothing of it is shown before the end."""

from __future__ import annotations

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy

from bots.outlook import margin
from engine.story import Story, series
from games.models import Game
from games.store.row import rules_of
from ratings import analysis, charts, story_words
from ratings.stories import KEPT_SECONDS, story_until
from words import narrator
from words.vocabulary import percent, seat_color

from .finished import KEPT_SECONDS as FINISHED_KEPT_SECONDS
from .finished import version_key

METRICS = (("territories", gettext_lazy("Territories")), ("armies", gettext_lazy("Armies")),
           ("income", gettext_lazy("Reinforcements per turn")))
def _table(rows: list[list], story: Story, names: dict, turns: list[int], show) -> dict:
    return {"head": [narrator.seat_name(s, names) for s in range(story.seats)],
            "rows": [{"turn": turn, "cells": [show(row[i]) for row in rows]}
                     for i, turn in enumerate(turns)]}


def _axis(turns: list[int], drawn: dict) -> dict:
    """The x axis's labels: the first and the last turn, under the chart's ends."""
    return {"first": turns[0], "last": turns[-1], "first_x": drawn["left"],
            "last_x": drawn["width"] - charts.PAD, "y": drawn["height"] + 12}


def _board_charts(story: Story, names: dict) -> list[dict]:
    numbers = series(story)
    found = []
    for key, title in METRICS:
        drawn = charts.lines(numbers[key], low=0)
        if drawn is None:
            continue
        found.append({
            "key": key, "title": title, "chart": _plain(drawn), "axis": _axis(numbers["turns"], drawn),
            "lines": [{"color": seat_color(s), "points": drawn["lines"][s]}
                      for s in range(story.seats) if not story_out_all(numbers[key][s])],
            "table": _table(numbers[key], story, names, numbers["turns"],
                            lambda v: "–" if v is None else v),
        })
    return found


def _plain(drawn: dict) -> dict:
    """A chart as the template reads it: its numbers, without the scale's functions (so a
    finished game's story can be kept in the cache)."""
    return {key: value for key, value in drawn.items() if not callable(value)}


def story_out_all(values: list) -> bool:
    return all(v is None for v in values)


def _win_chart(story: Story, row, names: dict) -> dict:
    chances = [[c * 100 for c in point] for point in row.chances]
    by_side = [[point[side] for point in chances] for side in range(story.teams)]
    drawn = charts.lines(by_side, low=0, high=100)
    turns = [0] + [t.turn for t in story.turns]
    points = [{**p, "number": n, "text": story_words.turning_point_text(p, story, names),
               "x": drawn["x"](p["index"])} for n, p in enumerate(row.turning_points, 1)]
    return {
        "chart": _plain(drawn), "axis": _axis(turns, drawn), "half": drawn["y"](50),
        "lines": [{"color": story_words.side_color(story, side), "points": drawn["lines"][side]}
                  for side in range(story.teams)],
        "sides": [{"name": story_words.side_name(story, side, names),
                   "color": story_words.side_color(story, side)} for side in range(story.teams)],
        "turning_points": points,
        "playouts": row.playouts, "margin": margin(row.playouts),
        "table": {"head": [story_words.side_name(story, side, names)
                           for side in range(story.teams)],
                  "rows": [{"turn": turn, "cells": [percent(c) for c in point]}
                           for turn, point in zip(turns, row.chances, strict=True)]},
    }


def story_context(game: Game, at: int | None, names: dict[int, str]) -> dict | None:
    """What the page's story part shows (`names`: the seats' usernames): None before any
    turn; under fog before the end, only that it is shown then. A finished game's is drawn
    once per version, analysis and move shown, and kept ({"drawn": True, "html"})."""
    if game.status == Game.OPEN:
        return None
    if rules_of(game).fog and not game.is_over:
        return {"fogged": True}
    if game.status != Game.FINISHED:
        return _story_context(game, at, names, None)
    # Drawn once: its tables hold a number per seat and turn, and localising them all cost
    # a long game's page most of its time. A page of its past (?at=N) is kept a while.
    found = analysis.stored(game.pk)
    key = version_key("story-page", game, names, found.state, "end" if at is None else at)
    drawn = cache.get(key)
    if drawn is None:
        drawn = render_to_string("games/_story.html",
                                 {"story": _story_context(game, at, names, found)})
        cache.set(key, drawn, FINISHED_KEPT_SECONDS if at is None else KEPT_SECONDS)
    return {"drawn": True, "html": mark_safe(drawn)}  # noqa: S308 - our own template's


def _story_context(game: Game, at: int | None, names: dict[int, str],
                   found: analysis.Stored | None) -> dict | None:
    story = story_until(game, at)
    if not story.turns:
        return None
    shown = {"fogged": False, "charts": _board_charts(story, names), "win": None,
             "pending": False, "not_analysed": False,
             "players": [{"name": narrator.seat_name(s, names), "color": seat_color(s)}
                         for s in range(story.seats)]}
    if game.status == Game.FINISHED:
        found = found or analysis.stored(game.pk)
        # the row stored() read holds it whole (one query, not a second for done())
        row = found.row if found.state == "done" and found.row.chances else None
        if row is not None:
            whole = story if at is None else story_until(game, None)
            shown["win"] = _win_chart(whole, row, names)
        elif found.state == "pending":
            shown["pending"] = True
        else:  # analysis off, or nothing played out within its ceiling: never "within minutes"
            shown["not_analysed"] = True
    return shown
