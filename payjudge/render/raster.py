"""SVG to PNG with resvg (a self-contained wheel: no system library, only a font)."""

from __future__ import annotations


def png(svg_text: str, *, zoom: float = 1.0) -> bytes:
    """The picture as PNG bytes. Text is set in DejaVu Sans when the system has it
    (Debian's fonts-dejavu-core), else in whatever sans-serif font it has."""
    import resvg_py  # imported here: only pictures need it

    data = resvg_py.svg_to_bytes(
        svg_string=svg_text,
        zoom=zoom,
        background="#ffffff",
        font_family="DejaVu Sans",
        sans_serif_family="DejaVu Sans",
    )
    return bytes(data)
