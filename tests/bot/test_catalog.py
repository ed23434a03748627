"""Every user-facing text exists in Thai, English and Japanese, with the same fields."""

from __future__ import annotations

import re
from pathlib import Path

import makruk.errors
from bot.i18n import LANGUAGES, Catalog
from bot.services import presenter

BOT = Path(__file__).resolve().parents[2] / "bot"


def test_every_key_exists_in_every_language_with_the_same_fields():
    catalog = Catalog.load()
    english = catalog.keys("en")
    for language in LANGUAGES:
        assert catalog.keys(language) == english, language
        for key in english:
            assert catalog.fields(language, key) == catalog.fields("en", key), (language, key)
            assert catalog.text(language, key, **dict.fromkeys(catalog.fields("en", key), "x")).strip()


def test_every_command_and_option_has_words_in_every_language():
    catalog = Catalog.load()
    for language in LANGUAGES:
        raw = catalog.raw(language)
        assert set(raw["commands"]) == set(catalog.raw("en")["commands"])
        assert set(raw["words"]) == set(catalog.raw("en")["words"])
        for command, words in raw["commands"].items():
            assert words, (language, command)
            for word in words:
                assert catalog.command_for(word) == command, (language, word)


def test_every_refusal_and_reason_the_code_uses_has_a_message():
    catalog = Catalog.load()
    source = "\n".join(p.read_text("utf-8") for p in BOT.rglob("*.py"))
    refusals = set(re.findall(r'Refusal\(\s*"([a-z_]+)"', source))
    assert len(refusals) > 20
    for code in refusals:
        assert catalog.has(f"error.{code}"), code
    doc = makruk.errors.IllegalMoveError.__doc__
    assert doc is not None
    illegal_codes = re.findall(r"``([a-z_]+)``", doc.split("Codes:")[1])
    assert "perpetual_check" in illegal_codes
    for code in illegal_codes:
        assert catalog.has(f"error.illegal.{code}"), code
    for reason in ("checkmate", "stalemate", "repetition", "counting", "material",
                   "resignation", "agreement", "timeout"):
        assert catalog.has(f"reason.{reason}"), reason
    for command in presenter.HELP_COMMANDS + presenter.MORE_HELP:
        assert catalog.has(f"help.{command}"), command
    for key in re.findall(r'"((?:action|challenge|count|draw|undo|game|top)\.[a-z_.]+)"', source):
        assert catalog.has(key), key
