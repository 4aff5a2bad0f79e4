"""A free port on loopback for a server a test starts (a Redis, a worker's health port,
the web, an SMTP server).

Taken below the kernel's range of ephemeral ports, which it hands to every outgoing
connection (the suite opens thousands: to PostgreSQL, Redis, the live servers): a port
taken from that range with bind(0) could be handed to one of them between the probe and
the server's own bind, which then fails with "address in use". Below the range only another
server can hold it, and the probe sees that. Drawn with the system's randomness, never the
`random` module's, whose stream a test may have seeded."""

from __future__ import annotations

import random
import socket
from pathlib import Path

# The lowest port drawn: above the well-known services' (PostgreSQL 5432, Redis 6379...).
LOWEST = 10_000
PORT_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")


def ephemeral_ports_start() -> int:
    """The first port of the kernel's ephemeral range (Linux's default: 32768)."""
    try:
        return int(PORT_RANGE.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768


def free_port() -> int:
    draw = random.SystemRandom()
    start = ephemeral_ports_start()
    for _ in range(200 if start - LOWEST >= 1_000 else 0):
        port = draw.randrange(LOWEST, start)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    # A kernel whose ephemeral range starts low leaves no room below it: its own choice.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
