"""The detail picture cut to an inset's view (render/pixels.py): the cut draws the same
pixels in the same places as the whole picture did, and what cannot be cut is left whole."""

from __future__ import annotations

import base64
import random

import pytest

from payjudge.render import svg
from payjudge.render.pixels import Pixels, cut
from payjudge.render.raster import png
from tests.pngread import difference, read_png


def _noise(width: int, height: int, seed: int = 1) -> Pixels:
    """Blocks of random colours, 3 pixels square: a misplaced pixel shows."""
    rng = random.Random(seed)
    blocks = {
        (x, y): bytes(rng.randrange(256) for _ in range(3))
        for x in range(0, width, 3)
        for y in range(0, height, 3)
    }
    return Pixels(
        width, height, b"".join(blocks[x - x % 3, y - y % 3] for y in range(height) for x in range(width))
    )


def _uri(p: Pixels) -> str:
    return "data:image/png;base64," + base64.b64encode(p.png()).decode()


def test_ppm_and_png_round_trip():
    p = _noise(31, 17)
    header = b"P6\n# made by a test\n31 17\n255\n"
    assert Pixels.from_ppm(header + p.rgb) == p
    assert Pixels.from_png(p.png()) == p
    assert Pixels.from_png(p.png(level=1)) == p
    rows = read_png(p.png())[2]  # any PNG reader reads it
    assert rows[5][3 * 7 : 3 * 8] == p.rgb[(5 * 31 + 7) * 3 : (5 * 31 + 8) * 3]


def test_crop():
    p = _noise(20, 10)
    c = p.crop(3, 2, 9, 7)
    assert (c.width, c.height) == (6, 5)
    assert c.rgb[:3] == p.rgb[(2 * 20 + 3) * 3 : (2 * 20 + 4) * 3]


def test_a_png_not_written_here_is_not_cut():
    """resvg's PNG (filtered rows): no pixels, and the inset keeps the whole picture."""
    made = png(
        '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><circle cx="20" cy="15" r="9"/></svg>'
    )
    assert Pixels.from_png(made) is None
    uri = "data:image/png;base64," + base64.b64encode(made).decode()
    assert cut(uri, (0.0, 0.0, 80.0, 60.0), (0.0, 0.0, 40.0, 30.0)) is None
    with pytest.raises(ValueError):
        Pixels.from_ppm(b"P5\n2 2\n255\n....")


@pytest.mark.parametrize(
    "frame,view",
    [
        ((-179.6, -14.1, 2309.0, 2054.1), (0.0, 0.0, 1000.0, 480.3)),  # youngstown's, scaled down
        # the picture enlarged (not at a scale where a pixel's centre falls on the edge
        # between two of the picture's: there a thousandth may decide the tie)
        ((-40.3, -25.7, 601.3, 399.1), (0.0, 0.0, 300.0, 170.0)),
        ((0.0, 0.0, 500.0, 300.0), (0.0, 0.0, 500.0, 300.0)),  # all of it in view
    ],
)
def test_the_cut_draws_what_the_whole_picture_drew(frame, view):
    pixels = _noise(500 if frame[2] > 1000 else 250, 450 if frame[2] > 1000 else 170, seed=int(frame[2]))
    whole = _uri(pixels)
    part = cut(whole, frame, view)
    assert part is not None
    href, placed = part
    kept = Pixels.from_png(base64.b64decode(href.split(",", 1)[1]))
    assert kept is not None and kept.width <= pixels.width and kept.height <= pixels.height
    assert placed[2] <= frame[2] and placed[3] <= frame[3]

    def drawn(uri: str, at: tuple[float, float, float, float]) -> bytes:
        x, y, w, h = at
        image = svg.element(
            "image", href=uri, x=svg.fine(x), y=svg.fine(y), width=svg.fine(w), height=svg.fine(h),
            preserveAspectRatio="none", image_rendering="optimizeSpeed",
        )  # fmt: skip
        w_, h_ = svg.num(view[2]), svg.num(view[3])
        return png(f'<svg xmlns="http://www.w3.org/2000/svg" width="{w_}" height="{h_}">{image}</svg>')

    assert difference(drawn(whole, frame), drawn(href, placed), tolerance=1) < 0.002


def test_out_of_view_is_not_cut():
    assert cut(_uri(_noise(30, 30)), (500.0, 500.0, 60.0, 60.0), (0.0, 0.0, 100.0, 100.0)) is None
