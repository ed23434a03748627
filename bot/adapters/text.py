"""Text that every door cuts to its platform's limits alike."""

from __future__ import annotations

ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, ending in an ellipsis when it was cut.

    >>> clip("resign the game", 8), clip("resign", 8)
    ('resign …', 'resign')
    """
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS
