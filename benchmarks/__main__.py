"""Runs every benchmarks/bench_*.py module's main() in name order (python -m benchmarks),
each in a process of its own, then prints every figure they recorded (benchmarks.figures),
one line each.

A process each: a bench sets Django up for the database it measures (the embedded default,
or a PostgreSQL database of its own), and Django is set up once per process; in one
process the first bench's choice held for all (bench_notifications then ran its
PostgreSQL statements on SQLite). A bench that fails is reported and the others still run.

`python -m benchmarks NAME...` runs only the benches named (`service`, `growth`, ...).
CONQUEST_BENCH_LARGE=1 adds the 10^7-event size to bench_growth and bench_partitions (see
their docstrings)."""

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import figures


def main(argv: list[str]) -> int:
    # Modules that need Django call django.setup() themselves; this only says which settings.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    names = sorted(path.stem for path in Path(__file__).parent.glob("bench_*.py"))
    if argv:
        names = [name for name in names if name.removeprefix("bench_") in argv]
    if not names:
        print("no benchmarks")
        return 0
    with tempfile.TemporaryDirectory(prefix="conquest-figures-") as folder:
        path = os.path.join(folder, "figures.jsonl")
        os.environ[figures.ENVIRONMENT] = path  # the benches' own processes inherit it
        failed = []
        for name in names:
            print(f"=== {name} ===", flush=True)
            run = subprocess.run([sys.executable, "-c", f"from benchmarks import {name}; "
                                  f"{name}.main()"], check=False)
            if run.returncode:
                failed.append(name)
                print(f"{name} failed (exit status {run.returncode})", flush=True)
            print(flush=True)
        print("=== figures ===")
        figures.print_lines(figures.recorded(path))
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
