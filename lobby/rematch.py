"""Rematches: a player of a finished game offers to play it again; every other human seat
accepts with one click (or one call), and the new game is made and started at once when the
last one has (same people in the same seats, so the same teams; computer players' seats
taken by computer players of their level; the same rules, deadline, clock and rating
choice; a new seed). Any one of them may decline, which ends the offer.

The new game's server seed is drawn with the offer (or ahead of it for the player offering,
lobby.seeds) and its hash published in the offer's answer, so every yes (and the entropy it
carries) reaches the server after the seed is committed, as a join does in the lobby.

What follows from an offer or a refusal (the other players' notifications) is a reaction
declared in the wiring's REACTIONS["rematch"], handed a RematchNews in the offer's
transaction: games/ knows no consumer of it. The new game's start is a command through
games.service like any game's (its "game started" mail comes from there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.db import transaction
from django.utils.timezone import now

from games.errors import ServiceError
from games.models import Game, Rematch, RematchAnswer, Seat, new_seed
from lib.reactions import announce
from lobby import open_games, seeds
from lobby.new_game import check_entropy

OFFERED, DECLINED = "offered", "declined"


@dataclass(frozen=True)
class RematchNews:
    """What a rematch reaction is told: the finished game, what happened (OFFERED,
    DECLINED), by whom, and the users to tell (the other human players)."""

    game: Game
    rematch: Rematch
    what: str
    by: object  # the user who offered or declined
    tell: list[int]


def humans(game: Game) -> dict[int, object]:
    """The finished game's human seats: seat -> user (a seat a computer player took over
    from a dropped player is still that player's)."""
    return {seat.seat: seat.user for seat in
            Seat.objects.filter(game=game, bot__isnull=True).select_related("user")}


def computer_seats(game: Game) -> dict[int, str]:
    return dict(Seat.objects.filter(game=game, bot__isnull=False).values_list("seat", "bot"))


def rematch_of(game: Game) -> Rematch | None:
    return Rematch.objects.filter(game=game).first()


def _checked(game: Game, user) -> int:
    """The user's human seat in the finished game, or why they may not answer."""
    if game.status != Game.FINISHED:
        raise ServiceError(400, "game_not_finished",
                           "a rematch can be offered only once the game is over")
    seat = Seat.objects.filter(game=game, user=user, bot__isnull=True).values_list(
        "seat", flat=True).first()
    if seat is None:
        raise ServiceError(403, "not_seated", "only the game's players can play it again")
    return seat


def offer_or_accept(game: Game, user, entropy=None) -> tuple[Rematch, bool]:
    """The user's yes: it offers the rematch if nobody has yet, else accepts it (again is
    harmless). When every human seat has said yes, the new game starts. Returns the
    rematch and whether this call offered it. `entropy`: the player's contribution to the
    new game's seed."""
    entropy = check_entropy(entropy)
    seat = _checked(game, user)
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)  # one answer at a time
        rematch, offered = rematch_of(game), False
        if rematch is None:
            ahead = seeds.take(user)  # the offerer's, if they read one before offering
            rematch, offered = Rematch.objects.create(
                game=game, offered_by=user, seed=ahead[0] if ahead else new_seed(),
                seed_committed_at=ahead[1] if ahead else None), True
        if rematch.status == Rematch.DECLINED:
            raise ServiceError(400, "rematch_declined",
                               "the rematch was declined: it is off")
        if rematch.status == Rematch.OPEN:
            RematchAnswer.objects.get_or_create(rematch=rematch, user=user, defaults={
                "seat": seat, "entropy": entropy})
            people = humans(game)
            if offered:
                _tell(RematchNews(game, rematch, OFFERED, user,
                                  [u.pk for s, u in people.items() if s != seat]))
            _start_when_all_accepted(game, rematch, people)
    return rematch, offered


def decline(game: Game, user) -> Rematch:
    """The user's no: the offer is off for everyone."""
    seat = _checked(game, user)
    with transaction.atomic():
        Game.objects.select_for_update().get(pk=game.pk)
        rematch = rematch_of(game)
        if rematch is None:
            raise ServiceError(400, "no_rematch", "nobody has offered a rematch of this game")
        if rematch.status == Rematch.STARTED:
            raise ServiceError(400, "rematch_started", "the rematch has already started")
        if rematch.status == Rematch.DECLINED:
            raise ServiceError(400, "rematch_declined", "the rematch was declined already")
        rematch.declined_by, rematch.declined_at = user, now()
        rematch.save(update_fields=["declined_by", "declined_at"])
        _tell(RematchNews(game, rematch, DECLINED, user,
                          [u.pk for s, u in humans(game).items() if s != seat]))
    return rematch


def _start_when_all_accepted(game: Game, rematch: Rematch, people: dict) -> None:
    answers = {a.user_id: a for a in rematch.answers.all()}
    if any(user.pk not in answers for user in people.values()):
        return
    seated = {seat: (user, answers[user.pk].entropy) for seat, user in people.items()}
    rematch.new_game = open_games.create_full_game(rematch.offered_by, game, next_name(game.name),
                                              seated, computer_seats(game), rematch.seed,
                                              rematch.seed_committed_at or rematch.created_at)
    rematch.save(update_fields=["new_game"])


def next_name(name: str) -> str:
    """The rematch's name: "Friday night" is followed by "Friday night #2", then "#3"."""
    found = re.fullmatch(r"(.*) #(\d{1,6})", name)
    base, number = (found.group(1), int(found.group(2)) + 1) if found else (name, 2)
    suffix = f" #{number}"
    return base[:100 - len(suffix)] + suffix


def _tell(news: RematchNews) -> None:
    announce("rematch", news)


def state_of(game: Game, viewer=None) -> dict | None:
    """The rematch of a finished game as the API and the page show it, or None if nobody
    offered one: {status, offered_by, declined_by, game, seed_hash, seats: [{seat,
    username, bot, accepted}], waiting_for, you: {accepted} | null}. `seed_hash` commits
    the new game's server seed (null for an offer made before seeds were drawn with it)."""
    rematch = (Rematch.objects.filter(game=game)
               .select_related("offered_by", "declined_by").first())
    if rematch is None:
        return None
    accepted = set(rematch.answers.values_list("user_id", flat=True))
    seats = []
    for seat in Seat.objects.filter(game=game).select_related("user").order_by("seat"):
        seats.append({"seat": seat.seat, "username": seat.user.username, "bot": seat.bot,
                      "accepted": True if seat.bot else seat.user_id in accepted})
    viewer_id = getattr(viewer, "pk", None)
    mine = next((s for s in Seat.objects.filter(game=game, user_id=viewer_id, bot__isnull=True)
                 .values_list("user_id", flat=True)), None)
    return {
        "status": rematch.status,
        "offered_by": rematch.offered_by.username,
        "declined_by": rematch.declined_by.username if rematch.declined_by else None,
        "game": rematch.new_game_id,
        "seed_hash": rematch.seed_hash,
        "seats": seats,
        "waiting_for": [s["username"] for s in seats if not s["accepted"]]
        if rematch.status == Rematch.OPEN else [],
        "you": None if mine is None else {"accepted": mine in accepted},
    }
