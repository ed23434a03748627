"""The thread of each game: opened when the game starts, remembered since start-up, else found by
its name (``#<game>``) among the channel's active and recently archived threads that this bot created.
"""

from __future__ import annotations

import logging
import re
from typing import Final

import discord

log = logging.getLogger(__name__)

ARCHIVE_MINUTES: Final = 10080  # a week: correspondence games move slowly
ARCHIVED_THREADS_SEARCHED = 50
MAX_NAME = 100  # Discord's limit for a thread's name


class GameThreads:
    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self._threads: dict[int, discord.Thread] = {}
        self._absent: set[int] = set()  # games already looked for in vain

    def owns(self, thread: discord.Thread) -> bool:
        """Whether this bot created ``thread`` (so it may be a game's)."""
        me = self.bot.user.id if self.bot.user else None
        return thread.owner_id == me

    def remember(self, game_id: int, thread: discord.Thread) -> None:
        self._threads[game_id] = thread
        self._absent.discard(game_id)

    def forget(self, game_id: int) -> None:
        self._threads.pop(game_id, None)
        self._absent.add(game_id)

    def parent_of(self, thread_id: int | None) -> int | None:
        """The channel of a game thread seen since start-up; None for any other channel."""
        return next((t.parent_id for t in self._threads.values() if t.id == thread_id), None)

    async def find(self, channel: discord.TextChannel, game_id: int) -> discord.Thread | None:
        if game_id in self._threads:
            return self._threads[game_id]
        if game_id in self._absent:
            return None
        found = next((t for t in channel.threads if self._is_thread_of(t, game_id)), None)
        if found is None:
            try:
                async for thread in channel.archived_threads(limit=ARCHIVED_THREADS_SEARCHED):
                    if self._is_thread_of(thread, game_id):
                        found = thread
                        break
            except discord.HTTPException:
                pass  # no Read Message History: only active threads are known
        if found is None:
            self._absent.add(game_id)
        else:
            self._threads[game_id] = found
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
