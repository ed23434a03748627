"""The one error of the renderers: a bad option (the rules core raises its own for bad FEN or moves)."""

from __future__ import annotations


class RenderError(ValueError):
    """A rendering option is out of range or unknown, e.g. ``coords="roman"`` or ``size=10``."""
