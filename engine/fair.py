"""The fair random stream of docs/players/fair-dice.md: HMAC-SHA256 keyed by the game's secret seed, which
is the server's committed seed mixed with the players' entropy."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")


def new_seed() -> str:
    """32 random bytes as hex: a game's secret seed."""
    return secrets.token_hex(32)


def seed_hash(seed_hex: str) -> str:
    """The SHA-256 hex of the seed's bytes, published when the game is created."""
    return hashlib.sha256(bytes.fromhex(seed_hex)).hexdigest()


ENTROPY_MAX_LENGTH = 64


def entropy_problem(value) -> str | None:
    """Why `value` is not a player's entropy (1 to 64 printable ASCII characters, space to
    tilde), or None if it is. No line break can pass: the contributions are joined by one."""
    if not isinstance(value, str):
        return "entropy must be text"
    if not 1 <= len(value) <= ENTROPY_MAX_LENGTH:
        return f"entropy must be 1 to {ENTROPY_MAX_LENGTH} characters"
    if any(not " " <= char <= "~" for char in value):
        return "entropy must be printable ASCII characters only (space to ~)"
    return None


def game_seed(server_seed_hex: str, contributions: Sequence[str] | None) -> str:
    """The key of a game's draws, as hex: with no contribution the server's seed itself, else
    HMAC-SHA256(key=server seed, msg=the contributions in seat order joined by "\n"), so
    that neither the server (committed to its seed first) nor any player chose it alone."""
    if not contributions:
        return server_seed_hex
    for text in contributions:
        problem = entropy_problem(text)
        if problem:
            raise ValueError(problem)
    message = "\n".join(contributions).encode("ascii")
    return hmac.new(bytes.fromhex(server_seed_hex), message, hashlib.sha256).hexdigest()


class DrawStream:
    """The bytes HMAC(seed, "{game_id}:{seq}:{k}") for k = 0, 1, ... and the draws read from them."""

    __slots__ = ("_key", "_prefix", "_block", "_buffer", "_pos")

    def __init__(self, key: bytes, game_id: str, seq: int):
        self._key = key
        self._prefix = f"{game_id}:{seq}:"
        self._block = 0
        self._buffer = b""
        self._pos = 0

    def _next4(self) -> int:
        while len(self._buffer) - self._pos < 4:
            msg = f"{self._prefix}{self._block}".encode()
            self._buffer = self._buffer[self._pos:] + hmac.new(self._key, msg, hashlib.sha256).digest()
            self._pos = 0
            self._block += 1
        u = int.from_bytes(self._buffer[self._pos:self._pos + 4], "big")
        self._pos += 4
        return u

    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n): rejection sampling on 4-byte big-endian words."""
        if n <= 0:
            raise ValueError("randbelow needs n >= 1")
        limit = (2**32 // n) * n
        while True:
            u = self._next4()
            if u < limit:
                return u % n

    def die(self) -> int:
        return self.randbelow(6) + 1

    def dice(self, count: int) -> list[int]:
        return [self.randbelow(6) + 1 for _ in range(count)]

    def shuffle(self, items: MutableSequence[T]) -> MutableSequence[T]:
        """Fisher-Yates in place: for i from len-1 down to 1, swap i with randbelow(i + 1)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]
        return items

    def choice(self, items):
        return items[self.randbelow(len(items))]


class FairDice:
    """A game's randomness: one DrawStream per event sequence number."""

    __slots__ = ("_key", "game_id")

    def __init__(self, seed_hex: str, game_id: str):
        self._key = bytes.fromhex(seed_hex)
        if len(self._key) != 32:
            raise ValueError("the seed must be 32 bytes of hex")
        self.game_id = str(game_id)

    def at(self, seq: int) -> DrawStream:
        return DrawStream(self._key, self.game_id, seq)

    def __repr__(self) -> str:  # never print the seed
        return f"FairDice(game_id={self.game_id!r})"
