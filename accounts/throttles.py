"""Per-address and per-account rate limits, counted atomically in the cache (the rates are
settings.CONQUEST_THROTTLE_RATES, read when a request comes).

API views list them in `throttle_classes`; the web views that do the same things (sign-up,
creating a game, reporting) ask `refused(request, throttles)` so a form cannot get round an
API limit, and so does asking for a password reset; a move by mail counts against the
account's command limit (`account_refused`). `client_address` names the client for
all of them and for django-axes.

Why not DRF's SimpleRateThrottle as it is: it reads a list of times, appends and writes it
back, so requests in parallel each pass a full limit (its own documentation says so), and
a command's two limits cost four round trips. Here each window is an atomic count (a
command's limits together in one Redis script), through public interfaces only: Django's
cache API, caches[...], redis-py's client for the script. What it saves is part of
`make bench`'s `command_p50_vs_floor` (each round trip was some 0.5 ms of a command's 4 ms
of CPU)."""

from __future__ import annotations

import fcntl
import functools
import hashlib
import ipaddress
import os
import time

import redis
from django.conf import settings
from django.core.cache import DEFAULT_CACHE_ALIAS, caches
from django.core.cache import cache as default_cache
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from rest_framework.throttling import BaseThrottle


def client_address(request) -> str | None:
    """The address every per-address limit counts (DRF's throttles here, django-axes through
    AXES_CLIENT_IP_CALLABLE): the connection's, or behind settings.CONQUEST_NUM_PROXIES
    proxies the one the outermost proxy saw, N-th from the right of X-Forwarded-For (what
    stands left of it the client wrote itself; a port written after it is dropped). An
    IPv6 client counts as its /64, which one subscriber holds whole."""
    remote = request.META.get("REMOTE_ADDR")
    proxies = settings.CONQUEST_NUM_PROXIES
    if proxies > 0:
        forwarded = [part.strip() for part in
                     request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        if len(forwarded) >= proxies and _address(_without_port(forwarded[-proxies])):
            return _address(_without_port(forwarded[-proxies]))
    # None when the connection has no address either (a Unix socket): all such share one
    # count, and nothing but an address reaches axes' address column.
    return _address(remote)


def _without_port(text: str) -> str:
    """The address of a forwarded entry some proxies write with the client's port
    (`203.0.113.9:51234`, `[2001:db8::1]:51234`); anything else as it is, for _address to
    judge. An IPv6 address needs its brackets to carry a port."""
    if text.startswith("["):
        inside, bracket, port = text[1:].partition("]")
        if bracket and ":" in inside and (not port or (port[0] == ":" and _is_port(port[1:]))):
            return inside
        return ""
    host, colon, port = text.partition(":")
    if colon and ":" not in port:  # one colon: IPv4 with a port (IPv6 has two or more)
        return host if _is_port(port) else ""
    return text


def _is_port(text: str) -> bool:
    return text.isascii() and text.isdigit() and 0 < int(text) < 65536


def _address(text: str | None) -> str | None:
    try:
        address = ipaddress.ip_address(text or "")
    except ValueError:
        return None
    if address.version == 6 and address.ipv4_mapped:
        return str(address.ipv4_mapped)
    if address.version == 6:
        return str(ipaddress.ip_network(f"{address}/64", strict=False).network_address)
    return str(address)


PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """(requests, seconds) of a rate written as DRF writes it: "5/hour", "30/minute", "1/s"."""
    count, period = rate.split("/")
    return int(count), PERIODS[period.strip()[0]]


class AtomicRateThrottle(BaseThrottle):
    """A DRF throttle that cannot be passed by requests in parallel: it counts with the
    cache's atomic increment (Redis INCR; locked on the embedded default's files), where
    DRF's SimpleRateThrottle reads its history, appends and writes it back, so requests that
    read together all pass.

    A subclass says what a request counts against (`get_cache_key`, None for nothing) and
    its rate (`rate` or `get_rate()`, as DRF writes it: "5/hour"). The count is a sliding
    window estimated from two fixed ones: this period's requests, and the last period's
    weighted by how much of it the window still covers. Refused requests are not counted;
    `wait()` says when the next one may pass (DRF's Retry-After)."""

    rate = ""
    cache = default_cache
    timer = time.time

    def get_rate(self) -> str | None:
        return self.rate

    def get_cache_key(self, request, view) -> str | None:
        raise NotImplementedError("the throttle says what a request counts against")

    def allow_request(self, request, view) -> bool:
        window = self._window(request, view)
        if window is None:
            return True
        return self._judge(window, *_count(self.cache, *window))

    def _window(self, request, view) -> tuple[str, str, int] | None:
        """The keys of the last period's count and this one's, and their lifetime; None if
        the request counts against nothing or there is no limit (DRF's None)."""
        key, rate = self.get_cache_key(request, view), self.get_rate()
        if key is None or not rate:
            return None
        self.limit, self.period = parse_rate(rate)
        window, self.elapsed = divmod(self.timer(), self.period)
        return (f"throttle:{key}:{int(window) - 1}", f"throttle:{key}:{int(window)}",
                2 * self.period + 1)

    def _judge(self, window: tuple[str, str, int], previous: int, counted: int) -> bool:
        """Whether the request passes, the counts being these; a refused one is uncounted."""
        self.previous, self.counted = previous, counted
        if self._estimate(self.counted, self.elapsed) <= self.limit:
            return True
        self.counted = _increment(self.cache, window[1], -1, timeout=window[2])
        return False

    def _estimate(self, counted: int, elapsed: float) -> float:
        return self.previous * (self.period - elapsed) / self.period + counted

    def wait(self) -> float:
        """Seconds until one more request would pass."""
        if self.counted + 1 <= self.limit:
            # Within this period, once the last period's weight has fallen enough.
            room = (self.limit - self.counted - 1) / self.previous if self.previous else 1
            return max(self.period * (1 - room) - self.elapsed, 1)
        # In the next period, this one's count weighing on it at first.
        room = (self.limit - 1) / self.counted if self.counted else 0  # "0/hour": never
        return max(self.period - self.elapsed + self.period * (1 - room), 1)


def allowed_together(throttles, request, view) -> list[bool]:
    """allow_request of each of `throttles`, their counts taken in one round trip to Redis
    when they are all atomic ones on the same Redis (a command passes two limits, by
    address and by account: each round trip cost some 0.5 ms of a command's 4 ms of CPU);
    one by one otherwise."""
    caches = {id(_backend(t.cache)) for t in throttles if isinstance(t, AtomicRateThrottle)}
    if len(caches) != 1 or not all(isinstance(t, AtomicRateThrottle) for t in throttles) \
            or not isinstance(_backend(throttles[0].cache), RedisCache):
        return [t.allow_request(request, view) for t in throttles]
    windows = [t._window(request, view) for t in throttles]
    counted = iter(_count_many(throttles[0].cache, [w for w in windows if w is not None]))
    return [True if window is None else throttle._judge(window, *next(counted))
            for throttle, window in zip(throttles, windows, strict=True)]


class CountedTogether:
    """For an API view (lib.api.views.ApiView): its throttles counted with
    allowed_together, refused as its check_throttles refuses (every limit counted, the
    longest wait said, the limit named)."""

    def check_throttles(self, request):
        throttles = self.get_throttles()
        refused = [(throttle, throttle.wait()) for throttle, allowed in zip(
            throttles, allowed_together(throttles, request, self), strict=True) if not allowed]
        if refused:
            self.throttled_by(refused)


def _backend(cache):
    """The backend behind `cache`: django.core.cache.cache stands for this thread's default
    one, which caches[...] hands out."""
    return caches[DEFAULT_CACHE_ALIAS] if cache is default_cache else cache


def _count(cache, previous: str, current: str, timeout: float) -> tuple[int, int]:
    """The last period's count, and this one's after counting one more request. With Redis
    in one round trip (_count_many's script): three round trips each were a sixth of a
    command's time."""
    cache = _backend(cache)
    if not isinstance(cache, RedisCache):
        return cache.get(previous, 0), _increment(cache, current, 1, timeout)
    return _count_many(cache, [(previous, current, timeout)])[0]


def _count_many(cache, windows: list[tuple[str, str, float]]) -> list[tuple[int, int]]:
    """_count of each (previous, current, timeout) on a Redis cache, in one round trip: one
    script (GET, SET NX, INCR of each window) run by the cache's write server, so one
    command and one answer to pack and parse where a pipeline had six."""
    cache = _backend(cache)
    if not windows:
        return []
    keys = [cache.make_and_validate_key(key) for window in windows for key in window[:2]]
    timeouts = [max(1, int(timeout)) for _, _, timeout in windows]
    answers = _counting_script(cache)(keys=keys, args=timeouts)
    return [(answers[n], answers[n + 1]) for n in range(0, len(answers), 2)]


# Each window's keys are (previous, current) in KEYS, its lifetime in ARGV. Django's Redis
# cache stores whole numbers as their digits, as INCR leaves them.
COUNT_SCRIPT = """
local counts = {}
for n = 1, #ARGV do
    counts[2 * n - 1] = tonumber(redis.call('GET', KEYS[2 * n - 1]) or '0')
    redis.call('SET', KEYS[2 * n], 0, 'EX', ARGV[n], 'NX')
    counts[2 * n] = redis.call('INCR', KEYS[2 * n])
end
return counts
"""


def _counting_script(cache: RedisCache):
    """COUNT_SCRIPT bound to a client of the cache's write server (the first of its
    LOCATION, as Django's Redis cache writes there), made once per process: Django's Redis
    cache makes a new client, with its table of some 170 reply parsers, on every call,
    which cost more than the round trip. redis-py's clients are safe to share between
    threads, and run the script by its hash (EVALSHA), loading it again if the server
    lost it."""
    location = settings.CACHES[DEFAULT_CACHE_ALIAS]["LOCATION"]
    servers = location if isinstance(location, list | tuple) else location.split(",")
    return _script_at(servers[0].strip())


@functools.lru_cache(maxsize=4)
def _script_at(url: str):
    return redis.Redis.from_url(url).register_script(COUNT_SCRIPT)


def _increment(cache, key: str, delta: int, timeout: float) -> int:
    """The count at `key` after adding `delta`, as one step no other request interleaves:
    Redis's INCR and the in-process cache's increment are; the file-based cache's is not,
    so there it runs under a lock on a file beside its entries (every process of a machine
    shares it)."""
    cache = _backend(cache)
    if isinstance(cache, RedisCache | LocMemCache):
        cache.add(key, 0, timeout=timeout)
        try:
            return cache.incr(key, delta)
        except ValueError:  # it expired between the two
            cache.add(key, 0, timeout=timeout)
            return cache.incr(key, delta)
    with _file_lock():
        value = cache.get(key, 0) + delta
        cache.set(key, value, timeout=timeout)
        return value


class _file_lock:
    def __init__(self):
        # beside the entries of the file-based cache (its LOCATION), where all of them are
        directory = settings.CACHES[DEFAULT_CACHE_ALIAS].get("LOCATION") or str(settings.VAR_DIR)
        os.makedirs(directory, exist_ok=True)
        self.path = os.path.join(directory, "throttles.lock")

    def __enter__(self):
        self.file = open(self.path, "a")
        fcntl.flock(self.file, fcntl.LOCK_EX)

    def __exit__(self, *exc):
        fcntl.flock(self.file, fcntl.LOCK_UN)
        self.file.close()


class Throttle(AtomicRateThrottle):
    """Counts requests per client address, or per account for scopes ending in `_user`."""

    scope = ""
    cache_format = "%(scope)s:%(ident)s"

    def get_ident(self, request):
        return client_address(request)

    def get_rate(self):
        return settings.CONQUEST_THROTTLE_RATES[self.scope]

    def get_cache_key(self, request, view):
        if self.scope.endswith("_user"):
            user = getattr(request, "user", None)
            if user is None or not user.is_authenticated:
                return None
            ident = f"user-{user.pk}"
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


def throttle(scope: str) -> type[Throttle]:
    return type(f"Throttle_{scope}", (Throttle,), {"scope": scope})


class SentValueThrottle(Throttle):
    """Counts requests per value of a field the client sent (`field`, in any case), whoever
    sends it: a spread-out attack on one account runs into this even from many addresses."""

    field = ""

    def get_cache_key(self, request, view):
        # A DRF request carries its body as `data`; a plain Django view's as POST.
        data = request.data if hasattr(request, "data") else request.POST
        value = data.get(self.field) if isinstance(data, dict) else None
        if not isinstance(value, str) or not value.strip():
            return None
        ident = hashlib.sha256(value.strip().lower().encode()).hexdigest()[:32]
        return self.cache_format % {"scope": self.scope, "ident": ident}


class UsernameThrottle(SentValueThrottle):
    """Token requests per username asked for."""

    scope, field = "token_user", "username"


class ResetAddressThrottle(SentValueThrottle):
    """Password resets per address asked for."""

    scope, field = "password_reset_email", "email"


SIGNUP = [throttle("signup_ip")]
TOKEN = [throttle("token_ip"), UsernameThrottle]
CREATE_GAME = [throttle("create_game_ip"), throttle("create_game_user")]
COMMAND = [throttle("command_ip"), throttle("command_user")]
ODDS = [throttle("odds_ip")]
REPORT = [throttle("report_ip"), throttle("report_user")]
GAME_PAGE = [throttle("game_page_ip")]
PASSWORD_RESET = [throttle("password_reset_ip")]
PASSWORD_RESET_ADDRESS = [ResetAddressThrottle]


def refused(request, throttles) -> int | None:
    """For a plain Django view: None if the request may go on, else the seconds to wait."""
    waits = []
    for throttle_class in throttles:
        limiter = throttle_class()
        if not limiter.allow_request(request, None):
            waits.append(limiter.wait() or 1)
    return int(max(waits)) + 1 if waits else None


class _AccountOnly:
    """What a per-account limit reads of a request, for a door that has no request (a
    mail): the account, and no client address."""

    META: dict = {}

    def __init__(self, user) -> None:
        self.user = user


def account_refused(user, throttles) -> int | None:
    """refused() for a door with no request (a move by mail): only the per-account limits
    of `throttles` count, against the same counts as the API's and the pages'."""
    return refused(_AccountOnly(user), [t for t in throttles if t.scope.endswith("_user")])
