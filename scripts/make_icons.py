"""Draw the site's home-screen icons (static/games/icon-*.png) with the standard library alone.

The same shapes as static/games/icon.svg, on its 64-unit square: the felt, a card, a spade.
Run it again after changing them: ``python scripts/make_icons.py``.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "static" / "games"
SIZES = (180, 192, 512)
FELT, PAPER, INK = (0x0D, 0x6B, 0x47), (0xFF, 0xFD, 0xF8), (0x16, 0x16, 0x16)
SAMPLES = 4  # per side of a pixel, for smooth edges


def in_rounded_rect(x: float, y: float, left: float, top: float, right: float, bottom: float, r: float) -> bool:
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + r), right - r)
    cy = min(max(y, top + r), bottom - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def in_polygon(x: float, y: float, points: tuple[tuple[float, float], ...]) -> bool:
    inside = False
    for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < (x2 - x1) * (y - y1) / (y2 - y1) + x1:
            inside = not inside
    return inside


def colour_at(x: float, y: float) -> tuple[int, int, int] | None:
    """The colour at (x, y) of the 64-unit icon; None outside its rounded square."""
    if not in_rounded_rect(x, y, 0, 0, 64, 64, 12):
        return None
    if not in_rounded_rect(x, y, 14, 8, 50, 56, 4):
        return FELT
    spade = (
        (x - 26.5) ** 2 + (y - 34) ** 2 <= 6.5**2
        or (x - 37.5) ** 2 + (y - 34) ** 2 <= 6.5**2
        or in_polygon(x, y, ((32, 15), (20.6, 31.5), (43.4, 31.5)))
        or in_polygon(x, y, ((20.6, 31.5), (43.4, 31.5), (36, 40), (28, 40)))
        or in_polygon(x, y, ((30.5, 37), (33.5, 37), (37, 48), (27, 48)))
    )
    return INK if spade else PAPER


def draw(size: int) -> bytes:
    """The icon as an RGBA PNG of ``size`` pixels square."""
    rows = []
    scale = 64 / size
    for py in range(size):
        row = bytearray([0])  # filter: none
        for px in range(size):
            r = g = b = a = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    colour = colour_at((px + (sx + 0.5) / SAMPLES) * scale, (py + (sy + 0.5) / SAMPLES) * scale)
                    if colour:
                        r, g, b, a = r + colour[0], g + colour[1], b + colour[2], a + 1
            row += bytes((r // a, g // a, b // a, 255 * a // SAMPLES**2) if a else (0, 0, 0, 0))
        rows.append(bytes(row))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"".join(rows), 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    for size in SIZES:
        path = STATIC / f"icon-{size}.png"
        path.write_bytes(draw(size))
        print(path.relative_to(STATIC.parents[1]))


if __name__ == "__main__":
    main()
