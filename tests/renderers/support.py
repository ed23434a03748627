"""What the renderer tests share."""

from __future__ import annotations

import io

from PIL import Image


def same_pixels(first: bytes, second: bytes) -> bool:
    """Two PNGs decode to the same image: size, mode, palette and every pixel's value."""
    a, b = Image.open(io.BytesIO(first)), Image.open(io.BytesIO(second))
    return (a.size, a.mode, a.getpalette(), a.tobytes()) == (b.size, b.mode, b.getpalette(), b.tobytes())
