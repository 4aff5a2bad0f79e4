"""While `make run`'s web starts, nothing answers 500 and its log has no error: until a
process can answer, a connection is refused (gunicorn opens the port once the app is loaded,
scripts/run.sh's --preload); a client that gave up waiting is never logged as a 500."""

from __future__ import annotations

import re
import socket
import threading
import time

from tests.test_run_supervision import Served

SERVING = "Conquest is serving on"


def asked(port: int, path: str) -> str:
    """What a client that waits at most 1.5 s gets: a status, or why it got none."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.5) as connection:
            connection.sendall(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
            head = connection.recv(200).decode(errors="replace")
    except ConnectionRefusedError:
        return "refused"
    except OSError:
        return "no answer"  # given up: the server may log it when it reaches it
    status = head.split(" ", 2)[1] if head.startswith("HTTP/") else "garbled"
    if status == "503" and "retry-after" not in head.lower():
        return "503 without Retry-After"
    return status


def test_nothing_answers_500_while_the_web_starts(tmp_path, migrated_sqlite):
    served = Served(tmp_path, migrated_sqlite)
    answers: list[str] = []
    done = threading.Event()

    def probe():
        while not done.is_set():
            for path in ("/healthz", "/"):
                answers.append(asked(served.port, path))
            time.sleep(0.1)

    prober = threading.Thread(target=probe, daemon=True)
    prober.start()
    try:
        deadline = time.monotonic() + 240
        while SERVING not in served.log():
            assert time.monotonic() < deadline, served.log()
            time.sleep(0.2)
        time.sleep(3)  # what was asked meanwhile has been answered and logged
        done.set()
        prober.join(5)
        log = served.log()
    finally:
        done.set()
        served.stop()

    assert "200" in answers
    assert set(answers) <= {"refused", "no answer", "200", "503"}, sorted(set(answers))
    assert not re.search(r'" 5\d\d ', log), log  # the access log: no 500, whoever asked
    assert "[ERROR]" not in log and "Traceback" not in log, log
