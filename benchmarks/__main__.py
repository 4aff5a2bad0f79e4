"""Runs every benchmarks/bench_*.py module's main() in name order (python -m benchmarks),
then prints every figure they recorded (benchmarks.figures), one line each.

`python -m benchmarks NAME...` runs only the benches named (`service`, `growth`, ...).
CONQUEST_BENCH_LARGE=1 adds the 10^7-event size to bench_growth (see its docstring)."""

import importlib
import os
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
        del sys.argv[1:]  # the benches read their own arguments there
    if not names:
        print("no benchmarks")
        return 0
    with tempfile.TemporaryDirectory(prefix="conquest-figures-") as folder:
        path = os.path.join(folder, "figures.jsonl")
        os.environ[figures.ENVIRONMENT] = path  # the benches' own processes inherit it
        for name in names:
            print(f"=== {name} ===", flush=True)
            module = importlib.import_module(f"{__package__ or 'benchmarks'}.{name}")
            module.main()
            print(flush=True)
        print("=== figures ===")
        figures.print_lines(figures.recorded(path))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
