"""Message catalogues in Thai, English, Japanese and Khmer.

Each part of the bot keeps its texts in a folder of its own (``core/``, ``discord/``, ...)
with one file per language (``th.json``, ``en.json``, ``ja.json``, ``km.json``); the files of a language
are merged. A file may have ``commands`` (the words that call each command), ``words`` (option
words such as colours) and ``messages`` (texts with ``{named}`` fields).

>>> catalog = Catalog.load()
>>> catalog.text("en", "error.not_your_turn")
'It is not your turn.'
>>> catalog.command_for("เริ่ม"), catalog.command_for("対局"), catalog.command_for("ថ្មី"), catalog.command_for("NEW")
('new', 'new', 'new', 'new')
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources

LANGUAGES = ("th", "en", "ja", "km")
FALLBACK = "en"


class Catalog:
    def __init__(self, catalogues: dict[str, dict]) -> None:
        self._catalogues = catalogues
        self._commands: dict[str, str] = {}
        self._words: dict[str, str] = {}
        for data in catalogues.values():
            for command, aliases in data["commands"].items():
                for alias in [command, *aliases]:
                    self._commands.setdefault(alias.casefold(), command)
            for word, aliases in data["words"].items():
                for alias in aliases:
                    self._words.setdefault(alias.casefold(), word)

    @classmethod
    @cache
    def load(cls) -> Catalog:
        root = resources.files(__package__)
        parts = sorted((p for p in root.iterdir() if p.is_dir() and (p / "en.json").is_file()), key=lambda p: p.name)
        catalogues = {}
        for lang in LANGUAGES:
            merged: dict = {"commands": {}, "words": {}, "messages": {}}
            for part in parts:
                data = json.loads((part / f"{lang}.json").read_text("utf-8"))
                for section in merged:
                    clash = set(merged[section]) & set(data.get(section, {}))
                    if clash:
                        raise ValueError(f"{part.name}/{lang}.json repeats {section} {sorted(clash)}")
                    merged[section].update(data.get(section, {}))
            catalogues[lang] = merged
        return cls(catalogues)

    def text(self, language: str, key: str, **fields: object) -> str:
        """The message ``key`` in ``language`` (English if the language is unknown)."""
        messages = self._catalogues.get(language, self._catalogues[FALLBACK])["messages"]
        template = messages.get(key)
        if template is None:
            template = self._catalogues[FALLBACK]["messages"][key]
        return template.format(**fields)

    def has(self, key: str) -> bool:
        return key in self._catalogues[FALLBACK]["messages"]

    def command_for(self, word: str) -> str | None:
        return self._commands.get(word.casefold())

    def word_for(self, word: str) -> str | None:
        """The option a word names (``white``, ``optional``, ...), in any language."""
        return self._words.get(word.casefold())

    def command_names(self, language: str) -> dict[str, list[str]]:
        return self._catalogues.get(language, self._catalogues[FALLBACK])["commands"]

    def languages(self) -> tuple[str, ...]:
        return LANGUAGES

    def keys(self, language: str) -> set[str]:
        return set(self._catalogues[language]["messages"])

    def fields(self, language: str, key: str) -> set[str]:
        """The ``{named}`` fields a message uses (the completeness test compares them)."""
        template = self._catalogues[language]["messages"][key]
        return {name for _, name, _, _ in string.Formatter().parse(template) if name}

    def raw(self, language: str) -> dict:
        return self._catalogues[language]


def normalize_language(code: str | None) -> str | None:
    """One of LANGUAGES for a locale such as ``th-TH``, ``ja``, ``en-US``, ``km-KH``; else None.

    >>> normalize_language("km_KH"), normalize_language("en-US"), normalize_language("fr")
    ('km', 'en', None)
    """
    if not code:
        return None
    base = code.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None
