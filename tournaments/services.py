"""Tournaments' write path: sign-up, the fair draw of each round, counting a finished round
(the moderators' actions are tournaments.moderators'). check_* validates, do_* and the rest
write.

A round's games are ordinary games made through lobby.open_games (rated, the tournament's
rules), so everything about playing them, their mail and their moderation is the games'.
When every game of the round is over the worker counts it (tournaments.tasks): knockout
takes the best `advance` of each game (fewer if the table is that small) into the next
round, until one game is left whose winner wins; round robin keeps its groups and adds
placement points each round, for `rounds` rounds.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from accounts.bots import is_bot_account
from accounts.models import lock_account
from games.errors import ServiceError
from games.models import Game
from lib.reactions import announce
from lobby import open_games as games
from ratings.finished import read_finished
from tournaments import draw
from tournaments.checks import check_tournament
from tournaments.models import Entry, Table, Tournament
from words import titles


def create_tournament(user, data) -> Tournament:
    fields = check_tournament(data)
    return Tournament.objects.create(creator=user, **fields)


def lock_tournament(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def sign_up(tournament: Tournament, user) -> Entry:
    with transaction.atomic():
        locked = lock_tournament(tournament)
        now = timezone.now()
        if locked.status != Tournament.SIGNUP or now >= locked.signup_closes:
            raise ServiceError(400, "signup_closed", "sign-up for this tournament is closed")
        if now < locked.signup_opens:
            raise ServiceError(400, "signup_not_open", "sign-up has not opened yet")
        if Entry.objects.filter(tournament=locked, user=user).exists():
            raise ServiceError(400, "already_entered", "you are already signed up")
        # The account's row is locked as lobby.bot_accounts.convert locks it: a conversion
        # under way finishes first (and is seen), or waits and then sees this entry.
        lock_account(user)
        if not locked.bots_allowed and is_bot_account(user, fresh=True):
            raise ServiceError(403, "bots_not_allowed",
                               "this tournament does not allow bot accounts")
        if Entry.objects.filter(tournament=locked).count() >= locked.max_players:
            raise ServiceError(400, "tournament_full", "the tournament is full")
        return Entry.objects.create(tournament=locked, user=user)


def entered_as_person(user) -> str | None:
    """the wiring's BOT_ACCOUNT_CHECKS: an account signed up for a tournament that
    refuses bots may not become one until that tournament is over."""
    if Entry.objects.filter(user=user, tournament__bots_allowed=False).exclude(
            tournament__status__in=(Tournament.FINISHED, Tournament.CANCELLED)).exists():
        return "you are signed up for a tournament that does not allow bot accounts"
    return None


def withdraw(tournament: Tournament, user) -> None:
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if locked.status != Tournament.SIGNUP:
            raise ServiceError(400, "signup_closed", "the tournament has started: resign "
                               "your games to leave it")
        if not Entry.objects.filter(tournament=locked, user=user).delete()[0]:
            raise ServiceError(400, "not_entered", "you are not signed up")


# ---- the draw and the rounds -----------------------------------------------------------
def close_signup(tournament: Tournament) -> bool:
    """Sign-up is over: draw the first round, or cancel if fewer than two entered."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if locked.status != Tournament.SIGNUP:
            return False
        entries = {e.user_id: e for e in Entry.objects.filter(tournament=locked)}
        if len(entries) < 2:
            # Shown in the reader's language on the page (the template translates it).
            reason = gettext_noop("fewer than two players signed up")
            end_tournament(locked, Tournament.CANCELLED, reason=reason)
            tell(locked, list(entries), {"what": "cancelled", "reason": reason})
            return True
        order = draw.drawn(locked.seed, locked.draw_id, list(entries), 1)
        if locked.format == Tournament.ROUND_ROBIN:
            grouped = draw.groups(order, locked.seats)
            tables, out = draw.round_robin(grouped, locked.seats, 1)
        else:
            grouped = []
            tables, out = draw.knockout(order, locked.seats, {})
        group_of = {user: number for number, members in enumerate(grouped) for user in members}
        for position, user_id in enumerate(order):
            entry = entries[user_id]
            entry.draw_order, entry.group = position, group_of.get(user_id)
            entry.save(update_fields=["draw_order", "group"])
        Tournament.objects.filter(pk=locked.pk).update(status=Tournament.RUNNING)
        locked.status = Tournament.RUNNING
        _start_round(locked, 1, tables, out)
    return True


def _start_round(tournament: Tournament, round_number: int, tables: list[list[int]],
                 out: list[int]) -> None:
    """Create the round's games, seated in the order given, note who sits it out, and
    tell the players (those sitting out too)."""
    User = get_user_model()
    users = User.objects.in_bulk([u for table in tables for u in table])
    Tournament.objects.filter(pk=tournament.pk).update(round=round_number)
    tournament.round = round_number
    for entry in Entry.objects.filter(tournament=tournament, user_id__in=out):
        entry.byes = [*entry.byes, round_number]
        entry.save(update_fields=["byes"])
    if out:
        # Those sitting out hear of it too: a knockout's bye goes through, a round robin's
        # counts as a win at a full table (_next_round_robin_round).
        knockout = tournament.format == Tournament.KNOCKOUT
        tell(tournament, out, {"what": "bye", "round": round_number, "knockout": knockout,
                                "points": None if knockout else _points(1, tournament.seats)})
    for number, members in enumerate(tables, start=1):
        seated = [users[u] for u in members]
        title = titles.tournament_game(tournament.pk, tournament.name, round_number, number)
        # Its bot accounts (if it allows any) take their seats as anyone. The table is made
        # for its first player, not by them: the seed drawn ahead for them stays theirs.
        game = games.create_game(seated[0], titles.plain_name(title)[:100], len(seated),
                                 tournament.rules, clock=tournament.clock or None, rated=True,
                                 bots_allowed=tournament.bots_allowed, map_id=tournament.map,
                                 seed_ahead=False, title=title)
        for user in seated[1:]:
            games.join_game(game, user)
        group = (Entry.objects.filter(tournament=tournament, user_id=members[0])
                 .values_list("group", flat=True).first())
        table = Table.objects.create(tournament=tournament, round=round_number, number=number,
                                     group=group, game=game)
        tell(tournament, members, {"what": "round", "round": round_number,
                                    "table": number}, game=table.game)


def _sitting_out(tournament: Tournament, round_number: int) -> list[int]:
    return [e.user_id for e in Entry.objects.filter(tournament=tournament)
            if round_number in e.byes]


def _table_result(tournament: Tournament, table: Table, finished) -> list[dict]:
    """[{user_id, username, place, through}] best first: the game's placements (ties go to
    the earlier seat, which the fair draw chose)."""
    names = dict(table.game.seats.values_list("user_id", "user__username"))
    seat_users = dict(table.game.seats.values_list("seat", "user_id"))
    places = finished.places if finished is not None else {s: 1 for s in seat_users}
    ranked = sorted(seat_users, key=lambda seat: (places.get(seat, len(seat_users)), seat))
    through = min(tournament.advance, len(ranked) - 1) or 1
    return [{"user_id": seat_users[seat], "username": names[seat_users[seat]],
             "place": places.get(seat), "seat": seat, "through": index < through}
            for index, seat in enumerate(ranked)]


def advance(tournament: Tournament) -> bool:
    """Count the current round if all its games are over and start the next one (or end
    the tournament). Idempotent: a round is counted once, under the tournament's lock."""
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if locked.status != Tournament.RUNNING:
            return False
        tables = list(Table.objects.filter(tournament=locked, round=locked.round)
                      .select_related("game"))
        if not tables or any(not t.game.is_over for t in tables):
            return False
        over = [t.game for t in tables if t.game.status == Game.FINISHED]
        facts = {f.game_id: f for f in read_finished(over)}
        for table in tables:
            table.result = _table_result(locked, table, facts.get(table.game_id))
            table.save(update_fields=["result"])
        if locked.format == Tournament.KNOCKOUT:
            _next_knockout_round(locked, tables)
        else:
            _next_round_robin_round(locked, tables)
    return True


def _next_knockout_round(tournament: Tournament, tables: list[Table]) -> None:
    sat_out = _sitting_out(tournament, tournament.round)
    if len(tables) == 1 and not sat_out:
        ranked = tables[0].result
        _knock_out(tournament, [row["user_id"] for row in ranked[1:]])
        _finish(tournament, ranked[0]["user_id"])
        return
    # A bye goes through without a game.
    through = [row["user_id"] for t in tables for row in t.result if row["through"]] + sat_out
    _knock_out(tournament, [row["user_id"] for t in tables for row in t.result
                            if not row["through"]])
    if len(through) == 1:
        _finish(tournament, through[0])
        return
    number = tournament.round + 1
    byes_so_far = {e.user_id: len(e.byes) for e in
                   Entry.objects.filter(tournament=tournament, user_id__in=through)}
    order = draw.drawn(tournament.seed, tournament.draw_id, through, number)
    _start_round(tournament, number, *draw.knockout(order, tournament.seats, byes_so_far))


def _knock_out(tournament: Tournament, user_ids: list[int]) -> None:
    Entry.objects.filter(tournament=tournament, user_id__in=user_ids).update(
        out_in_round=tournament.round)
    tell(tournament, user_ids, {"what": "out", "round": tournament.round})


def _next_round_robin_round(tournament: Tournament, tables: list[Table]) -> None:
    for table in tables:
        size = len(table.result)
        for row in table.result:
            place = row["place"] or size
            Entry.objects.filter(tournament=tournament, user_id=row["user_id"]).update(
                points=F("points") + _points(place, size))
    # A bye counts as a win at a full table (FIDE's pairing-allocated bye: a win's points),
    # so the group that takes turns sitting out is not behind the others.
    Entry.objects.filter(tournament=tournament,
                         user_id__in=_sitting_out(tournament, tournament.round)).update(
        points=F("points") + _points(1, tournament.seats))
    if tournament.round >= tournament.rounds:
        best = standings(tournament)[0]
        _finish(tournament, best["user_id"])
        return
    groups: dict[int, list[int]] = {}
    for entry in Entry.objects.filter(tournament=tournament).order_by("draw_order"):
        groups.setdefault(entry.group, []).append(entry.user_id)
    number = tournament.round + 1
    _start_round(tournament, number, *draw.round_robin(
        [members for _, members in sorted(groups.items())], tournament.seats, number))


def _points(place: int, size: int) -> int:
    """Placement points: one for each player finished ahead of."""
    return size - place


def _finish(tournament: Tournament, winner_id: int) -> None:
    end_tournament(tournament, Tournament.FINISHED, winner_id)
    everyone = list(Entry.objects.filter(tournament=tournament).values_list("user_id",
                                                                           flat=True))
    winner = get_user_model().objects.get(pk=winner_id)
    tell(tournament, everyone, {"what": "finished", "winner": winner.get_username()})


def end_tournament(tournament: Tournament, status: str, winner_id: int | None = None,
         reason: str = "") -> None:
    now = timezone.now()
    Tournament.objects.filter(pk=tournament.pk).update(status=status, winner_id=winner_id,
                                                       finished_at=now, reason=reason)
    tournament.status, tournament.winner_id, tournament.finished_at = status, winner_id, now
    tournament.reason = reason


def standings(tournament: Tournament) -> list[dict]:
    """Every entry, best first: the winner, then by points (round robin) or by the round
    they went out in (knockout, later is better), then the draw order."""
    rows = []
    for entry in Entry.objects.filter(tournament=tournament).select_related("user"):
        still_in = entry.out_in_round is None
        rows.append({
            "user_id": entry.user_id, "username": entry.user.get_username(),
            "points": entry.points if tournament.format == Tournament.ROUND_ROBIN else None,
            "group": entry.group, "out_in_round": entry.out_in_round,
            "winner": entry.user_id == tournament.winner_id,
            "_key": (entry.user_id != tournament.winner_id, -entry.points,
                     -(entry.out_in_round or 10_000) if not still_in else -10_001,
                     entry.draw_order if entry.draw_order is not None else 10_000,
                     entry.joined_at),
        })
    rows.sort(key=lambda row: row["_key"])
    for rank, row in enumerate(rows, start=1):
        row.pop("_key")
        row["rank"] = rank
    return rows


# ---- mail ------------------------------------------------------------------------------
def tell(tournament: Tournament, user_ids, payload: dict, game: Game | None = None) -> None:
    """News for the participants named (config/reactions.py: "tournament_news"; their mail),
    in this transaction; bot accounts are not told."""
    bots = set(get_user_model().objects.filter(pk__in=user_ids, is_active=False)
               .values_list("pk", flat=True))
    announce("tournament_news", tournament, [u for u in user_ids if u not in bots], payload,
             game)


def due_for_draw(now=None) -> list[int]:
    now = now or timezone.now()
    return list(Tournament.objects.filter(status=Tournament.SIGNUP, signup_closes__lte=now)
                .values_list("pk", flat=True))


def running() -> list[int]:
    return list(Tournament.objects.filter(status=Tournament.RUNNING)
                .values_list("pk", flat=True))
