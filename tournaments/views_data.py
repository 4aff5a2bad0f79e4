"""A tournament as the API and the pages show it: settings, standings and the bracket.
Only public facts: who sits at which table, each game's status, and placements once a
game is over; the seed only once the tournament is."""

from __future__ import annotations

from django.urls import reverse

from tournaments import services
from tournaments.models import Table, Tournament
from words.vocabulary import STATUS_NAMES


def summary(tournament: Tournament, entries: int | None = None) -> dict:
    return {
        "id": tournament.pk, "name": tournament.name, "format": tournament.format,
        "seats": tournament.seats, "status": tournament.status, "round": tournament.round,
        "map": tournament.map,
        "players": tournament.entries.count() if entries is None else entries,
        "max_players": tournament.max_players,
        "bots_allowed": tournament.bots_allowed,
        "signup_opens": tournament.signup_opens.isoformat(),
        "signup_closes": tournament.signup_closes.isoformat(),
        "url": reverse("tournament", args=[tournament.pk]),
        # in the reader's words, for the pages (the API's clients read `format`, `status`)
        "format_name": str(tournament.get_format_display()),
        "status_name": str(tournament.get_status_display()),
    }


def detail(tournament: Tournament) -> dict:
    tables = list(Table.objects.filter(tournament=tournament).select_related("game"))
    seats = {}
    for table in tables:
        seats[table.pk] = [s.user.get_username() for s in
                           table.game.seats.select_related("user").order_by("seat")]
    bracket: dict[int, list[dict]] = {}
    for table in tables:
        bracket.setdefault(table.round, []).append({
            "number": table.number, "group": table.group, "game": table.game_id,
            "game_url": reverse("game", args=[table.game_id]),
            "status": table.game.status, "players": seats[table.pk],
            "status_name": str(STATUS_NAMES.get(table.game.status, table.game.status)),
            "result": None if table.result is None else [
                {"username": row["username"], "place": row["place"],
                 "through": row["through"]} for row in table.result],
        })
    sat_out: dict[int, list[str]] = {}
    for entry in tournament.entries.select_related("user"):
        for number in entry.byes:
            sat_out.setdefault(number, []).append(entry.user.get_username())
    return {
        **summary(tournament),
        "reason": tournament.reason,
        "advance": tournament.advance, "rounds": tournament.rounds,
        "rules": tournament.rules, "deadline_seconds": tournament.deadline_seconds,
        "clock": tournament.clock,
        "creator": tournament.creator.get_username(),
        "winner": tournament.winner.get_username() if tournament.winner_id else None,
        "seed_hash": tournament.seed_hash,
        "seed": tournament.seed if tournament.is_over else None,
        "standings": [{k: v for k, v in row.items() if k != "user_id"}
                      for row in services.standings(tournament)],
        "bracket": [{"round": number, "tables": rows, "byes": sorted(sat_out.get(number, []))}
                    for number, rows in sorted(bracket.items())],
    }
