"""A table drawn as a PNG picture, for the previews that link sharing shows (Open Graph and
Twitter cards: a replay's step, games/views.py game_picture).  The same drawing as the page's:
the felt, each card's rank and suit in its colour (red for hearts and diamonds), the cards in
place edged in green, the gaps darker; 1200 by 630 pixels, the size those previews use.

Plain Python and zlib, no imaging library: a few filled rectangles and a small bitmap font of
the ranks and the four suits, scaled up, written as an 8-bit RGB PNG (the format's own
specification: signature, IHDR, IDAT, IEND, each chunk with its CRC)."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable

WIDTH, HEIGHT = 1200, 630
FELT, FELT_DARK, GAP = (13, 107, 71), (10, 85, 56), (8, 70, 46)
CARD, BLACK, RED, LOCKED = (253, 252, 248), (28, 28, 28), (196, 30, 58), (46, 160, 90)

# 5 by 7 glyphs, one string a row, "#" inked: the ranks as the site writes them (T is "10") and the suits.
GLYPHS = {
    "A": [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
    "2": [".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"],
    "3": ["####.", "....#", "....#", ".###.", "....#", "....#", "####."],
    "4": ["...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."],
    "5": ["#####", "#....", "####.", "....#", "....#", "#...#", ".###."],
    "6": [".###.", "#....", "#....", "####.", "#...#", "#...#", ".###."],
    "7": ["#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."],
    "8": [".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."],
    "9": [".###.", "#...#", "#...#", ".####", "....#", "....#", ".###."],
    "1": ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."],
    "0": [".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."],
    "J": ["..###", "...#.", "...#.", "...#.", "#..#.", "#..#.", ".##.."],
    "Q": [".###.", "#...#", "#...#", "#...#", "#.#.#", "#..#.", ".##.#"],
    "K": ["#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"],
    "S": ["..#..", ".###.", "#####", "#####", "#.#.#", "..#..", ".###."],
    "H": [".#.#.", "#####", "#####", "#####", ".###.", "..#..", "....."],
    "D": ["..#..", ".###.", "#####", "#####", ".###.", "..#..", "....."],
    "C": [".###.", ".###.", "#.#.#", "#####", "#.#.#", "..#..", ".###."],
}


class Canvas:
    """An RGB picture in one bytearray, drawn with filled rectangles."""

    def __init__(self, width: int, height: int, colour: tuple[int, int, int]):
        self.width, self.height = width, height
        self.pixels = bytearray(bytes(colour) * (width * height))

    def fill(self, x: int, y: int, w: int, h: int, colour: tuple[int, int, int]) -> None:
        x0, x1 = max(0, x), min(self.width, x + w)
        if x1 <= x0:
            return
        span = bytes(colour) * (x1 - x0)
        for row in range(max(0, y), min(self.height, y + h)):
            start = (row * self.width + x0) * 3
            self.pixels[start : start + len(span)] = span

    def text(self, x: int, y: int, glyphs: str, scale: int, colour: tuple[int, int, int]) -> None:
        for index, glyph in enumerate(glyphs):
            for row, line in enumerate(GLYPHS[glyph]):
                for col, ink in enumerate(line):
                    if ink == "#":
                        self.fill(x + (index * 6 + col) * scale, y + row * scale, scale, scale, colour)

    def png(self) -> bytes:
        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

        stride = self.width * 3
        raw = b"".join(b"\x00" + bytes(self.pixels[row * stride : (row + 1) * stride]) for row in range(self.height))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)  # 8-bit RGB
        image = chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
        return b"\x89PNG\r\n\x1a\n" + image


def table_png(rows: list[list[str | None]], locked: Iterable[tuple[int, int]]) -> bytes:
    """The table of ``rows`` (4 rows of 13 or 14 slots: a card "7H", or None for a gap) as a
    PNG, the cards of ``locked`` (slots) edged as in place."""
    in_place = set(locked)
    cols = max(len(row) for row in rows)
    canvas = Canvas(WIDTH, HEIGHT, FELT)
    margin, gutter = 24, 8
    card_w = (WIDTH - 2 * margin - (cols - 1) * gutter) // cols
    card_h = min((HEIGHT - 2 * margin - 3 * gutter) // 4, card_w * 3 // 2)
    top = (HEIGHT - 4 * card_h - 3 * gutter) // 2
    left = (WIDTH - cols * card_w - (cols - 1) * gutter) // 2
    scale = max(2, card_w // 14)
    for r, row in enumerate(rows):
        for c, card in enumerate(row):
            x, y = left + c * (card_w + gutter), top + r * (card_h + gutter)
            if card is None:
                canvas.fill(x, y, card_w, card_h, GAP)
                continue
            if (r, c) in in_place:
                canvas.fill(x - 4, y - 4, card_w + 8, card_h + 8, LOCKED)
            canvas.fill(x, y, card_w, card_h, CARD)
            ink = RED if card[1] in "HD" else BLACK
            rank = "10" if card[0] == "T" else card[0]
            rank_w = (len(rank) * 6 - 1) * scale
            canvas.text(x + (card_w - rank_w) // 2, y + card_h // 6, rank, scale, ink)
            canvas.text(x + (card_w - 5 * scale) // 2, y + card_h // 6 + 9 * scale, card[1], scale, ink)
    return canvas.png()


def position_png(position) -> bytes:
    """:func:`table_png` of an engine position (games.engine.Position): its cards, and those in place."""
    return table_png(position.rows(), position.locked())
