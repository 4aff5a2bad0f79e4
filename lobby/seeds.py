"""Server seeds drawn ahead: the seed of the next game a player creates, or of the rematch
they offer, drawn and its hash published before they send it any entropy, so that their
own contribution too reaches the server after the seed is committed (a joiner's always
does: the game and its seed exist before the join).

A player reads it (`next_for`, drawn the first time and the same until used), then creates
or offers; the game (or the offer) takes it (`take`) and keeps when it was committed. A
player who never read one gets a seed drawn with the game, as before."""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction

from games.models import SeedAhead


def next_for(user) -> SeedAhead:
    """The seed `user`'s next game or rematch offer will take (only its hash is shown)."""
    found = SeedAhead.objects.filter(user_id=user.pk).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return SeedAhead.objects.create(user_id=user.pk)
    except IntegrityError:  # drawn by another request at the same moment: that one
        return SeedAhead.objects.get(user_id=user.pk)


def take(user) -> tuple[str, datetime] | None:
    """Inside the caller's transaction: `user`'s seed drawn ahead, used up (no two games
    ever share it), with when it was committed; None if they never read one."""
    if user is None or user.pk is None:
        return None
    found = SeedAhead.objects.select_for_update().filter(user_id=user.pk).first()
    if found is None:
        return None
    SeedAhead.objects.filter(pk=found.pk).delete()
    return found.seed, found.committed_at
