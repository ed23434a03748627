"""The game service finds every command through its registry, and the catalogues name each."""

from __future__ import annotations

import pytest

from bot.i18n import LANGUAGES, Catalog
from bot.services.games import COMMANDS
from bot.services.games.registry import CommandGroup, Registry


def test_every_command_of_the_catalogues_has_a_handler_and_no_handler_lacks_words() -> None:
    catalog = Catalog.load()
    assert COMMANDS.names() == set(catalog.raw("en")["commands"])


def test_every_command_is_called_by_words_in_every_language() -> None:
    catalog = Catalog.load()
    for entry in COMMANDS:
        for language in LANGUAGES:
            words = entry.aliases(catalog, language)
            assert words, (entry.name, language)
            assert all(catalog.command_for(word) == entry.name for word in words)


def test_commands_are_grouped_by_what_they_are_about() -> None:
    groups = {entry.name: entry.group for entry in COMMANDS}
    assert groups["new"] == groups["accept"] == "challenges"
    assert groups["move"] == groups["board"] == groups["history"] == "moves"
    assert groups["resign"] == groups["draw"] == groups["undo"] == "offers"
    assert groups["count"] == groups["stopcount"] == "counting"
    assert groups["rating"] == groups["top"] == "ratings"


def test_a_command_registered_twice_is_an_error() -> None:
    one, two = CommandGroup("one"), CommandGroup("two")

    async def handler(table: object, ctx: object, args: tuple[str, ...]) -> list[object]:
        return []

    one.command("wave")(handler)
    two.command("wave")(handler)
    with pytest.raises(ValueError, match="wave"):
        Registry(one, two)
