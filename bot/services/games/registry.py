"""The commands the game service knows: a name, the handler, and the group it belongs to.

Each module of this package that answers commands has a ``CommandGroup`` and registers its
handlers with it; ``Registry`` joins the groups. The words that call a command, in every
language, are its aliases in the catalogues (``bot/i18n/*/``): ``aliases`` reads them there.

>>> group = CommandGroup("example")
>>> @group.command("wave")
... async def wave(table, ctx, args):
...     return []
>>> registry = Registry(group)
>>> registry.find("wave").group, registry.find("jump")
('example', None)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...i18n import Catalog
    from ...messages import Reply
    from .context import Context
    from .table import Table

Handler = Callable[["Table", "Context", tuple[str, ...]], Awaitable["list[Reply]"]]


@dataclass(frozen=True)
class CommandEntry:
    name: str  # the canonical English name, as the catalogues key it
    handler: Handler
    group: str  # the module that answers it: "challenges", "moves", ...

    def aliases(self, catalog: Catalog, language: str) -> list[str]:
        """The words that call this command in ``language``."""
        return list(catalog.command_names(language).get(self.name, []))


class CommandGroup:
    """The commands of one module."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.entries: list[CommandEntry] = []

    def command(self, name: str) -> Callable[[Any], Any]:
        def register(handler: Handler) -> Handler:
            self.entries.append(CommandEntry(name, handler, self.name))
            return handler

        return register


class Registry:
    def __init__(self, *groups: CommandGroup) -> None:
        self._entries: dict[str, CommandEntry] = {}
        for group in groups:
            for entry in group.entries:
                if entry.name in self._entries:
                    raise ValueError(f"command {entry.name!r} is registered twice")
                self._entries[entry.name] = entry

    def find(self, name: str) -> CommandEntry | None:
        return self._entries.get(name)

    def __iter__(self) -> Iterator[CommandEntry]:
        return iter(self._entries.values())

    def names(self) -> set[str]:
        return set(self._entries)
