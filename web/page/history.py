"""The game page's history: why a moderator paused the game, and a finished game's summary
per seat and the proof that its dice were fair."""

from __future__ import annotations

from django.utils.translation import gettext as _

import engine as rules
from engine import events as ev
from games.boards import board_of_view
from games.models import Event, Game
from lib.numbers import signed
from ratings.luck import luck_by_seat
from words import narrator
from words.vocabulary import FINISH_REASONS, mission_text, seat_color, territory_name


def pause_reason(game: Game) -> str:
    """Why a moderator paused the game: the reason of the last pause (players may read it),
    read from the game's last pause or resumption alone."""
    last = (Event.objects.filter(game=game, type__in=(ev.GAME_PAUSED, ev.GAME_RESUMED))
            .order_by("-seq").values_list("type", "data").first())
    if last is None or last[0] != ev.GAME_PAUSED:
        return ""
    return last[1].get("reason") or ""


def outcome(events: list[dict], names: dict) -> dict | None:
    """How the game ended, from its game_finished event (so a page showing an earlier move
    still says it): who won, their team, and why; None while it is not over."""
    finished = next((e["data"] for e in reversed(events) if e["type"] == ev.GAME_FINISHED),
                    None)
    if finished is None:
        return None
    winner = finished.get("winner")
    winners = finished.get("winners") or ([] if winner is None else [winner])
    return {
        "winner": winner, "winners": winners,
        "winner_name": narrator.seat_name(winner, names),
        "team": narrator.team_words(finished["team"], winners, names)
        if finished.get("team") is not None else "",
        "reason": FINISH_REASONS.get(finished.get("reason"), ""),
    }


def end_summary(view: dict, events: list[dict], names: dict) -> list[dict]:
    """How a finished game went for each seat, from its revealed event log: how it ended
    for them, their secret mission and capital, the sets they traded, their battles."""
    ended = outcome(events, names) or {"winners": []}
    rows = {p["seat"]: {
        "seat": p["seat"], "name": narrator.seat_name(p["seat"], names),
        "color": seat_color(p["seat"]),
        "won": p["seat"] in ended["winners"],
        "outcome": "", "mission": mission_text((p.get("mission") or {}).get("effective")
                                               or (p.get("mission") or {}).get("id")),
        "capital": territory_name(p["capital"], board_of_view(view)) if p.get("capital") else "",
        "sets": 0, "set_armies": 0, "attacks": 0, "conquests": 0,
        "killed": 0, "lost": 0, "eliminated": [],
    } for p in view["players"]}
    for event in events:
        data, kind = event["data"], event["type"]
        if kind == ev.CARDS_TRADED and data.get("seat") in rows:
            row = rows[data["seat"]]
            row["sets"] += 1
            row["set_armies"] += data.get("value") or 0
        elif kind == ev.BATTLE and data.get("seat") in rows:
            row = rows[data["seat"]]
            row["attacks"] += 1
            row["conquests"] += bool(data.get("conquered"))
            row["killed"] += data.get("defender_losses") or 0
            row["lost"] += data.get("attacker_losses") or 0
            if data.get("defender") in rows:
                rows[data["defender"]]["killed"] += data.get("attacker_losses") or 0
                rows[data["defender"]]["lost"] += data.get("defender_losses") or 0
        elif kind == ev.PLAYER_ELIMINATED and data.get("seat") in rows:
            rows[data["seat"]]["outcome"] = _("eliminated by %(by)s") % {
                "by": narrator.seat_name(data.get("by"), names)}
            if data.get("by") in rows:
                rows[data["by"]]["eliminated"].append(narrator.seat_name(data["seat"], names))
        elif kind == ev.PLAYER_DROPPED and data.get("seat") in rows:
            rows[data["seat"]]["outcome"] = (
                _("resigned") if data.get("reason") == "resigned"
                else _("dropped for missed turns") if data.get("reason") == "timeout"
                else _("removed by a moderator"))
    luck = luck_by_seat([e["data"] for e in events if e["type"] == ev.BATTLE], len(rows))
    for seat, row in rows.items():
        if seat in luck and luck[seat].battles:
            row["luck"] = signed(luck[seat].net, 1)
    for row in rows.values():
        if row["won"]:
            row["outcome"] = _("won")
        elif not row["outcome"]:
            row["outcome"] = _("still in the game at the end")
    return sorted(rows.values(), key=lambda row: (not row["won"], row["seat"]))


def verification(record: dict, seed_hash: str) -> dict:
    """A finished game's record (games.seat_views.record) checked, draw by draw."""
    result = rules.verify(record)
    return {"ok": result.ok, "checked": result.checked_draws, "problems": result.problems[:10],
            "seed": record["seed"], "server_seed": record["server_seed"],
            "contributions": record["contributions"], "seed_hash": seed_hash}


def steps(at: int | None, version: int) -> dict:
    """Where the history view's step links lead from the move shown (`at`, None for the
    present): the first move, one back, one forward, the present; None where there is no
    going. The present is the page without ?at, so the address always names the move shown."""
    position = version if at is None else at
    return {
        "position": position,
        "first": 1 if position > 1 else None,
        "back": position - 1 if position > 1 else None,
        "forward": position + 1 if position < version else None,
        "last": position < version,
    }
