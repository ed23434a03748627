"""Command names, descriptions and choices in Thai and Japanese, from the message catalogue.

Every command string is a ``locale_str`` whose English text comes from the catalogue and whose
``key`` extra names the catalogue entry; discord.py asks the translator for each locale when it
builds the command payload (``CommandTree.sync`` or ``--dump-commands``).

>>> text("discord.cmd.new")
locale_str('new', key='discord.cmd.new')
"""

from __future__ import annotations

from discord import Locale, app_commands

from ...i18n import Catalog

# Discord locales the catalogue has languages for; English is the default text itself. Discord has no
# Khmer locale: Khmer clients see the English names, and a server chooses Khmer with /makruk-server lang.
LOCALES = {Locale.thai: "th", Locale.japanese: "ja"}


def text(key: str) -> app_commands.locale_str:
    """A command string: the catalogue's English text, carrying its key for the translator."""
    return app_commands.locale_str(Catalog.load().text("en", key), key=key)


class CatalogTranslator(app_commands.Translator):
    def __init__(self, catalog: Catalog | None = None) -> None:
        self.catalog = catalog or Catalog.load()

    async def translate(self, string: app_commands.locale_str, locale: Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        language = LOCALES.get(locale)
        key = string.extras.get("key")
        if language is None or key is None:
            return None
        return self.catalog.raw(language)["messages"].get(key)
