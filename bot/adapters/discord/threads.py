"""The thread of each game: opened when the game starts, remembered since start-up, else found by
its name (``#<game>``) among the channel's active and recently archived threads that this bot created.

What is remembered is bounded: the most recently used ``MAX_REMEMBERED`` games, and a game is
forgotten when it ends. A forgotten thread is found again by its name when needed.
"""

from __future__ import annotations

import logging
import re
from collections import OrderedDict
from typing import Final, TypeVar

import discord

log = logging.getLogger(__name__)

ARCHIVE_MINUTES: Final = 10080  # a week: correspondence games move slowly
ARCHIVED_THREADS_SEARCHED = 50
MAX_NAME = 100  # Discord's limit for a thread's name
MAX_REMEMBERED = 2048  # games whose thread (or its absence) is kept in memory

K = TypeVar("K")
V = TypeVar("V")


class GameThreads:
    def __init__(self, bot: discord.Client, *, limit: int = MAX_REMEMBERED) -> None:
        self.bot = bot
        self.limit = limit
        self._threads: OrderedDict[int, discord.Thread] = OrderedDict()  # game id -> thread, least recent first
        self._absent: OrderedDict[int, None] = OrderedDict()  # games already looked for in vain

    def __len__(self) -> int:
        """How many games are remembered (with a thread or without one)."""
        return len(self._threads) + len(self._absent)

    def owns(self, thread: discord.Thread) -> bool:
        """Whether this bot created ``thread`` (so it may be a game's)."""
        me = self.bot.user.id if self.bot.user else None
        return thread.owner_id == me

    def remember(self, game_id: int, thread: discord.Thread) -> None:
        self._absent.pop(game_id, None)
        _put(self._threads, game_id, thread, self.limit)

    def forget(self, game_id: int) -> None:
        """The game's thread is gone (deleted, or locked): its boards stay in the channel."""
        self._threads.pop(game_id, None)
        _put(self._absent, game_id, None, self.limit)

    def retire(self, game_id: int) -> None:
        """The game is over: nothing about it is kept (a later look finds its thread by name)."""
        self._threads.pop(game_id, None)
        self._absent.pop(game_id, None)

    def parent_of(self, thread_id: int | None) -> int | None:
        """The channel of a game thread seen recently; None for any other channel."""
        return next((t.parent_id for t in self._threads.values() if t.id == thread_id), None)

    def game_of(self, channel: object, channel_id: int | None) -> int | None:
        """The game whose thread a message was written in (``#<game>`` in the name of a thread
        of this bot, or a thread seen recently); None for any other channel."""
        if isinstance(channel, discord.Thread) and self.owns(channel):
            named = re.search(r"#(\d+)(?!\d)", channel.name)
            if named is not None:
                return int(named[1])
        return next((game for game, t in self._threads.items() if t.id == channel_id), None)

    async def find(self, channel: discord.TextChannel, game_id: int) -> discord.Thread | None:
        if game_id in self._threads:
            self._threads.move_to_end(game_id)
            return self._threads[game_id]
        if game_id in self._absent:
            self._absent.move_to_end(game_id)
            return None
        found = next((t for t in channel.threads if self._is_thread_of(t, game_id)), None)
        certain = True  # whether Discord's answer settles that the game has no thread
        if found is None:
            try:
                async for thread in channel.archived_threads(limit=ARCHIVED_THREADS_SEARCHED):
                    if self._is_thread_of(thread, game_id):
                        found = thread
                        break
            except discord.Forbidden:
                pass  # no Read Message History: only active threads are known
            except discord.HTTPException as error:
                certain = False  # Discord failed to answer: look again next time
                log.warning("could not look for the thread of game %s in %s: %s", game_id, channel.id, error)
        if found is not None:
            self.remember(game_id, found)
        elif certain:
            _put(self._absent, game_id, None, self.limit)
        return found

    async def open(self, channel: discord.TextChannel, game_id: int, name: str,
                   starter: discord.Message | None) -> discord.Thread | None:
        """A new public thread for the game, on the ``starter`` message if there is one;
        None if Discord refuses."""
        try:
            if starter is not None:
                thread = await channel.create_thread(name=name[:MAX_NAME], message=starter,
                                                     auto_archive_duration=ARCHIVE_MINUTES)
            else:
                thread = await channel.create_thread(name=name[:MAX_NAME], type=discord.ChannelType.public_thread,
                                                     auto_archive_duration=ARCHIVE_MINUTES)
        except discord.HTTPException as error:
            log.warning("could not open a thread for game %s in %s: %s", game_id, channel.id, error)
            return None
        self.remember(game_id, thread)
        return thread

    def _is_thread_of(self, thread: discord.Thread, game_id: int) -> bool:
        return self.owns(thread) and re.search(rf"#{game_id}(?!\d)", thread.name) is not None


def _put(table: OrderedDict[K, V], key: K, value: V, limit: int) -> None:
    """Stores ``key`` as the most recent entry; the least recent go beyond ``limit``."""
    table[key] = value
    table.move_to_end(key)
    while len(table) > limit:
        table.popitem(last=False)
