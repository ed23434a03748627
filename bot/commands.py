"""Chat text to commands: an optional ``/`` or ``!`` prefix, a command word in any of the
three languages, then arguments; text that is no command word may be a bare move.

>>> from bot.i18n import Catalog
>>> parse_command("!new @bob black", Catalog.load())
Command(name='new', args=('@bob', 'black'), bare_move=False, prefixed=True)
>>> parse_command("Nd2", Catalog.load())
Command(name='move', args=('Nd2',), bare_move=True, prefixed=False)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from .i18n import Catalog


@dataclass(frozen=True)
class Command:
    name: str  # canonical English name, e.g. "new", "move", "resign"
    args: tuple[str, ...]
    bare_move: bool = False  # no command word: the whole text is tried as a move
    prefixed: bool = False  # the text started with / or !


def parse_command(text: str, catalog: Catalog) -> Command | None:
    """The command in ``text``, or None for empty text. Never raises."""
    text = clean_text(text)
    prefixed = text[:1] in ("/", "!")
    if prefixed:
        text = text[1:].lstrip()
    if not text:
        return None
    words = text.split()
    name = catalog.command_for(words[0])
    if name is not None:
        return Command(name, tuple(words[1:]), prefixed=prefixed)
    return Command("move", (text,), bare_move=True, prefixed=prefixed)


# Full-width Latin letters, digits and signs (a Japanese keyboard's default) to ASCII, and the
# ideographic space to a space. Not NFKC: it would also split Thai's SARA AM (U+0E33) in two.
_FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {0x3000: 0x20}


def clean_text(text: str) -> str:
    """Drops control and format characters (zero-width spaces from phones, stray escapes) and
    reads full-width letters and digits as ASCII.

    >>> clean_text("！ｍｏｖｅ\u3000ｅ３ｅ４\u200b"), clean_text("จำ")
    ('!move e3e4', 'จำ')
    """
    text = unicodedata.normalize("NFC", text).translate(_FULL_WIDTH)
    kept = []
    for ch in text:
        category = unicodedata.category(ch)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn"):
            kept.append(" " if ch in "\t\n\r" else "")
        else:
            kept.append(ch)
    return " ".join("".join(kept).split())
