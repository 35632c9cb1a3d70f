"""Pictures as rows of pixels: the detail picture of a map cut to what an inset shows.

An inset sheet shows a small part of its map's detail picture (`drawing.DETAIL` times the
board's size: some 2,500 x 2,200 pixels on youngstown). Handed the whole picture, resvg
decodes every pixel of it for every inset sheet, three quarters of the sheet's time; cut
to the part the inset shows (a tenth of it, or less), it decodes that part only.

Cutting needs the pixels. A PNG's rows are usually filtered (each written as its
difference from its neighbours), which only a full decoder undoes, and we have none; so
the detail picture is written here, from Ghostscript's raw pixels, with every row
unfiltered (PNG filter type 0): reading it back is zlib's decompress and a slice a row.
A detail picture written otherwise (kept from an older version) is used whole.
"""

from __future__ import annotations

import base64
import functools
import math
import struct
import zlib
from dataclasses import dataclass

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PREFIX = "data:image/png;base64,"
Frame = tuple[float, float, float, float]  # x, y, width, height
Box = tuple[float, float, float, float]  # x0, y0, x1, y1
_MARGIN = 2  # pixels kept round the view, so that its edge is drawn as before the cut


@dataclass(frozen=True)
class Pixels:
    """An RGB picture, 8 bits a channel: its rows top to bottom, 3 bytes a pixel."""

    width: int
    height: int
    rgb: bytes

    @classmethod
    def from_ppm(cls, data: bytes) -> Pixels:
        """A binary PPM (P6, 8 bits), as Ghostscript's ppmraw device writes it."""
        fields: list[bytes] = []
        pos = 0
        while len(fields) < 4:
            while data[pos : pos + 1].isspace():
                pos += 1
            if data[pos : pos + 1] == b"#":  # a comment runs to the end of its line
                pos = data.index(b"\n", pos) + 1
                continue
            end = pos
            while end < len(data) and not data[end : end + 1].isspace():
                end += 1
            fields.append(data[pos:end])
            pos = end
        magic, width, height, depth = fields
        if magic != b"P6" or depth != b"255":
            raise ValueError(f"not an 8-bit binary PPM: {magic!r} {depth!r}")
        w, h = int(width), int(height)
        rgb = data[pos + 1 : pos + 1 + 3 * w * h]  # one whitespace byte ends the header
        if len(rgb) != 3 * w * h:
            raise ValueError("a PPM shorter than its size")
        return cls(w, h, rgb)

    @classmethod
    def from_png(cls, data: bytes) -> Pixels | None:
        """The pixels of a PNG as `png` writes them (8-bit RGB, not interlaced, every row
        unfiltered); None for any other PNG."""
        if not data.startswith(_SIGNATURE):
            return None
        pos, head, idat = 8, None, []
        while pos + 8 <= len(data):
            length, kind = struct.unpack(">I4s", data[pos : pos + 8])
            body = data[pos + 8 : pos + 8 + length]
            if kind == b"IHDR":
                head = struct.unpack(">IIBBBBB", body)
            elif kind == b"IDAT":
                idat.append(body)
            pos += 12 + length
        if head is None or head[2:] != (8, 2, 0, 0, 0):
            return None
        w, h = head[0], head[1]
        raw = zlib.decompress(b"".join(idat))
        stride = 3 * w + 1
        if len(raw) != stride * h or any(raw[y * stride] for y in range(h)):
            return None
        return cls(w, h, b"".join(raw[y * stride + 1 : (y + 1) * stride] for y in range(h)))

    def png(self, level: int = 6) -> bytes:
        """The picture as a PNG, every row unfiltered (so that `from_png` reads it back)."""
        stride = 3 * self.width
        rows = b"".join(b"\0" + self.rgb[y * stride : (y + 1) * stride] for y in range(self.height))
        head = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return (
            _SIGNATURE
            + _chunk(b"IHDR", head)
            + _chunk(b"IDAT", zlib.compress(rows, level))
            + _chunk(b"IEND", b"")
        )

    def crop(self, x0: int, y0: int, x1: int, y1: int) -> Pixels:
        """The pixels of columns x0..x1-1 and rows y0..y1-1."""
        stride = 3 * self.width
        rows = (self.rgb[y * stride + 3 * x0 : y * stride + 3 * x1] for y in range(y0, y1))
        return Pixels(x1 - x0, y1 - y0, b"".join(rows))


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


@functools.lru_cache(maxsize=4)
def _decoded(uri: str) -> Pixels | None:
    """The pixels of a picture given as a data: URI (the few maps in use stay decoded)."""
    if not uri.startswith(_PREFIX):
        return None
    return Pixels.from_png(base64.b64decode(uri[len(_PREFIX) :]))


def cut(uri: str, frame: Frame, view: Box) -> tuple[str, Frame] | None:
    """The part of the picture `uri`, drawn over `frame`, that shows in `view`, and the
    frame it is drawn over: the same pixels in the same places, as far as the view
    shows them (None when the picture cannot be cut: not one of ours, or out of view)."""
    pixels = _decoded(uri)
    if pixels is None:
        return None
    fx, fy, fw, fh = frame
    sx, sy = fw / pixels.width, fh / pixels.height  # picture units a pixel
    x0 = max(math.floor((view[0] - fx) / sx) - _MARGIN, 0)
    y0 = max(math.floor((view[1] - fy) / sy) - _MARGIN, 0)
    x1 = min(math.ceil((view[2] - fx) / sx) + _MARGIN, pixels.width)
    y1 = min(math.ceil((view[3] - fy) / sy) + _MARGIN, pixels.height)
    if x1 <= x0 or y1 <= y0:
        return None
    part = pixels.crop(x0, y0, x1, y1).png(level=1)  # drawn at once: speed over size
    href = _PREFIX + base64.b64encode(part).decode("ascii")
    return href, (fx + x0 * sx, fy + y0 * sy, (x1 - x0) * sx, (y1 - y0) * sy)
