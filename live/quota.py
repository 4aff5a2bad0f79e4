"""How many streams each user (or signed-out address) holds open across all the site's
server processes: a lease per stream, in Redis when the streams have it
(CONQUEST_STREAM_REDIS_URL), else in the database. The hub renews its open streams' leases
every LEASE_SECONDS / 3, so those of a process that died lapse within LEASE_SECONDS."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass

import redis
from django.conf import settings
from django.db import connection, transaction

from live.models import StreamLease

LEASE_SECONDS = 60.0


@dataclass(frozen=True)
class Lease:
    """One open stream's place: whose count it is in, and its own id there."""
    counted: str
    id: str


# Atomic in Redis: drop the lapsed, count the rest, add one if under the cap.
_TAKE = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""
_clients: dict[str, redis.Redis] = {}


def _redis() -> redis.Redis | None:
    url = settings.CONQUEST_STREAM_REDIS_URL
    if not url:
        return None
    if url not in _clients:
        _clients[url] = redis.Redis.from_url(url)
    return _clients[url]


def _key(counted: str) -> str:
    # The channel's name holds the database's: two sites sharing one Redis count apart.
    return f"{settings.CONQUEST_STREAM_CHANNEL}:streams:{counted}"


def take(counted, cap: int, now: float | None = None) -> Lease | None:
    """A lease for one more stream of `counted`, or None if it holds `cap` already."""
    now, counted = time.time() if now is None else now, str(counted)
    client = _redis()
    if client is not None:
        lease = Lease(counted, uuid.uuid4().hex)
        taken = client.eval(_TAKE, 1, _key(counted), now, now + LEASE_SECONDS, cap, lease.id,
                            int(LEASE_SECONDS) + 1)
        return lease if taken else None
    with transaction.atomic():
        if connection.vendor == "postgresql":  # SQLite's transactions here are IMMEDIATE
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))",
                               [f"stream-lease:{counted}"])
        StreamLease.objects.filter(counted=counted, expires__lte=now).delete()
        if StreamLease.objects.filter(counted=counted).count() >= cap:
            return None
        row = StreamLease.objects.create(counted=counted, expires=now + LEASE_SECONDS)
    return Lease(counted, str(row.pk))


def renew(leases, now: float | None = None) -> None:
    """The streams of these leases are still open."""
    until = (time.time() if now is None else now) + LEASE_SECONDS
    client = _redis()
    if client is not None:
        with client.pipeline(transaction=False) as pipe:
            for lease in leases:
                pipe.zadd(_key(lease.counted), {lease.id: until}, xx=True)
                pipe.expire(_key(lease.counted), int(LEASE_SECONDS) + 1)
            pipe.execute()
        return
    StreamLease.objects.filter(pk__in=[int(lease.id) for lease in leases]).update(
        expires=until)


def give_back(lease: Lease) -> None:
    client = _redis()
    if client is not None:
        client.zrem(_key(lease.counted), lease.id)
    else:
        StreamLease.objects.filter(pk=int(lease.id)).delete()


def forget(*counted) -> None:
    """Every lease of these (tests)."""
    client = _redis()
    if client is not None:
        client.delete(*[_key(str(c)) for c in counted])
    StreamLease.objects.filter(counted__in=[str(c) for c in counted]).delete()
