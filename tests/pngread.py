"""A small PNG reader for tests: 8-bit RGB or RGBA, not interlaced (what resvg, Ghostscript
and Chromium write), so a test can look at a picture's pixels without an image library."""

from __future__ import annotations

import struct
import zlib
from collections import Counter


def read_png(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, rows of RGB bytes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, head = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = head
    assert depth == 8 and colour in (2, 6) and not interlace, head
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append(bytes(line) if bpp == 3 else bytes(v for i, v in enumerate(line) if i % 4 != 3))
    return width, height, rows


def pixel(rows: list[bytes], x: int, y: int) -> tuple[int, int, int]:
    r = rows[y]
    return r[3 * x], r[3 * x + 1], r[3 * x + 2]


def colour_counts(data: bytes, step: int = 2) -> Counter:
    """How many pixels (of every `step`-th row and column) have each colour."""
    width, height, rows = read_png(data)
    out: Counter = Counter()
    for y in range(0, height, step):
        row = rows[y]
        for x in range(0, width, step):
            out[(row[3 * x], row[3 * x + 1], row[3 * x + 2])] += 1
    return out


def near(colour: tuple[int, int, int], hex_colour: str, tolerance: int = 12) -> bool:
    target = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target))


def difference(a: bytes, b: bytes, tolerance: int = 40) -> float:
    """The share of pixels whose colours differ by more than `tolerance` in some channel
    (1.0 when the pictures differ in size): how golden pictures are compared, so that a
    change of font hinting passes and a moved name or arrow does not."""
    wa, ha, rows_a = read_png(a)
    wb, hb, rows_b = read_png(b)
    if (wa, ha) != (wb, hb):
        return 1.0
    differ = 0
    for ra, rb in zip(rows_a, rows_b, strict=True):
        if ra == rb:
            continue
        differ += sum(
            1
            for x in range(0, len(ra), 3)
            if max(abs(ra[x] - rb[x]), abs(ra[x + 1] - rb[x + 1]), abs(ra[x + 2] - rb[x + 2])) > tolerance
        )
    return differ / (wa * ha)
