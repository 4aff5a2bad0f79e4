"""What a moderator does to a tournament: call it off, put one player in another's place, or
try again a step that held it up.
A moderator who entered it does neither (403 own_game), nor acts on any of its games: its
games are a stake of every entrant (games_entered, in the wiring's MODERATOR_STAKES)."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from accounts.bots import is_bot_account
from games.errors import ServiceError
from games.models import Game
from games.moderation import REPLACE, check_moderator, moderate
from tournaments import services, steps
from tournaments.models import Entry, Table, Tournament
from tournaments.services import end_tournament, lock_tournament, tell

log = logging.getLogger(__name__)


def games_entered(user):
    """The games of the tournaments `user` entered, a stake in each of them
    (the wiring's MODERATOR_STAKES): an entrant who moderates could favour their own
    standing there, so another moderator acts on them."""
    return Table.objects.filter(tournament__entries__user_id=user.pk).values("game_id")


def check_not_entered(tournament: Tournament, moderator) -> None:
    if Entry.objects.filter(tournament=tournament, user_id=moderator.pk).exists():
        raise ServiceError(403, "own_game", "you entered this tournament: another moderator "
                           "must act here")


def cancel(tournament: Tournament, moderator, reason: str = "") -> Tournament:
    """A moderator who did not enter calls the tournament off: it ends, and its running
    games are aborted through the games' own moderator action."""
    check_moderator(moderator)
    check_not_entered(tournament, moderator)
    if not isinstance(reason, str) or len(reason) > 500:
        raise ServiceError(400, "bad_request", "the reason must be text of at most 500 chars")
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if locked.is_over:
            raise ServiceError(400, "tournament_over", "the tournament is already over")
        end_tournament(locked, Tournament.CANCELLED, reason=reason)
        everyone = list(Entry.objects.filter(tournament=locked).values_list("user_id",
                                                                           flat=True))
        tell(locked, everyone, {"what": "cancelled", "reason": reason})
    for table in Table.objects.filter(tournament=locked).select_related("game"):
        if table.game.status in (Game.ACTIVE, Game.PAUSED):
            try:
                moderate(table.game, moderator, "abort", reason or "tournament cancelled")
            except ServiceError as refused:
                log.warning("tournament %s: game %s not aborted: %s", locked.pk,
                            table.game_id, refused.detail)
    return locked


def retry(tournament: Tournament, moderator) -> Tournament:
    """A moderator who did not enter tries again the step that held the tournament up
    (once its cause is mended): the first draw if none was made, else the round's count.
    Failing again, it is held up again with the new reason."""
    check_moderator(moderator)
    check_not_entered(tournament, moderator)
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if locked.status != Tournament.STALLED:
            raise ServiceError(400, "not_held_up", "the tournament is not held up")
        locked.status = Tournament.SIGNUP if locked.round == 0 else Tournament.RUNNING
        Tournament.objects.filter(pk=locked.pk).update(status=locked.status, reason="")
    step = services.close_signup if locked.status == Tournament.SIGNUP else services.advance
    steps.attempt(step, locked)
    locked.refresh_from_db()
    return locked


def queue_rows(moderator) -> list[dict]:
    """The moderators' queue lists held-up tournaments with why (moderation.queue)."""
    return [{"url": reverse("tournament", args=[t.pk]), "name": t.name, "note": t.reason}
            for t in steps.held_up()]


def replace(tournament: Tournament, moderator, leaving, joining, reason: str = "") -> Entry:
    """A moderator who did not enter puts `joining` in `leaving`'s place: their entry, and
    their seat in the current round's game through the games' replace_player action."""
    check_moderator(moderator)
    check_not_entered(tournament, moderator)
    User = get_user_model()
    old = User.objects.filter(username__iexact=leaving).first() if isinstance(
        leaving, str) else None
    new = User.objects.filter(username__iexact=joining).first() if isinstance(
        joining, str) else None
    if old is None or new is None or not new.is_active:
        raise ServiceError(400, "bad_request", "name the player leaving and an active "
                           "player joining")
    if new.pk == moderator.pk:
        raise ServiceError(403, "own_game", "you may not put yourself in: another moderator "
                           "must")
    if is_bot_account(new, fresh=True):
        # A bot account enters only a tournament it signed up for itself.
        raise ServiceError(403, "not_your_bot", f"{new} is a bot account: it plays only "
                           "where its owner allowed it, and is put in no one's place")
    with transaction.atomic():
        locked = lock_tournament(tournament)
        if locked.is_over:
            raise ServiceError(400, "tournament_over", "the tournament is already over")
        entry = Entry.objects.filter(tournament=locked, user=old).first()
        if entry is None:
            raise ServiceError(400, "not_entered", f"{old} is not in this tournament")
        if Entry.objects.filter(tournament=locked, user=new).exists():
            raise ServiceError(400, "already_entered", f"{new} is already in it")
        table = (Table.objects.filter(tournament=locked, round=locked.round,
                                      game__seats__user=old).select_related("game").first())
        if table is not None and not table.game.is_over:
            seat = table.game.seats.get(user=old).seat
            moderate(table.game, moderator, REPLACE, reason or "tournament replacement",
                     seat=seat, replacement=new)
        Entry.objects.filter(pk=entry.pk).update(user=new)
        entry.refresh_from_db()
    return entry
