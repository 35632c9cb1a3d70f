"""SVG to PNG with resvg (a self-contained wheel: no system library, only a font)."""

from __future__ import annotations


def png(svg_text: str, *, zoom: float = 1.0) -> bytes:
    """The picture as PNG bytes. Text is set in DejaVu Sans when the system has it
    (Debian's fonts-dejavu-core), else in whatever sans-serif font it has.

    A map's drawing is an embedded PNG laid out at its own pixel size, so at zoom 1 each
    of its pixels lands on one pixel of the picture: resvg's plain copy (`optimize_speed`)
    then gives the drawing as it is, where its smoothing filter, scaling by a factor of
    0.9997, takes two thirds of the picture's time and blurs the drawing a little (which
    also makes the PNG larger: 300 kB against 185 kB for the standard board). Drawn
    smaller, the filter is needed (a plain copy would drop whole rows of the drawing's
    borders). An image that says how to be scaled (an inset's) keeps its own setting."""
    import resvg_py  # imported here: only pictures need it

    data = resvg_py.svg_to_bytes(
        svg_string=svg_text,
        zoom=zoom,
        background="#ffffff",
        font_family="DejaVu Sans",
        sans_serif_family="DejaVu Sans",
        image_rendering="optimize_speed" if zoom == 1 else "optimize_quality",
    )
    return bytes(data)
