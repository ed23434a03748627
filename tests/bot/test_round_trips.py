"""How many times answering a message goes to the database: a move reads once and commits once."""

from __future__ import annotations

import inspect
from typing import Any, cast

from bot.config import Settings
from bot.engines import RandomMover
from bot.messages import Incoming, User
from bot.services.games import GameService
from storage import Storage

from .support import Chat, no_image


class Counted:
    """The storage, with the name of each call it was asked for written down."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        attribute = getattr(self._storage, name)
        if not inspect.iscoroutinefunction(attribute):
            return attribute

        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return await attribute(*args, **kwargs)

        return counted


async def started(storage: Storage, clock: Any) -> tuple[Counted, Chat]:
    counted = Counted(storage)
    service = GameService(cast(Storage, counted), Settings(language="en"), clock=clock, engine=RandomMover(seed=1),
                          render=no_image)
    chat = Chat(service)
    await chat.ok("alice", "new @bob", "bob")
    await chat.ok("bob", "accept")
    return counted, chat


async def test_a_move_reads_the_chat_once_and_commits_once(storage, clock):
    counted, chat = await started(storage, clock)
    for user, move in (("alice", "e3e4"), ("bob", "e6e5"), ("alice", "Nb1d2")):
        counted.calls.clear()
        replies = await chat.ok(user, move)
        assert counted.calls == ["chat_state", "append_move"], move
        assert "alice" in replies[0].text and "bob" in replies[0].text  # the names, from the one read


async def test_a_renamed_player_is_shown_by_the_new_name_at_once(storage, clock):
    counted, chat = await started(storage, clock)
    counted.calls.clear()
    renamed = Incoming("console", chat.channel, User("alice", "Alice Liddell"), "e3e4", community="guild")
    replies = await chat.service.handle(renamed)
    assert counted.calls == ["chat_state", "get_or_create_player", "append_move"]
    assert "Alice Liddell" in replies[0].text
    assert (await storage.find_player("console", "alice")).display_name == "Alice Liddell"


async def test_a_refused_move_changes_nothing_and_costs_one_read(storage, clock):
    counted, chat = await started(storage, clock)
    counted.calls.clear()
    await chat.refused("bob", "e6e5", "not_your_turn")
    assert "append_move" not in counted.calls and counted.calls[0] == "chat_state"

