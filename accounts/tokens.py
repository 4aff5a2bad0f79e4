"""API tokens: issued on sign-up and by `POST /api/v1/auth/token/`, stored as a SHA-256
digest, refused once idle for CONQUEST_API_TOKEN_IDLE_DAYS, revoked by a password change
or `DELETE /api/v1/auth/token/`.

The lookup is one plain query (DRF's own compiles a join through the ORM for every
request, which costs more than the rest of a command's reads together)."""

from __future__ import annotations

import secrets
from datetime import timedelta
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from rest_framework import authentication, exceptions

from accounts.models import ApiToken, digest
from lib import sql

# A token's last use is written at most this often: not a write per request.
TOUCH_EVERY = timedelta(hours=1)


def issue(user) -> str:
    """A new key for `user`; only its digest is kept, so this is the one time it is seen."""
    key = secrets.token_hex(20)
    ApiToken.objects.create(user=user, digest=digest(key), last_used_at=timezone.now())
    return key


def revoke(user, key: str | None = None) -> int:
    """Revoke one key of `user` (or all of them): how many were revoked."""
    tokens = ApiToken.objects.filter(user=user)
    if key is not None:
        tokens = tokens.filter(digest=digest(key))
    return tokens.delete()[0]


class TokenAuthentication(authentication.TokenAuthentication):
    """`Authorization: Token <key>`, answered as DRF's TokenAuthentication answers. A
    subclass may read more in the lookup's one statement (`along`, `received`)."""

    def authenticate(self, request):
        self.request = request
        return super().authenticate(request)

    def along(self, request) -> tuple[str, tuple, list]:
        """What else to read with the token: (joins, columns as ((SQL expression, field or
        None), ...), the params of the columns then of the joins, in that order). The
        columns' values go to `received` if the token is known."""
        return "", (), []

    def received(self, request, values: list) -> None:
        """The values of `along`'s columns, read with a known token."""

    def authenticate_credentials(self, key):
        User = get_user_model()
        where, joins, extra = _query(connection.vendor)
        more_joins, more, params = self.along(self.request)
        user, found = sql.instance_with(User, where, [*params, digest(key)],
                                        joins=f"{joins} {more_joins}", extra=extra + more,
                                        only=_user_fields(User))
        if user is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        token_id, last_used, *values = found[0]
        if more:
            self.received(self.request, values)
        now = timezone.now()
        idle = timedelta(days=settings.CONQUEST_API_TOKEN_IDLE_DAYS)
        if last_used is not None and now - last_used > idle:
            ApiToken.objects.filter(pk=token_id).delete()
            raise exceptions.AuthenticationFailed(
                ngettext("Token expired: it was not used for %(days)s day; ask for a new one.",
                         "Token expired: it was not used for %(days)s days; ask for a new one.",
                         settings.CONQUEST_API_TOKEN_IDLE_DAYS)
                % {"days": settings.CONQUEST_API_TOKEN_IDLE_DAYS})
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        if last_used is None or now - last_used > TOUCH_EVERY:
            ApiToken.objects.filter(pk=token_id).update(last_used_at=now)
        return user, key


@lru_cache(maxsize=4)
def _user_fields(User) -> tuple:
    """What a request signed in by token asks of its user; the rest (the password hash,
    the times of sign-up and last sign-in, the names) is read only if asked for."""
    skipped = {"password", "last_login", "date_joined", "first_name", "last_name"}
    return tuple(f.attname for f in User._meta.concrete_fields if f.name not in skipped)


@lru_cache(maxsize=4)
def _query(vendor: str) -> tuple[str, str, tuple]:
    User = get_user_model()
    return (f"t.{sql.quote('digest')} = %s",
            f"JOIN {sql.table(ApiToken)} t ON t.{sql.quote('user_id')} = "
            f"{sql.table(User)}.{sql.quote(User._meta.pk.column)}",
            ((f"t.{sql.quote('id')}", ApiToken._meta.pk),
             (f"t.{sql.quote('last_used_at')}", ApiToken._meta.get_field("last_used_at"))))
