"""Whether the credentials that opened a process's streams still hold: the very token
(still there, not idle too long) or the session (still there, signed in with the
password the account has now, as django.contrib.auth.get_user checks it), the account
still active, and for a private game's stream the caller still let in (games.visibility).
One batch of a few indexed queries answers for every open stream of the process."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta
from importlib import import_module

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils import timezone
from django.utils.crypto import constant_time_compare

from accounts.models import ApiToken, digest
from games import visibility

# Rows asked for in one query at most (a long IN list is slow to plan, and SQLite caps its
# parameters).
CHUNK = 500


@dataclass(frozen=True)
class Credential:
    """What opened a stream: a user's token (its digest) or session (its key), and for a
    private game's stream, that game."""

    user_id: int
    token: str | None = None
    session: str | None = None
    game: int | None = None

    def following(self, game_id: int) -> Credential:
        return replace(self, game=game_id)


def of(request, user) -> Credential | None:
    """The credential a DRF request was authenticated with (None: signed out)."""
    if not user.is_authenticated:
        return None
    if isinstance(request.auth, str):  # accounts.tokens: the key itself
        return Credential(user.pk, token=digest(request.auth))
    return Credential(user.pk, session=request.session.session_key)


def holding(credentials) -> set[Credential]:
    """Those of `credentials` that still hold now."""
    credentials = list(credentials)
    passwords = dict(_chunked(
        lambda ids: get_user_model().objects.filter(pk__in=ids, is_active=True)
        .values_list("pk", "password"), {c.user_id for c in credentials}))
    tokens = {token: (user_id, used) for token, user_id, used in _chunked(
        lambda digests: ApiToken.objects.filter(digest__in=digests)
        .values_list("digest", "user_id", "last_used_at"),
        {c.token for c in credentials if c.token is not None})}
    sessions = _sessions({c.session for c in credentials if c.session is not None})
    sights = visibility.seeing({(c.game, c.user_id) for c in credentials
                                 if c.game is not None})
    idle_since = timezone.now() - timedelta(days=settings.CONQUEST_API_TOKEN_IDLE_DAYS)

    def holds(credential: Credential) -> bool:
        password = passwords.get(credential.user_id)
        if password is None:
            return False  # closed, or gone
        if credential.token is not None:
            user_id, used = tokens.get(credential.token, (None, None))
            if user_id != credential.user_id or (used is not None and used < idle_since):
                return False
        if credential.session is not None and not _signed_in(
                sessions.get(credential.session), credential.user_id, password):
            return False
        return credential.game is None or (credential.game, credential.user_id) in sights

    return {credential for credential in credentials if holds(credential)}


def _chunked(query, keys) -> list:
    keys = sorted(k for k in keys if k is not None)
    return [row for at in range(0, len(keys), CHUNK) for row in query(keys[at:at + CHUNK])]


def _sessions(keys) -> dict[str, dict]:
    """The data of each session still there and not expired, by its key."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    if not keys:
        return {}
    if hasattr(store, "get_model_class"):  # the database's (db, cached_db): one query
        rows = _chunked(lambda some: store.get_model_class().objects.filter(
            session_key__in=some, expire_date__gt=timezone.now())
            .values_list("session_key", "session_data"), keys)
        return {key: store().decode(data) for key, data in rows}
    return {key: store(key).load() for key in keys}  # a cache's, a cookie's


def _signed_in(session: dict | None, user_id: int, password: str) -> bool:
    """Whether the session signs in `user_id` with the password the account has now."""
    if not session or str(session.get(SESSION_KEY)) != str(user_id):
        return False
    signed = session.get(HASH_SESSION_KEY)
    if not signed:
        return False
    user = get_user_model()(pk=user_id, password=password)
    return constant_time_compare(signed, user.get_session_auth_hash()) or any(
        constant_time_compare(signed, fallback)
        for fallback in user.get_session_auth_fallback_hash())
