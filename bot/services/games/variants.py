"""The variants of the Makruk family, by Fairy-Stockfish's names, and the words that name them.

Each variant has its own ratings and its own ``top``; words such as ``ouk`` or ``หมากรุกพม่า``
(``variant_<name>`` under ``words`` in the catalogues) name one in any language.

>>> from bot.i18n import Catalog
>>> variant_named(Catalog.load(), "Ouk"), variant_named(Catalog.load(), "シットゥイン")
('cambodian', 'sittuyin')
>>> variant_named(Catalog.load(), "white") is None
True
"""

from __future__ import annotations

from typing import Final

import makruk

from ...i18n import Catalog

# The rules core's names, Makruk first.
VARIANTS: Final = makruk.VARIANTS
DEFAULT_VARIANT: Final = "makruk"
_WORD_PREFIX: Final = "variant_"


def variant_named(catalog: Catalog, word: str) -> str | None:
    """The variant ``word`` names in any language (its words in the catalogues), else None."""
    found = catalog.word_for(word) or ""
    name = found.removeprefix(_WORD_PREFIX)
    return name if found.startswith(_WORD_PREFIX) and name in VARIANTS else None
