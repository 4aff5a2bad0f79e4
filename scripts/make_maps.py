"""Generate the shipped maps europe, usa, world (Natural Earth / US Census geography) and
islands (hand-drawn) as engine/maps/<id>.json, and keep each new version by its hash.

A development tool, not part of the service: the files it writes are the source from then
on. It needs the dev extras (`shapely`, `babel`) and `npm` (the atlases are fetched at
generation time, never at run time):

    .venv/bin/pip install -e '.[maps]'
    .venv/bin/python scripts/make_maps.py                 # every map
    .venv/bin/python scripts/make_maps.py world islands   # some of them

It runs `npm pack world-atlas@2.0.2 us-atlas@3.0.1` in a temporary folder (or reads the
unpacked packages from `--atlas DIR`, with DIR/world-atlas and DIR/us-atlas). The output is
the same on every run for the same packages.

The rules every generated map follows (scripts/mapgen.py):
- borders: two territories sharing a stretch of land boundary (a TopoJSON arc used by both),
  plus the sea lanes listed for the map (scripts/map_regions.py);
- bonus of a group = (its territories + its entry territories) / 2.5, rounded, at least 1;
  an entry territory borders a territory of another group (classic's bonuses follow it
  within one army);
- starting armies = twice the territories each hand is dealt (two players: three hands,
  with the neutral), at least 20, 18, 15, 12, 10 for 2 to 6 players;
- the default deck (one card per territory, symbols in turn, two wilds) and no missions;
- country names in en, cs and pl from CLDR (Babel); the other names are in map_regions.py.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from engine.maps import FOLDER, archive, build  # noqa: E402

PACKAGES = {"world-atlas": "world-atlas@2.0.2", "us-atlas": "us-atlas@3.0.1"}
MAPS = ("europe", "usa", "world", "islands")


def fetch_atlases(into: Path) -> Path:
    """Unpack the two npm packages into `into`/<name>/ (npm pack needs no project)."""
    for name, spec in PACKAGES.items():
        if (into / name).is_dir():
            continue
        out = subprocess.run(["npm", "pack", spec, "--silent"], cwd=into, check=True,
                             capture_output=True, text=True).stdout.strip().splitlines()[-1]
        with tarfile.open(into / out) as tar:
            tar.extractall(into / name, filter="data")
        (into / name / "package").rename(into / name / "files")
    return into


def write(data: dict) -> None:
    started = time.perf_counter()
    board = build(data)
    took = time.perf_counter() - started
    path = FOLDER / f"{data['id']}.json"
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    path.write_text(text + "\n", encoding="utf-8")
    archive(build(json.loads(path.read_text(encoding="utf-8"))))
    print(f"{data['id']}: {len(board.territories)} territories, {len(board.continents)} "
          f"groups, {len(board.borders)} borders, {len(text) / 1024:.0f} KiB, "
          f"built in {took * 1000:.0f} ms", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("maps", nargs="*", default=list(MAPS))
    parser.add_argument("--atlas", type=Path, help="folder with unpacked atlases (kept)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        atlas = args.atlas or Path(scratch)
        atlas.mkdir(parents=True, exist_ok=True)
        if set(args.maps) - {"islands"}:
            fetch_atlases(atlas)
        for map_id in args.maps:
            if map_id == "world":
                from map_world import world_map
                write(world_map(atlas / "world-atlas" / "files" / "countries-50m.json"))
            elif map_id == "europe":
                from map_europe import europe_map
                write(europe_map(atlas / "world-atlas" / "files" / "countries-50m.json"))
            elif map_id == "usa":
                from map_usa import usa_map
                write(usa_map(atlas / "us-atlas" / "files" / "states-albers-10m.json"))
            elif map_id == "islands":
                from map_islands import islands_map
                write(islands_map())
            else:
                parser.error(f"no map {map_id!r}; the maps are {', '.join(MAPS)}")


if __name__ == "__main__":
    main()
