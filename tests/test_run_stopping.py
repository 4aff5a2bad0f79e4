"""Whatever ends `make run`'s script ends what it started: a supervisor's SIGTERM or
SIGKILL to the process group `make run` holds, or to scripts/run.sh alone, leaves no web
server, worker or beat behind (they run in process groups of their own) once the stop
grace has passed."""

from __future__ import annotations

import os
import signal

import pytest

from tests.notifications.real_parts import wait_until
from tests.test_run_script import marked
from tests.test_run_supervision import NAMES, Served

GRACE = 3  # CONQUEST_STOP_GRACE_SECONDS in Served


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["term", "kill"])
@pytest.mark.parametrize("whom", ["group", "script"])
def test_it_leaves_nothing_running_whatever_ends_the_script(tmp_path, migrated_sqlite, how,
                                                            whom):
    served = Served(tmp_path, migrated_sqlite, under_make=True)
    try:
        assert wait_until(lambda: served.call("GET", "/healthz")[0] == 200, 60), served.log()
        started = wait_until(lambda: (c := served.children()).keys() == set(NAMES) and c, 30)
        assert started, (served.children(), served.log())

        if whom == "group":  # `kill -- -PGID` on make run: make and run.sh alike
            os.killpg(served.script.pid, how)
        else:
            os.kill(served.run_sh(), how)

        # Within the grace (and the two seconds run.sh adds before its own SIGKILL), with
        # some room for a busy machine: nothing started is left, and the port is free.
        assert wait_until(lambda: not (set(marked(served.marker)) & set(started.values())),
                          GRACE + 2 + 10), (served.children(), served.log())
        assert wait_until(lambda: served.call("GET", "/healthz")[0] is None, 5)
    finally:
        served.stop()
