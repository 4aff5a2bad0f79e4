"""Runs a command that ends when the process that started it ends, however that one ends.

    ends_with_parent.py PARENT_PID COMMAND [ARGUMENT...]

scripts/run.sh starts web, the workers and beat through this, each in a process group of
its own: a supervisor that kills `make run`'s group, or SIGKILLs run.sh itself, would
otherwise leave them serving the port with nobody to stop them. The kernel sends the
command SIGTERM (its graceful stop) when the thread that started it exits
(PR_SET_PDEATHSIG, kept across exec); PARENT_PID closes the race of a parent that died
before the request was made. Linux only; elsewhere the command runs as it is.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

PR_SET_PDEATHSIG = 1


def main(argv: list[str]) -> None:
    if len(argv) < 3 or not argv[1].isdigit():
        sys.exit("usage: ends_with_parent.py PARENT_PID COMMAND [ARGUMENT...]")
    parent, command = int(argv[1]), argv[2:]
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0) != 0:
            sys.exit(f"ends_with_parent.py: prctl failed: {os.strerror(ctypes.get_errno())}")
        if os.getppid() != parent:  # it ended before the kernel was asked to tell us
            sys.exit(0)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv)
