"""Draw the site's icons (static/icons/): the home-screen PNGs the web app manifest names,
the notification badge and the SVG, from one design, with the standard library alone.

    python3 scripts/make_icons.py
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
RED, CREAM = (0x7A, 0x1F, 0x1F), (0xF4, 0xEF, 0xE6)
GLOBE = 0.36  # radius, of the side: inside a maskable icon's safe zone (0.4)
STAR_OUTER, STAR_INNER = 0.22, 0.09


def star(cx: float, cy: float, outer: float, inner: float) -> list[tuple[float, float]]:
    return [(cx + (outer if k % 2 == 0 else inner) * math.sin(k * math.pi / 5),
             cy - (outer if k % 2 == 0 else inner) * math.cos(k * math.pi / 5))
            for k in range(10)]


def inside(x: float, y: float, polygon) -> bool:
    hit, j = False, len(polygon) - 1
    for i, (xi, yi) in enumerate(polygon):
        xj, yj = polygon[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            hit = not hit
        j = i
    return hit


def pixel(u: float, v: float, badge: bool, points) -> tuple[int, int, int, int]:
    """The colour at (u, v) in 0..1 of the side: a cream globe with a red star on red, or
    (the badge, which phones show as a mask) a white star alone."""
    in_star = inside(u, v, points)
    if badge:
        return (255, 255, 255, 255) if in_star else (0, 0, 0, 0)
    in_globe = (u - 0.5) ** 2 + (v - 0.5) ** 2 <= GLOBE ** 2
    return (*(RED if in_star or not in_globe else CREAM), 255)


def png(size: int, badge: bool = False) -> bytes:
    points = star(0.5, 0.52, STAR_OUTER * (1.6 if badge else 1), STAR_INNER * (1.6 if badge else 1))
    rows = bytearray()
    for y in range(size):
        rows.append(0)
        for x in range(size):
            # Four samples a pixel: smooth edges.
            samples = [pixel((x + dx) / size, (y + dy) / size, badge, points)
                       for dx in (0.25, 0.75) for dy in (0.25, 0.75)]
            rows.extend(sum(s[c] for s in samples) // 4 for c in range(4))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))


def svg() -> str:
    points = " ".join(f"{x * 512:.1f},{y * 512:.1f}"
                      for x, y in star(0.5, 0.52, STAR_OUTER, STAR_INNER))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 512 512">'
            f'<rect width="512" height="512" fill="#7a1f1f"/>'
            f'<circle cx="256" cy="256" r="{GLOBE * 512:.1f}" fill="#f4efe6"/>'
            f'<polygon points="{points}" fill="#7a1f1f"/></svg>\n')


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (ICONS / f"icon-{size}.png").write_bytes(png(size))
    # Full bleed, the emblem inside the safe zone: the same design serves as maskable.
    (ICONS / "maskable-512.png").write_bytes((ICONS / "icon-512.png").read_bytes())
    (ICONS / "badge-96.png").write_bytes(png(96, badge=True))
    (ICONS / "icon.svg").write_text(svg())


if __name__ == "__main__":
    main()
