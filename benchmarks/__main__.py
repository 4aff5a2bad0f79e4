"""Runs every benchmarks/bench_*.py module's main() in name order (python -m benchmarks)."""

import importlib
import os
import sys
from pathlib import Path


def main() -> int:
    # Modules that need Django call django.setup() themselves; this only says which settings.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    names = sorted(path.stem for path in Path(__file__).parent.glob("bench_*.py"))
    if not names:
        print("no benchmarks")
        return 0
    for name in names:
        print(f"=== {name} ===", flush=True)
        module = importlib.import_module(f"{__package__ or 'benchmarks'}.{name}")
        module.main()
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
